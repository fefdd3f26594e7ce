#!/usr/bin/env python3
"""Render a taskproc HTML report in a real headless browser (Debian's chromium) and check that it rendered.

Usage: report_render.py REPORT.html EXPECTED_SVG_COUNT PNG_OUT [--max-seconds S] [--max-megabytes M]

Checks, exit status 1 on any failure (each printed):
- chromium loads the page and writes a PNG screenshot, and the PNG decodes (zlib, 8-bit RGB/RGBA);
- the screenshot is not blank: at least 2 % of pixels are not white, and some are the plot colours' blue;
- the DOM chromium built (--dump-dom) holds EXPECTED_SVG_COUNT <svg> elements, i.e. every plot was parsed;
- the browser console reported no errors;
- with --max-seconds, the page loads (chromium building the DOM, less chromium's own start on about:blank) within
  S seconds; with --max-megabytes, the file is at most M MB. Size and load time are printed either way.
Exit status 2 when chromium is missing.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    print("chromium is not installed (apt-get install chromium)", file=sys.stderr)
    sys.exit(2)


def decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and ctype in (2, 6), f"unexpected PNG format depth={depth} type={ctype}"
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    bpp = 3 if ctype == 2 else 4
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    args = sys.argv[1:]
    limits = {}
    for flag in ("--max-seconds", "--max-megabytes"):
        if flag in args:
            i = args.index(flag)
            limits[flag] = float(args[i + 1])
            del args[i:i + 2]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    report, expected_svgs, png = os.path.abspath(args[0]), int(args[1]), args[2]
    browser = chromium()
    profile = tempfile.mkdtemp(prefix="taskproc-chromium-")
    base = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0"]
    problems = []
    shot = subprocess.run(base + ["--window-size=1200,2400", f"--screenshot={png}", "file://" + report],
                          capture_output=True, text=True, timeout=120)
    started = time.monotonic()
    subprocess.run(base + ["--dump-dom", "about:blank"], capture_output=True, text=True, timeout=120)
    start = time.monotonic() - started
    started = time.monotonic()
    dom = subprocess.run(base + ["--dump-dom", "file://" + report], capture_output=True, text=True, timeout=300)
    load = max(0.0, time.monotonic() - started - start)
    shutil.rmtree(profile, ignore_errors=True)
    megabytes = os.path.getsize(report) / 1e6
    print(f"page {megabytes:.2f} MB; load {load:.2f} s (chromium start {start:.2f} s not counted)")
    if "--max-seconds" in limits and load > limits["--max-seconds"]:
        problems.append(f"the page took {load:.2f} s to load, more than {limits['--max-seconds']} s")
    if "--max-megabytes" in limits and megabytes > limits["--max-megabytes"]:
        problems.append(f"the page is {megabytes:.2f} MB, more than {limits['--max-megabytes']} MB")
    for log in (shot.stderr, dom.stderr):
        for line in log.splitlines():
            if "CONSOLE" in line and re.search(r"error", line, re.I):
                problems.append("console: " + line.strip())
    if not os.path.exists(png):
        problems.append(f"no screenshot written (chromium exit {shot.returncode}): {shot.stderr[-500:]}")
    else:
        width, height, bpp, rows = decode_png(open(png, "rb").read())
        total = width * height
        nonwhite = blue = 0
        for row in rows[::2]:
            for x in range(0, width * bpp, bpp * 2):
                r, g, b = row[x], row[x + 1], row[x + 2]
                if r < 245 or g < 245 or b < 245:
                    nonwhite += 1
                if b > 150 and r < 110 and g < 150:
                    blue += 1
        sampled = (height + 1) // 2 * ((width + 1) // 2)
        if nonwhite < 0.02 * sampled:
            problems.append(f"the screenshot is nearly blank ({nonwhite} of {sampled} sampled pixels not white)")
        if blue == 0:
            problems.append("no plot colour in the screenshot")
        print(f"screenshot {width}x{height}: {100 * nonwhite / sampled:.1f} % non-white, {blue} plot-blue samples")
    svgs = len(re.findall(r"<svg\b", dom.stdout))
    if svgs != expected_svgs:
        problems.append(f"the rendered DOM has {svgs} <svg> elements, expected {expected_svgs}")
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
