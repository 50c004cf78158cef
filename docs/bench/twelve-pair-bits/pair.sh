#!/bin/bash
# usage: pair.sh ROUNDS bin...   interleaved: each round, each test binary of ./retro/ (go test -c
# -o retro-COMMIT.test ./retro/ at each commit, in this folder): SolveNamedPair of Twelve Men's
# Morris 4-6 + 6-4 over /tmp/h52g-twelve (the layers to 10 stones, solved by
# muehlectl solve --game twelve --max-stones 10).
rounds=$1; shift
cd "$(dirname "$0")"
for r in $(seq $rounds); do
  for v in "$@"; do
    MUEHLE_BENCH_DB=/tmp/h52g-twelve MUEHLE_BENCH_GAME=twelve MUEHLE_BENCH_PAIR=4-6 ./$v -test.run '^$' -test.bench 'SolveNamedPair' -test.benchtime 1x >> ${v%.test}-twelve-4-6.txt 2>&1
    echo "round $r $v done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> progress.txt
  done
done
