#!/usr/bin/env python3
"""Renders a `warplint timeline` HTML page in headless Chromium and checks what it drew.

usage: check-timeline.py PAGE.html --launches N --blocks B --lanes L [--idle I]
                         [--over-model] [--screenshot OUT.png]

From the DOM Chromium dumps after parsing: N launch sections, B block bars, L SM lanes
(over all launches), I lanes of idle SMs, every SVG parsed (no parse error), no script.
From the screenshot (PNG decoded by check-report.py's decoder): the page is not blank and
shows the block colour, the tail's colour and, with --over-model, the red of blocks above
the model's blocks per SM (and, without it, no such red).
Exit 0 on success, 1 on a failed check, 77 when chromium is not installed (skip).
"""
import argparse
import importlib.util
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("check_report", os.path.join(HERE, "check-report.py"))
check_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_report)

BLOCK = (0x25, 0x63, 0xEB)  # TimelineSvg.cpp: WaveEven
TAIL = (0xFD, 0xE6, 0x8A)   # TimelineSvg.cpp: TailFill (drawn at 60% over white)
RED = (0xDC, 0x26, 0x26)    # TimelineSvg.cpp: OverModel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--launches", type=int, required=True)
    ap.add_argument("--blocks", type=int, required=True)
    ap.add_argument("--lanes", type=int, required=True)
    ap.add_argument("--idle", type=int, default=0)
    ap.add_argument("--over-model", action="store_true")
    ap.add_argument("--screenshot")
    args = ap.parse_args()

    chromium = check_report.find_chromium()
    if not chromium:
        print("check-timeline: chromium is not installed", file=sys.stderr)
        return 77
    url = "file://" + os.path.abspath(args.page)
    failures = []
    dom = check_report.run_chromium(chromium, ["--dump-dom"], url).stdout.decode("utf-8", "replace")
    launches = len(re.findall(r'<section class="launch"', dom))
    blocks = len(re.findall(r'<rect class="blk"', dom))
    lanes = len(re.findall(r'<g class="lane"', dom))
    idle = len(re.findall(r'<rect class="idle-sm"', dom))
    for name, got, want in (("launch sections", launches, args.launches),
                            ("block bars", blocks, args.blocks), ("SM lanes", lanes, args.lanes),
                            ("idle SM lanes", idle, args.idle)):
        if got != want:
            failures.append(f"{got} {name} in the DOM, expected {want}")
    if "<parsererror" in dom:
        failures.append("the browser reported an SVG/XML parse error")
    if "<script" in dom:
        failures.append("the page contains a script")

    shot = args.screenshot or os.path.join(tempfile.mkdtemp(), "timeline.png")
    check_report.run_chromium(chromium, [f"--screenshot={shot}", "--window-size=1100,1600"], url)
    if not os.path.exists(shot):
        failures.append("chromium wrote no screenshot")
    else:
        with open(shot, "rb") as f:
            width, height, rows = check_report.decode_png(f.read())
        pixels = [p for row in rows for p in row]
        near = lambda p, c, d=14: all(abs(p[k] - c[k]) <= d for k in range(3))
        # The tail is drawn at 60% opacity over white.
        tail_seen = tuple(round(0.6 * c + 0.4 * 255) for c in TAIL)
        n_block = sum(1 for p in pixels if near(p, BLOCK))
        n_tail = sum(1 for p in pixels if near(p, tail_seen, 6))
        n_red = sum(1 for p in pixels if near(p, RED))
        print(f"screenshot {width}x{height}: {n_block} block pixels, {n_tail} tail pixels, "
              f"{n_red} over-model pixels")
        if n_block < 200:
            failures.append(f"no block bars visible ({n_block} pixels of {BLOCK})")
        if n_tail < 200:
            failures.append(f"no tail visible ({n_tail} pixels of {tail_seen})")
        if args.over_model and n_red < 50:
            failures.append(f"no block above the model visible ({n_red} red pixels)")
        if not args.over_model and n_red > 0:
            failures.append(f"{n_red} red pixels: a block above the model drawn where none is")
    print(f"DOM: {launches} launches, {blocks} blocks, {lanes} lanes, {idle} idle lanes")
    for f in failures:
        print("check-timeline: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
