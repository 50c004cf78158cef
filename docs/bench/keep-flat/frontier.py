#!/usr/bin/env python3
# Replays the units left of a plan in its order and adds up the disk that
# layers kept flat for their placement parents (retro/keepflat.go) take
# beyond their compressed size (0.7 of a byte per slot: CompressedShare
# 0.30), each from its own unit until its parent's; prints the most.
# COND is a Python expression over p = (W, WH, B, BH) of the layer, the
# rule kept: "p[0]+p[1]>=p[2]+p[3]"; "True" keeps every such layer.
#
#   muehlectl plan --game lasker --all-phases --compress > plan.txt
#   frontier.py plan.txt "p[0]+p[1]>=p[2]+p[3]"
import re, sys

path, cond = sys.argv[1], sys.argv[2]
units = []
for line in open(path):
    f = line.split()
    if not f or not re.match(r'^\d+$', f[0]) or 'MiB' not in f:
        continue
    i = f.index('MiB')
    units.append((f[1], [x for x in f[2:i - 2] if x != '+'], int(f[i - 2]), 'verified' in line))


def parse(k):
    m = re.match(r'p(\d+)\+(\d+)-(\d+)\+(\d+)$', k)
    return tuple(map(int, m.groups())) if m else None


size, unit_of = {}, {}
for t, (name, lay, slots, done) in enumerate(units):
    for k in lay:
        size[k], unit_of[k] = slots / len(lay), t


def parent(k):
    p = parse(k)
    if not p or p[2] < 1:
        return None
    return 'p%d+%d-%d+%d' % (p[2] - 1, p[3] + 1, p[0], p[1])


live, cur, peak, at = {}, 0.0, 0.0, None
for t, (name, lay, slots, done) in enumerate(units):
    if done:
        continue
    for k in lay:
        p, q = parse(k), parent(k)
        if q and q in unit_of and unit_of[q] > t and eval(cond):
            live[k] = size[k] * 0.7
            cur += live[k]
    for k in [k for k in live if parent(k) in lay]:
        cur -= live.pop(k)
    if cur > peak:
        peak, at = cur, name
print(cond, 'peak extra GB', round(peak / 1e9, 1), 'at', at)
