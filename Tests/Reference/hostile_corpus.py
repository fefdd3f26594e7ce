#!/usr/bin/env python3
"""Writes the worst inputs of issue 16 into a folder (each under 10 MB): the 1,068-byte 1024-channel WAV, a
64-channel second of audio, a float WAV with NaN and inf samples, a gzip bomb, the densest CSV under the parse limit
(24 MiB decompressed), a JSON walking log of a million samples, and ResearchKit/mPower results holding ±1e308.

Usage: hostile_corpus.py FOLDER FIXTURES   (FIXTURES: Tests/Fixtures)
The values are written byte by byte here, independently of taskproc.
"""
import gzip
import json
import math
import os
import struct
import sys


def wav(path, channels, frames, bits=8, fmt=1, data=None, rate=48000):
    block = channels * bits // 8
    if data is None:
        data = b"\x80" * (block * frames)
    header = (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt "
              + struct.pack("<IHHIIHH", 16, fmt, channels, rate, rate * block, block, bits)
              + b"data" + struct.pack("<I", len(data)))
    with open(path, "wb") as f:
        f.write(header + data)


def main():
    out, fixtures = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    wav(os.path.join(out, "channels-1024.wav"), 1024, 1)
    wav(os.path.join(out, "channels-64.wav"), 64, 48000)
    samples = [0.1 * math.sin(i / 10) for i in range(4800)]
    samples[100] = float("nan")
    samples[200] = float("inf")
    wav(os.path.join(out, "nan-inf.wav"), 1, 4800, bits=32, fmt=3,
        data=b"".join(struct.pack("<f", s) for s in samples))
    with gzip.open(os.path.join(out, "bomb.json.gz"), "wb", compresslevel=9) as f:
        f.write(b"[")
        chunk = b" " * (1 << 20)
        for _ in range(600):
            f.write(chunk)
        f.write(b"]")
    # The densest accelerometer CSV just under the 24 MiB parse limit: about 2.3 million rows.
    limit = 24 << 20
    with gzip.open(os.path.join(out, "dense_accel.csv.gz"), "wb", compresslevel=6) as f:
        written = f.write(b"time_ms,ax,ay,az\n")
        i = 0
        rows = []
        while True:
            line = b"%d,0,0,1\n" % (1700000000000 + 10 * i)
            if written + len(line) > limit - 64:
                break
            rows.append(line)
            written += len(line)
            i += 1
            if len(rows) == 10000:
                f.write(b"".join(rows))
                rows = []
        f.write(b"".join(rows))
    with gzip.open(os.path.join(out, "accel_walking_outbound.json.items.gz"), "wb", compresslevel=6) as f:
        f.write(b"[")
        row = b'{"timestamp":%d.01,"x":0,"y":0,"z":1},'
        f.write(b"".join(row % i for i in range(600000)))
        f.write(b'{"timestamp":600000.01,"x":0,"y":0,"z":1}]')
    with open(os.path.join(fixtures, "researchkit/spl-meter.json")) as f:
        spl = json.load(f)
    spl["recordedSPLMeterSamples"] = [52.3, 1e308, 47.9, -1e308, 41.2]
    with open(os.path.join(out, "spl-extreme.json"), "w") as f:
        json.dump(spl, f)
    with open(os.path.join(fixtures, "mpower/tapping_left.json.TappingSamples")) as f:
        taps = json.load(f)
    taps[3]["TapTimeStamp"] = 1e308
    taps[5]["TapTimeStamp"] = -1e308
    with open(os.path.join(out, "tapping_left.json.TappingSamples"), "w") as f:
        json.dump(taps, f)
    with open(os.path.join(fixtures, "researchkit/dbhl-result.json")) as f:
        text = f.read()
    with open(os.path.join(out, "dbhl-extreme.json"), "w") as f:
        f.write(text.replace('"calculatedThreshold":15', '"calculatedThreshold":1e300', 1))


if __name__ == "__main__":
    main()
