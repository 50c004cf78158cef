#!/bin/sh
# One interleaved run: the layers test binaries before (078d557) and after
# (4e1071b), ROUNDS rounds, each reading the standard game's 6-6 (decoded,
# and in full) and Lasker Morris's p7+1-4+0 (in full) from the folders of
# ~/.local/share/muehle. Usage: ./run.sh ROUNDS OLD.test NEW.test
rounds=$1 old=$2 new=$3
for r in $(seq "$rounds"); do
  for b in "$old" "$new"; do
    out=$(basename "$b" .test).txt
    MUEHLE_READ_DB=$HOME/.local/share/muehle MUEHLE_READ_LAYER=6-6 \
      "$b" -test.run '^$' -test.bench 'ReadCompressed' -test.benchtime 1x >> "std-$out"
    MUEHLE_READ_DB=$HOME/.local/share/muehle MUEHLE_READ_GAME=lasker MUEHLE_READ_STONES=10 MUEHLE_READ_LAYER=p7+1-4+0 \
      "$b" -test.run '^$' -test.bench 'ReadCompressed/full' -test.benchtime 1x >> "lasker-$out"
  done
done
