#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A flame graph (SVG) of folded stacks: make bench PROFILE=TEST:SIZE.

Input: lines "frame;frame;...;frame SAMPLES", outermost frame first (the
guests fold perf script's output so: selftests/harness/bench/lib.sh,
bench_profile_stop). Output: one SVG, the root at the bottom, each frame
as wide as its samples, its name and share in a tooltip; on standard
output the frames with the most samples of their own.
"""
import html
import sys

WIDTH = 1200
ROW = 16
FONT = 11
MIN_PX = 0.3  # narrower frames are left out of the drawing


def read_folded(path):
    root = {"n": 0, "kids": {}}
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack or not count.isdigit():
                continue
            node = root
            node["n"] += int(count)
            for frame in stack.split(";"):
                node = node["kids"].setdefault(frame, {"n": 0, "kids": {}})
                node["n"] += int(count)
    return root


def self_shares(path, top=25):
    """The frames where the samples were taken (their own time), largest first."""
    leaf, total = {}, 0
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frame = stack.split(";")[-1]
            leaf[frame] = leaf.get(frame, 0) + int(count)
            total += int(count)
    for frame, n in sorted(leaf.items(), key=lambda kv: -kv[1])[:top]:
        print("%6.2f%%  %6d  %s" % (100.0 * n / total, n, frame))


def depth(node):
    return 1 + max((depth(k) for k in node["kids"].values()), default=0)


def colour(name):
    # Stable per name: kernel frames warm, the rest cool.
    h = sum(name.encode()) % 60
    if name.startswith("superp") or name.startswith("sunh"):
        return "rgb(%d,%d,%d)" % (230, 120 + h, 40)
    return "rgb(%d,%d,%d)" % (200 + h // 2, 90 + h, 60)


def draw(out, name, node, x, level, height, scale, total):
    w = node["n"] * scale
    if w < MIN_PX:
        return
    y = height - (level + 1) * ROW
    share = 100.0 * node["n"] / total
    label = html.escape(name)
    out.append('<g><title>%s (%d samples, %.2f%%)</title>'
               '<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>'
               % (label, node["n"], share, x, y, w, ROW - 1, colour(name)))
    chars = int(w / (FONT * 0.6))
    if chars >= 3:
        text = name if len(name) <= chars else name[:chars - 2] + ".."
        out.append('<text x="%.1f" y="%d">%s</text>'
                   % (x + 2, y + ROW - 4, html.escape(text)))
    out.append("</g>")
    for kname, kid in sorted(node["kids"].items()):
        draw(out, kname, kid, x, level + 1, height, scale, total)
        x += kid["n"] * scale


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: flame.py FOLDED TITLE OUT.svg")
    root = read_folded(sys.argv[1])
    if not root["n"]:
        sys.exit("%s: no samples" % sys.argv[1])
    height = (depth(root) + 2) * ROW
    scale = WIDTH / root["n"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="monospace" font-size="%d">' % (WIDTH, height, FONT),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="4" y="%d">%s: %d samples</text>'
           % (FONT + 2, html.escape(sys.argv[2]), root["n"])]
    draw(out, "all", root, 0.0, 0, height, scale, root["n"])
    out.append("</svg>")
    with open(sys.argv[3], "w") as f:
        f.write("\n".join(out) + "\n")
    self_shares(sys.argv[1])


if __name__ == "__main__":
    main()
