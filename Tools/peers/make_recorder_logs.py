#!/usr/bin/env python3
"""Deterministic, realistic ResearchKit recorder logs for the JSON-decoding comparison.

Writes three 100 Hz walking recordings (60 000 items = 10 minutes by default):

  accel_walking_60k.json              ORKAccelerometerRecorder: {"items":[{"x","y","z","timestamp",
                                      "timestampSince1970"}, …]}, acceleration in g, gravity included
  deviceMotion_walking_60k.json       ORKDeviceMotionRecorder: {"items":[{"attitude":{x,y,z,w},
                                      "timestamp", "rotationRate", "userAcceleration",
                                      "timestampSince1970", "gravity", "magneticField":{x,y,z,accuracy}}, …]}
  accel_walking_60k_mpower.json.items the accelerometer as mPower's Bridge/Synapse column files hold it:
                                      a bare array of {"timestamp","x","y","z"} (ResearchKit 1.x: no
                                      timestampSince1970)

Like ORKDataLogger's output, the JSON is compact (no whitespace) and every number is printed with
the shortest digits that round-trip (Python's repr, 15–17 significant digits, mostly 16–17, as
NSJSONSerialization prints an NSNumber double): timestamps are seconds since boot from 8844.375…
with ±0.2 ms jitter, timestampSince1970 is Unix time, accelerations are a walking pattern (1.85 steps
per second) plus SplitMix64 noise. Keys keep one NSDictionary-like fixed order per file.

The Swift generator in Benchmarks/Sources/RecorderLogFixtures (used by the RecorderLogBenchmarks
suite) performs the same arithmetic in the same order with the same libm sin/cos, so both write
byte-identical files; compare.py checks that on every run.

Usage:  python3 Tools/peers/make_recorder_logs.py OUTPUT_DIRECTORY [--items 60000]
"""

from __future__ import annotations

import argparse
import hashlib
import math
from pathlib import Path

ITEMS = 60_000
RATE_HZ = 100.0
BOOT_TIME = 8844.375467791668       # CoreMotion timestamp of the first sample, s since boot
UNIX_TIME = 1763707262.519184       # timestampSince1970 of the first sample
STEP_HZ = 1.85                      # walking cadence
TWO_PI = 6.283185307179586

ACCELEROMETER_SEED = 0x7A5C_9000_0000_0001
DEVICE_MOTION_SEED = 0x7A5C_9000_0000_0002
MPOWER_SEED = 0x7A5C_9000_0000_0003

_MASK = (1 << 64) - 1


class SplitMix64:
    """Uniform noise in [-1, 1); the same sequence as NoiseSource in BenchmarkSupport."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> float:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        return (z >> 11) * 2.0 ** -52 - 1.0


def _times(i: int, noise: SplitMix64) -> tuple[float, float, float]:
    """(nominal time since the first sample, timestamp, timestampSince1970)."""
    nominal = i * (1.0 / RATE_HZ)
    jitter = noise.next()
    timestamp = BOOT_TIME + nominal + 0.0002 * jitter
    return nominal, timestamp, UNIX_TIME + (timestamp - BOOT_TIME)


def accelerometer_items(items: int, seed: int, mpower: bool = False) -> list[str]:
    """Raw acceleration in g, gravity included: a phone in a trouser pocket, mostly along −y."""
    noise = SplitMix64(seed)
    sin, cos = math.sin, math.cos
    out = []
    for i in range(items):
        nominal, timestamp, unix = _times(i, noise)
        phase = TWO_PI * STEP_HZ * nominal
        s1, c1 = sin(phase), cos(phase)
        s2 = sin(2.0 * phase + 0.6)
        sway = sin(0.5 * phase)
        n1, n2, n3 = noise.next(), noise.next(), noise.next()
        x = 0.08 + 0.11 * sway + 0.06 * s2 + 0.025 * n1
        y = -0.94 + 0.32 * s1 + 0.12 * s2 + 0.03 * n2
        z = -0.27 + 0.18 * c1 + 0.05 * sway + 0.03 * n3
        if mpower:
            out.append(f'{{"timestamp":{timestamp!r},"x":{x!r},"y":{y!r},"z":{z!r}}}')
        else:
            out.append(f'{{"x":{x!r},"y":{y!r},"z":{z!r},"timestamp":{timestamp!r},"timestampSince1970":{unix!r}}}')
    return out


def device_motion_items(items: int, seed: int) -> list[str]:
    """CoreMotion fusion output for the same walk: attitude quaternion from roll/pitch/yaw, the
    gravity unit vector they imply, user acceleration in g, rotation rate (their derivatives) in
    rad/s, calibrated magnetic field in µT (accuracy 2, high)."""
    noise = SplitMix64(seed)
    sin, cos = math.sin, math.cos
    omega = TWO_PI * STEP_HZ
    out = []
    for i in range(items):
        nominal, timestamp, unix = _times(i, noise)
        phase = omega * nominal
        s1, c1 = sin(phase), cos(phase)
        s2 = sin(2.0 * phase + 0.6)
        sway = sin(0.5 * phase)
        roll = 0.12 + 0.10 * sin(0.5 * phase + 0.3)
        pitch = -1.15 + 0.14 * s1
        yaw = 0.8 + 0.05 * sin(0.25 * phase)
        cr, sr = cos(0.5 * roll), sin(0.5 * roll)
        cp, sp = cos(0.5 * pitch), sin(0.5 * pitch)
        cy, sy = cos(0.5 * yaw), sin(0.5 * yaw)
        qw = cr * cp * cy + sr * sp * sy
        qx = sr * cp * cy - cr * sp * sy
        qy = cr * sp * cy + sr * cp * sy
        qz = cr * cp * sy - sr * sp * cy
        gx = -cos(pitch) * sin(roll)
        gy = sin(pitch)
        gz = -cos(pitch) * cos(roll)
        n1, n2, n3 = noise.next(), noise.next(), noise.next()
        ux = 0.06 * s2 + 0.09 * sway + 0.02 * n1
        uy = 0.30 * s1 + 0.11 * s2 + 0.03 * n2
        uz = 0.16 * c1 + 0.02 * n3
        n4, n5, n6 = noise.next(), noise.next(), noise.next()
        rx = 0.05 * omega * cos(0.5 * phase + 0.3) + 0.01 * n4
        ry = 0.14 * omega * c1 + 0.01 * n5
        rz = 0.0125 * omega * cos(0.25 * phase) + 0.01 * n6
        n7, n8, n9 = noise.next(), noise.next(), noise.next()
        mx = -18.5 + 6.0 * sin(yaw) + 0.4 * n7
        my = 27.3 + 4.0 * cos(pitch) + 0.4 * n8
        mz = -41.2 + 3.0 * sin(roll) + 0.4 * n9
        out.append(
            f'{{"attitude":{{"y":{qy!r},"w":{qw!r},"z":{qz!r},"x":{qx!r}}},"timestamp":{timestamp!r},'
            f'"rotationRate":{{"x":{rx!r},"y":{ry!r},"z":{rz!r}}},'
            f'"userAcceleration":{{"x":{ux!r},"y":{uy!r},"z":{uz!r}}},"timestampSince1970":{unix!r},'
            f'"gravity":{{"x":{gx!r},"y":{gy!r},"z":{gz!r}}},'
            f'"magneticField":{{"y":{my!r},"z":{mz!r},"x":{mx!r},"accuracy":2}}}}')
    return out


def file_names(items: int = ITEMS) -> list[str]:
    """The three logs' file names, in the order recorder_logs() returns them."""
    tag = f"{items // 1000}k" if items % 1000 == 0 else str(items)
    return [f"accel_walking_{tag}.json", f"deviceMotion_walking_{tag}.json", f"accel_walking_{tag}_mpower.json.items"]


def recorder_logs(items: int = ITEMS) -> list[tuple[str, bytes, int]]:
    """(file name, file bytes, numeric values per item) for every log, in a fixed order."""
    accelerometer, device_motion, mpower = file_names(items)
    logs = [
        (accelerometer, '{"items":[' + ",".join(accelerometer_items(items, ACCELEROMETER_SEED)) + "]}", 5),
        (device_motion, '{"items":[' + ",".join(device_motion_items(items, DEVICE_MOTION_SEED)) + "]}", 19),
        (mpower, "[" + ",".join(accelerometer_items(items, MPOWER_SEED, mpower=True)) + "]", 4),
    ]
    return [(name, text.encode("ascii"), values) for name, text, values in logs]


def write_recorder_logs(directory: Path, items: int = ITEMS) -> list[tuple[Path, int]]:
    """Writes every log into `directory`; returns (path, values per item) for each."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data, values in recorder_logs(items):
        path = directory / name
        path.write_bytes(data)
        written.append((path, values))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--items", type=int, default=ITEMS)
    args = parser.parse_args()
    for path, values in write_recorder_logs(args.directory, args.items):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        print(f"{path}  {path.stat().st_size:,} bytes  {args.items} items × {values} values  sha256 {digest}…")


if __name__ == "__main__":
    main()
