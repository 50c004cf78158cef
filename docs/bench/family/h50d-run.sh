#!/bin/bash
# interleaved: 8 rounds, each round the three layers test binaries once
cd /tmp/h50d-bench
rm -f r2-*.txt
for r in 1 2 3 4 5 6 7 8; do  # binaries: go test -c -o l-COMMIT.test ./layers/ at each commit
  for v in l-8d85774 l-28d974c l-new2; do
    ./$v.test -test.run '^$' -test.bench '^Benchmark(IndexRandom|IndexChildren|Position|IndexAllRandom)$' -test.benchtime 0.5s -test.count 1 >> r2-$v.txt 2>&1
  done
done
echo finished > done2.txt
