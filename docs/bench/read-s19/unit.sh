#!/bin/bash
# Solves unit p4+0-7+1 of Lasker Morris over links to the campaign's layers, each binary in turn.
for r in 1 2; do
  for b in /tmp/mc-old /tmp/mc-new; do
    rm -f /tmp/lk/lasker/k10/p4+0-7+1.* /tmp/lk/lasker/k10/p7+1-4+0.* /tmp/lk/lasker/k10/solve-record.tsv /tmp/lk/lasker/k10/*.claim
    rm -rf /tmp/lk/lasker/k10/tmp /tmp/lk/tmp
    echo "$(basename $b) $(cd /tmp && /usr/bin/time -f '%e s wall %U u %S s %M KB' $b solve --game lasker --unit p4+0-7+1 --compress --db /tmp/lk 2>&1 | grep -E 'slots in|wall' | tr '\n' ' ')"
  done
done
