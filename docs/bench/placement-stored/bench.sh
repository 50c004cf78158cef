#!/bin/bash
# One unit of the standard game's placement solved as `muehlectl solve --compress` does
# (BenchmarkSolveNamedUnit), by two test binaries in turn, two rounds: c6da8f6 (the moving layers
# read complete) and 6d135c6 (read as stored). Run with the campaign held (kill -STOP).
#
# The folder: links to the finished standard database, with the reach files of the last two
# placement plies, which the unit and its verifier read (the solve removes them at its end):
#   mkdir -p /tmp/s24/stdall && cp -al ~/.local/share/muehle/k9 /tmp/s24/stdall/k9
#   rm /tmp/s24/stdall/k9/solve-record.tsv /tmp/s24/stdall/k9/p2+1-3+0.*
#   muehlectl solve --unit p2+1-3+0 --compress --db /tmp/s24/stdall   # the forward pass: ply 17's reach files
#   (ply 16's were written from the layers' dense bits by a scratch test calling retro's writeReach)
# The binaries: git checkout C && go test -c -o retro-C.test ./retro/
unit=${1:-p5+1-9+0}
for round in 1 2; do
  for b in c6da8f6 stored; do
    echo "== $b round $round $(date -u +%H:%M:%S)"
    MUEHLE_BENCH_DB=/tmp/s24/stdall MUEHLE_BENCH_UNIT=$unit ./retro-$b.test -test.run '^$' -test.bench NamedUnit -test.benchtime 1x 2>&1 | grep -E "^Benchmark|FAIL|rror"
  done
done
