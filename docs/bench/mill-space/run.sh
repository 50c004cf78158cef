#!/bin/bash
# usage: run.sh ROUNDS COMMIT...   interleaved: each round, for each commit, the test binaries
# muehle-COMMIT.test and retro-COMMIT.test (go test -c at each commit, in this folder):
# BenchmarkAppendMoves and BenchmarkCountMoves, then SolveNamedPair of Lasker Morris's 4-6 + 6-4
# over the layers of ~/.local/share/muehle/lasker/k10 (linked, read only).
# The Twelve pair (retro-twelve-*.txt), 5 rounds after: MUEHLE_BENCH_DB=/tmp/h52g-twelve
# MUEHLE_BENCH_GAME=twelve MUEHLE_BENCH_PAIR=4-6 ./retro-COMMIT.test -test.run "^$" -test.bench SolveNamedPair -test.benchtime 1x
rounds=$1; shift
cd "$(dirname "$0")"
for r in $(seq $rounds); do
  for c in "$@"; do
    ./muehle-$c.test -test.run '^$' -test.bench 'AppendMoves|CountMoves' -test.count 2 >> muehle-$c.txt 2>&1
    MUEHLE_BENCH_DB=$HOME/.local/share/muehle MUEHLE_BENCH_GAME=lasker MUEHLE_BENCH_PAIR=4-6 ./retro-$c.test -test.run '^$' -test.bench 'SolveNamedPair' -test.benchtime 1x >> retro-lasker-4-6-$c.txt 2>&1
    echo "round $r $c done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> progress.txt
  done
done
