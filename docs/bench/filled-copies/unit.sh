#!/bin/bash
# Solves one unit again with two muehlectl binaries, rounds interleaved,
# in a scratch folder holding links to a finished folder's layers (all but
# the unit's own), and compares each result byte for byte with the finished
# folder's layers.
#
#   unit.sh OLD NEW UNIT ROUNDS GAMEFLAGS FINISHED SCRATCH SUB
#
# GAMEFLAGS are muehlectl's (e.g. "--game lasker" or "--stones 7");
# FINISHED is the game's folder of layers (e.g.
# ~/.local/share/muehle/lasker/k10); SCRATCH is the --db of the runs, and
# the links go to SCRATCH/SUB, where muehlectl looks for the game's layers
# (SUB: lasker/k10 for Lasker Morris, k7 for the standard game of 7 stones).
set -eu
old=$1 new=$2 unit=$3 rounds=$4 flags=$5 finished=$6 scratch=$7 sub=$8
dir=$scratch/$sub
mkdir -p "$dir"
keys=$(echo "$unit" | sed -E 's/^p([0-9]+)\+([0-9]+)-([0-9]+)\+([0-9]+)$/p\1+\2-\3+\4 p\3+\4-\1+\2/; s/^m([0-9]+)-([0-9]+)$/\1-\2 \2-\1/')
for f in "$finished"/*.layer "$finished"/*.blocks "$finished"/*.verified "$finished"/*.reach; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	skip=0
	for k in $keys; do case $b in "$k".*) skip=1 ;; esac; done
	[ $skip = 1 ] || ln -sf "$f" "$dir/$b"
done
for r in $(seq "$rounds"); do
	for bin in "$old" "$new"; do
		for k in $keys; do rm -f "$dir/$k".*; done
		/usr/bin/time -f "$(basename "$bin") round $r: %e s wall, %U s user, %M KiB" \
			"$bin" solve $flags --unit "$unit" --compress --db "$scratch" 2>&1 | grep -E "wall|slots in"
		for k in $keys; do
			if [ -e "$finished/$k.layer" ] && ! cmp -s "$dir/$k.layer" "$finished/$k.layer"; then
				echo "$k differs from $finished/$k.layer"
			fi
		done
	done
done
