#!/bin/bash
# usage: enc.sh ROUNDS bin...   interleaved: BenchmarkWriteCompressed of each layers test binary on
# Lasker Morris's 7-8 and 7-10 (the campaign's folder) and the 6-stone game's 6-6 (/tmp/k6z).
rounds=$1; shift
cd "$(dirname "$0")"
for r in $(seq $rounds); do
  for v in "$@"; do
    for L in 7-8 7-10; do
      MUEHLE_READ_DB=$HOME/.local/share/muehle MUEHLE_READ_GAME=lasker MUEHLE_READ_LAYER=$L ./$v -test.run '^$' -test.bench 'WriteCompressed' -test.benchtime 2x >> ${v%.test}-lasker-$L.txt 2>&1
    done
    MUEHLE_READ_DB=/tmp/k6z MUEHLE_READ_STONES=6 MUEHLE_READ_LAYER=6-6 ./$v -test.run '^$' -test.bench 'WriteCompressed' -test.benchtime 2x >> ${v%.test}-k6-6-6.txt 2>&1
  done
done
