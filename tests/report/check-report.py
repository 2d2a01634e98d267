#!/usr/bin/env python3
"""Renders a warplint HTML report in headless Chromium and checks what it drew.

usage: check-report.py REPORT.html --cards N [--launches L] --charts M [--currents K]
                       [--waves-charts W] [--screenshot OUT.png]

From the DOM Chromium dumps after parsing: N kernel cards, L launch rows on them, M
charts (drawn once per shape of a card's launches, not per launch), K current-point
markers (default: one per chart), every SVG parsed as SVG (no parse errors), no <script>, nothing loaded
from a URL. From the screenshot (PNG decoded here with zlib, no imaging library): the page
is not blank and shows the colours of the curves, the current point and the gauge.
Exit 0 on success, 1 on a failed check, 77 when chromium is not installed (skip).
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

CURVE = (0x25, 0x63, 0xEB)    # ReportSvg.cpp: Curve
CURRENT = (0x16, 0xA3, 0x4A)  # ReportSvg.cpp: Current


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_chromium(chromium, args, url):
    # Root in a container needs --no-sandbox; no GPU here.
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
           "--hide-scrollbars", "--allow-file-access-from-files"] + args + [url]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=120, check=False)


def decode_png(data):
    """Returns (width, height, rows of RGB tuples) for 8-bit RGB/RGBA non-interlaced PNGs."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour})")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(height):
        ftype = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return width, height, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--cards", type=int, required=True)
    ap.add_argument("--launches", type=int)
    ap.add_argument("--charts", type=int, required=True)
    ap.add_argument("--currents", type=int)
    ap.add_argument("--waves-charts", type=int,
                    help="charts drawn in waves per SIMD (AMD's calculator), each with its "
                         "current point in waves per SIMD")
    ap.add_argument("--screenshot")
    ap.add_argument("--window", default="1280,2000")
    args = ap.parse_args()

    chromium = find_chromium()
    if not chromium:
        print("check-report: chromium is not installed", file=sys.stderr)
        return 77
    url = "file://" + os.path.abspath(args.report)
    failures = []

    dom = run_chromium(chromium, ["--dump-dom"], url).stdout.decode("utf-8", "replace")
    cards = len(re.findall(r'<section class="card" id="kernel-', dom))
    launch_rows = len(re.findall(r'<tr id="launch-', dom))
    charts = len(re.findall(r'<svg [^>]*class="chart"', dom))
    currents = len(re.findall(r'<circle class="current"', dom))
    if cards != args.cards:
        failures.append(f"{cards} cards in the DOM, expected {args.cards}")
    if args.launches is not None and launch_rows != args.launches:
        failures.append(f"{launch_rows} launch rows in the DOM, expected {args.launches}")
    if charts != args.charts:
        failures.append(f"{charts} charts in the DOM, expected {args.charts}")
    want_currents = args.charts if args.currents is None else args.currents
    if currents != want_currents:
        failures.append(f"{currents} current-point markers, expected {want_currents}")
    if args.waves_charts is not None:
        waves = len(re.findall(r'<svg [^>]*class="chart"[^>]*aria-label="Waves per SIMD vs ', dom))
        wave_points = len(re.findall(r'<circle class="current" [^>]*data-waves-per-simd=', dom))
        if waves != args.waves_charts:
            failures.append(f"{waves} waves-per-SIMD charts, expected {args.waves_charts}")
        if wave_points != args.waves_charts:
            failures.append(f"{wave_points} current points in waves per SIMD, "
                            f"expected {args.waves_charts}")
    if "<parsererror" in dom:
        failures.append("the browser reported an SVG/XML parse error")
    if "<script" in dom:
        failures.append("the report contains a script")
    for m in re.finditer(r'\b(?:src|href)="(https?:[^"]*)"', dom):
        if not m.group(0).startswith("href"):
            failures.append(f"the report loads {m.group(1)}")
    if re.search(r"url\(\s*['\"]?https?:", dom) or "@import" in dom:
        failures.append("the report's CSS loads something from a URL")

    shot = args.screenshot or os.path.join(tempfile.mkdtemp(), "report.png")
    run_chromium(chromium, [f"--screenshot={shot}", f"--window-size={args.window}"], url)
    if not os.path.exists(shot):
        failures.append("chromium wrote no screenshot")
    else:
        with open(shot, "rb") as f:
            width, height, rows = decode_png(f.read())
        pixels = [p for row in rows for p in row]
        sample = pixels[::97]
        background = max(set(sample), key=sample.count)
        non_bg = sum(1 for p in pixels if p != background) / len(pixels)
        near = lambda p, c: all(abs(p[k] - c[k]) <= 12 for k in range(3))
        curve = sum(1 for p in pixels if near(p, CURVE))
        current = sum(1 for p in pixels if near(p, CURRENT))
        print(f"screenshot {width}x{height}: {non_bg:.1%} non-background, "
              f"{curve} curve pixels, {current} current-point/gauge pixels")
        if non_bg < 0.05:
            failures.append(f"screenshot nearly blank ({non_bg:.1%} drawn)")
        if args.charts and curve < 50:
            failures.append(f"no chart curve visible ({curve} pixels of {CURVE})")
        if want_currents and current < 20:
            failures.append(f"no current point visible ({current} pixels of {CURRENT})")
    print(f"DOM: {cards} cards, {launch_rows} launch rows, {charts} charts, {currents} current points")
    for f in failures:
        print("check-report: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
