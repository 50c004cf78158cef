#!/bin/bash
# usage: cpubench.sh ROUNDS BENCH N variant... ; prints variant user-seconds per run
rounds=$1; bench=$2; n=$3; shift 3
for r in $(seq $rounds); do
  for v in "$@"; do
    t=$( { /usr/bin/time -f "%U %S" ./$v -test.run '^$' -test.bench "^Benchmark${bench}\$" -test.benchtime ${n}x -test.cpu 1 >/dev/null; } 2>&1 | tail -1)
    echo "$v $bench $t"
  done
done
