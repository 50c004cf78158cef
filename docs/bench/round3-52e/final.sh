#!/bin/bash
# usage: final.sh ROUNDS bin...   interleaved: each round, each binary: standard 4-6, 5-7 verify+derive; Twelve 4-6 + 6-4 solve
rounds=$1; shift
mkdir -p /tmp/h52e-bench
for r in $(seq $rounds); do
  for v in "$@"; do
    for pair in 4-6 5-7; do
      MUEHLE_BENCH_DB=/tmp/h52e-db MUEHLE_BENCH_PAIR=$pair nice -n 5 ./$v -test.run '^$' -test.bench 'VerifyNamedLayer|DeriveNamedLayer' -test.benchtime 1x >> /tmp/h52e-bench/$v-std-$pair.txt 2>&1
    done
    MUEHLE_BENCH_DB=/tmp/h52e-twelve MUEHLE_BENCH_GAME=twelve MUEHLE_BENCH_PAIR=4-6 nice -n 5 ./$v -test.run '^$' -test.bench 'SolveNamedPair' -test.benchtime 1x >> /tmp/h52e-bench/$v-twelve-4-6.txt 2>&1
    echo "round $r $v done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/h52e-bench/progress.txt
  done
done
