#!/usr/bin/env python3
"""usage: compare.py REPORT_K9 REPORT_LASKER

Compares the moving layers of two `muehlectl report` outputs (the table "Layers"): slots, won, lost,
drawn, deepest win and loss, CRC-64 of the body. Lasker Morris's moving layers, both hands empty,
with at most 9 stones a side, are positions of the standard game's moving phase under the same
moves, so they should be the same layers."""
import re, sys

def rows(path):
    out = {}
    for line in open(path):
        m = re.match(r'^\| (\d+-\d+) \|', line)
        if m:
            out[m.group(1)] = [x.strip() for x in line.split('|')[1:-1]][:8]
    return out

a, b = rows(sys.argv[1]), rows(sys.argv[2])
same = [k for k in b if k in a and a[k] == b[k]]
diff = [k for k in b if k in a and a[k] != b[k] and 'missing' not in a[k] + b[k]]
print(f"{len(b)} moving layers in {sys.argv[2]}, {len(same) + len(diff)} of them computed in both: {len(same)} the same, {len(diff)} different")
for k in diff:
    print("different:", k, a[k], b[k])
