#!/bin/bash
# Issue 12's measurements on the complete database, nothing else running.
# Usage: after-placement.sh NEWBIN   (OLD: cc0ed0b, which checks each layer in full on first use)
NEW=${1:?new binary}; OLD=/root/campaign/muehlectl-cc0ed0b
OUT=~/campaign/after-placement; mkdir -p $OUT; cd $OUT
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
T() { /usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KiB maxrss" "$@"; }
$NEW report --all-phases > report.md 2> report.err
drop; T $NEW query --position "........................ w 9 9" > query-cold.txt 2>&1
T $NEW query --position "........................ w 9 9" > query-warm.txt 2>&1
for r in 1 2 3; do
  for b in old new; do
    bin=$NEW; [ $b = old ] && bin=$OLD
    drop; T $bin placement --player perfect --positions 200 --seed 1 > placement-$b-$r.txt 2>&1
  done
done
T $NEW placement --player perfect --positions 200 --seed 1 --warm > placement-new-warm.txt 2>&1
T $NEW match --white perfect --black random --games 100 --jobs 2 > match-random.txt 2>&1
T $NEW match --white perfect --black ab:4 -ab-db=false --games 100 --jobs 2 > match-ab4-nodb.txt 2>&1
T $NEW match --white perfect --black ab:4 --games 100 --jobs 2 > match-ab4.txt 2>&1
T $NEW match --white perfect --black perfect --games 20 --jobs 2 > match-perfect.txt 2>&1

(cd /work/main/cmd/muehlectl && MUEHLE_STANDARD_DB=/root/.local/share/muehle T /tmp/muehlectl-long.test -test.run PerfectStandardGame -test.v) > long-test.txt 2>&1
echo done
