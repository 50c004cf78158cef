#!/bin/bash
# Issue 13, the sector variant as the default: the 2 s placement target and
# issue 12's matches again, then a k=5 check cell; nothing else running.
# Usage: switch.sh BIN
BIN=${1:?binary}
OUT=~/campaign/switch; mkdir -p $OUT; cd $OUT
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
T() { /usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KiB maxrss" "$@"; }
for r in 1 2 3; do
  for p in perfect:trap perfect; do
    drop; T $BIN placement --player $p --positions 200 --seed 1 > placement-$p-$r.txt 2>&1
  done
done
T $BIN placement --player perfect --positions 200 --seed 1 --warm > placement-perfect-warm.txt 2>&1
T $BIN match --white perfect --black random --games 100 --jobs 2 > match-random.txt 2>&1
T $BIN match --white perfect --black ab:4 -ab-db=false --games 100 --jobs 2 > match-ab4-nodb.txt 2>&1
T $BIN match --white perfect --black ab:4 --games 100 --jobs 2 > match-ab4.txt 2>&1
T $BIN match --white perfect --black perfect --games 20 --jobs 2 > match-perfect.txt 2>&1
T $BIN match --stones 5 --db /work/dbs -ab-db=false --white perfect --black ab:4 --games 400 --jobs 2 > k5-perfect-ab4.txt 2>&1
echo done
# Then, by hand (long-test.txt):
# cd cmd/muehlectl && MUEHLE_STANDARD_DB=~/.local/share/muehle go test -tags long -run PerfectStandardGame -v
