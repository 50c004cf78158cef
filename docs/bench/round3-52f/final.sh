#!/bin/bash
# usage: final.sh ROUNDS bin...   interleaved: each round, each binary: SolveNamedPair of
# Twelve Men's Morris 4-6 + 6-4, Lasker Morris 3-7 + 7-3 and the standard game's 4-6 + 6-4
# (control). Folders: /tmp/h52f-twelve, /tmp/h52f-lasker (solved by muehlectl of 66d9998,
# --max-stones 10 and 9), /tmp/h52f-db (k9/: links to /tmp/bench-k9's files).
rounds=$1; shift
out=/tmp/h52f-bench
mkdir -p $out
for r in $(seq $rounds); do
  for v in "$@"; do
    MUEHLE_BENCH_DB=/tmp/h52f-twelve MUEHLE_BENCH_GAME=twelve MUEHLE_BENCH_PAIR=4-6 nice -n 5 ./$v -test.run '^$' -test.bench 'SolveNamedPair' -test.benchtime 1x >> $out/$v-twelve-4-6.txt 2>&1
    MUEHLE_BENCH_DB=/tmp/h52f-lasker MUEHLE_BENCH_GAME=lasker MUEHLE_BENCH_PAIR=3-7 nice -n 5 ./$v -test.run '^$' -test.bench 'SolveNamedPair' -test.benchtime 1x >> $out/$v-lasker-3-7.txt 2>&1
    MUEHLE_BENCH_DB=/tmp/h52f-db MUEHLE_BENCH_PAIR=4-6 nice -n 5 ./$v -test.run '^$' -test.bench 'SolveNamedPair' -test.benchtime 1x >> $out/$v-std-4-6.txt 2>&1
    echo "round $r $v done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> $out/progress.txt
  done
done
