#!/bin/sh
# Issue 53's checks of a finished Lasker Morris database, one command each,
# their outputs in OUT (default: this folder). Usage, from the repository:
#
#   docs/bench/lasker-checks/checks.sh [STONES [DB [OUT]]]
#
# STONES: the game's stones a side (10; smaller games try the script out),
# DB: the database folder (~/.local/share/muehle). Run it with nothing else
# heavy beside it: the cold-start times are measured. The smaller games
# (3 to 6 stones, solved on their own in DB) are compared in the report;
# the reference test needs Go and the repository.
set -eu
stones=${1:-10}
db=${2:-$HOME/.local/share/muehle}
out=${3:-$(dirname "$0")}
ctl=${MUEHLECTL:-bin/muehlectl}
g="--game lasker --stones $stones --db $db"
mkdir -p "$out"
log() { echo "== $*" >&2; }

log "the value of the start and of every first move"
$ctl query $g --position "........................ w $stones $stones lasker" > "$out/query-start.txt"

log "the report, from the layers on (the smaller games compared with these)"
$ctl report $g --all-phases > "$out/report.md"

log "the twenty largest layers, 10,000 positions each re-derived in this process"
largest=$(awk -F'|' '/^## / {layers = $0 == "## Layers"} layers {gsub(/ /, "", $2); gsub(/ /, "", $3)}
	layers && $2 ~ /^(p[0-9]+\+[0-9]+-[0-9]+\+[0-9]+|[0-9]+-[0-9]+)$/ {print $3, $2}' "$out/report.md" |
	sort -rn | head -20 | awk '{print $2}' | paste -sd, -)
$ctl verify $g --sample 10000 --layer "$largest" > "$out/verify-sample.txt"

log "matches, every perfect move checked against the database"
for o in random ab:4; do
	$ctl match $g --white perfect --black $o --games 100 > "$out/match-$(echo $o | tr -d :).txt"
done
$ctl match $g --white perfect --black ab:4 --ab-db=false --games 100 > "$out/match-ab4-nodb.txt"
$ctl match $g --white perfect --black perfect --games 20 > "$out/match-perfect.txt"

log "a perfect move from a cold start, 200 positions of each phase"
$ctl bench perfect $g --positions 200 --cold --seed 1 > "$out/cold.txt"

log "the model against the record"
$ctl plan $g --all-phases --calibrate "$db/lasker/k$stones/solve-record.tsv" > "$out/calibrate.txt"

log "the 3- and 4-stone layers of this folder against the plain reference, position by position"
MUEHLE_REFERENCE_DB=$db MUEHLE_REFERENCE_STONES=$stones \
	go test -run 'TestReferenceLasker$|TestReferenceFourStonesLasker' -v -timeout 60m ./retro/ > "$out/reference-in-k$stones.txt"
log "done: $out"
