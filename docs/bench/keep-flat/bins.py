#!/usr/bin/env python3
# Splits a perf profile of the solver into its phases over time: the
# samples in bins of WIDTH seconds, each sample named by the first phase
# function on its stack, and the four largest shares of each bin printed.
#
#   perf record -F 49 -g -p PID -o F.perf -- sleep 600
#   bins.py F.perf 15
import collections, re, subprocess, sys

f = sys.argv[1]
width = float(sys.argv[2]) if len(sys.argv) > 2 else 20
out = subprocess.run(['perf', 'script', '-i', f, '-F', 'time,ip,sym'], capture_output=True, text=True).stdout
cats = [('seedPending', 'seedPending'), ('FillWon', 'fillWon'), ('count', 'initLayer'),
        ('propagate', 'propagateDepth'), ('verify', 'verifyLayerAs'), ('pending', 'checkPending'),
        ('settle', 'settlePending'), ('zstd', 'klauspost/compress'), ('write', 'WriteLayer'),
        ('gc', 'gcBgMarkWorker')]
bins = collections.defaultdict(collections.Counter)
t0 = None


def add(t, stack):
    global t0
    if t is None:
        return
    if t0 is None:
        t0 = t
    c = 'other'
    for name, key in cats:
        if any(key in s for s in stack):
            c = name
            break
    bins[int((t - t0) // width)][c] += 1


t, stack = None, []
for line in out.split('\n'):
    m = re.match(r'\s*(\d+\.\d+):\s*$', line)
    if m:
        add(t, stack)
        t, stack = float(m.group(1)), []
    elif line.strip():
        stack.append(line.strip())
add(t, stack)
for b in sorted(bins):
    tot = sum(bins[b].values())
    print(f"{b * width:5.0f}s", tot, ' '.join(f"{k}:{v * 100 // tot}" for k, v in bins[b].most_common(4)))
