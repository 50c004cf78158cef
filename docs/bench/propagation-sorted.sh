#!/bin/bash
# usage: unitbench.sh ROUNDS DIR GAMEFLAGS UNIT bin...   (removes the unit's layers after each run)
rounds=$1; dir=$2; game=$3; unit=$4; shift 4
for r in $(seq $rounds); do
  for v in "$@"; do
    out=$( { /usr/bin/time -f "TIME %e wall %U user %S sys" nice -n 5 /tmp/h52b-bin/$v solve $game --unit $unit --no-verify --db $dir; } 2>&1 )
    echo "$v $(echo "$out" | grep -E "slots in" | sed 's/.*slots in//') $(echo "$out" | grep TIME) load $(cut -d' ' -f1 /proc/loadavg)"
    k=${unit#m}; a=${k%-*}; b=${k#*-}
    find $dir -name "m$a-$b.*" -newer /tmp/h52b-bin/unitbench.sh -delete; find $dir -name "m$b-$a.*" -newer /tmp/h52b-bin/unitbench.sh -delete
  done
done
