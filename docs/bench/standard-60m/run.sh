#!/bin/bash
# The timed run of the complete standard game, compressed, from an empty folder.
# usage: run.sh BINARY [OUTDIR]: the folder /tmp/timed-k9 made afresh, the page cache dropped, the disk
# sampled every 5 s (seconds, bytes of the folder, bytes free), /usr/bin/time -v of the solve.
B=$1; D=/tmp/timed-k9; W=${2:-$PWD}
rm -rf $D; mkdir -p $D
sync; echo 3 > /proc/sys/vm/drop_caches
(while sleep 5; do echo "$(date +%s) $(du -s -B1 $D 2>/dev/null | cut -f1) $(df -B1 --output=avail / | tail -1)"; done) > $W/disk.log &
M=$!
date -u +%FT%TZ > $W/start
/usr/bin/time -v $B solve --all-phases --compress --db $D > $W/solve.log 2> $W/solve.err
echo "exit $?" >> $W/solve.err
date -u +%FT%TZ > $W/end
kill $M
