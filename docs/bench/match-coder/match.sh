#!/bin/bash
# usage: match.sh ROUNDS CTL DIR...   interleaved: each round, for each database folder DIR (the
# 6-stone game: flat, and compressed by each rule), alpha-beta of depth 4 reading the database
# against itself, 100 games, one job; wall and processor time of the command in times.txt, its
# outputs appended to match-NAME.txt (NAME: the folder's last name).
rounds=$1; ctl=$2; shift 2
out=$(dirname "$0")
for r in $(seq $rounds); do
  for d in "$@"; do
    n=$(basename "$d")
    s=$(date +%s.%N)
    /usr/bin/time -f "%e %U %S" -o /tmp/match-time.txt $ctl match --white ab:4 --black ab:4 --games 100 --stones 6 --opening 6 --seed 1 --jobs 1 --db "$d" >> "$out/match-$n.txt" 2>&1
    echo "round $r $n wall,user,sys $(cat /tmp/match-time.txt)" >> "$out/times.txt"
  done
done
