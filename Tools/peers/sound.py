#!/usr/bin/env python3
"""taskproc sound level metering vs the scipy reference and python-acoustics, on the same file.

    python3 Tools/peers/sound.py [--repeats 15] [--no-build] [--no-install]

Input: a 60 s, 48 kHz mono PCM16 WAV (pink noise of RMS 0.1 FS + a 1 kHz tone of 0.05 FS, 1 Pa = 1.0 FS;
the signal of ../shared/spec/audio.md §3.3), written to a temp directory.

  scipy        the spec's reference pipeline: soundfile/scipy read, A filter (bilinear_zpk → sosfilt), LAeq,
               F and S one-pole time weighting (lfilter), LAFmax/LASmax, LAFmin, L10/50/90 on a 10 ms grid,
               C filter + LCpeak; timed end to end (read included), median of --repeats.
  acoustics    python-acoustics (pip, in Tools/peers/.venv-sound, if it installs): its A-weighting
               (acoustics.signal / standards) and Leq; timed the same way. Skipped with a note if unavailable.
  taskproc     CompareHarness `sound` (release build): SoundLevelAnalyzer.analyze(path:) in process, file
               reading included, median per-call wall time.
Results go to Tools/peers/SOUND.md. Only the peers' public APIs are called; none of their code is copied.
"""
from __future__ import annotations

import argparse, json, math, os, platform, statistics, subprocess, sys, tempfile, time
from pathlib import Path

import numpy as np
from scipy import signal
from scipy.io import wavfile

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent.parent / "Benchmarks"  # the benchmark package, which holds CompareHarness
VENV = HERE / ".venv-sound"
FS = 48000

def poles():
    fr, fl, fh, fa = 1000.0, 10 ** 1.5, 10 ** 3.9, 10 ** 2.45
    d = math.sqrt(0.5)
    b = (fr**2 + fl**2 * fh**2 / fr**2 - d * (fl**2 + fh**2)) / (1 - d)
    c = fl**2 * fh**2
    f4 = math.sqrt((-b + math.sqrt(b * b - 4 * c)) / 2)
    f1 = math.sqrt(c) / f4
    r5 = math.sqrt(5)
    return f1, (3 - r5) / 2 * fa, (3 + r5) / 2 * fa, f4

def design(weighting, fs):
    w = [2 * math.pi * f for f in poles()]
    z, p = ([0] * 4, [-w[0], -w[0], -w[1], -w[2], -w[3], -w[3]]) if weighting == "A" else ([0] * 2, [-w[0], -w[0], -w[3], -w[3]])
    sos = signal.zpk2sos(*signal.bilinear_zpk(z, p, 1.0, fs))
    _, h = signal.sosfreqz(sos, worN=[1000.0], fs=fs)
    sos[0, :3] /= abs(h[0])
    return sos

def make_file(path):
    rng = np.random.default_rng(20260101)
    n = 60 * FS
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / FS)
    spec[1:] /= np.sqrt(f[1:])
    spec[0] = 0
    pink = np.fft.irfft(spec, n)
    pink *= 0.1 / np.sqrt(np.mean(pink**2))
    x = pink + 0.05 * np.sin(2 * np.pi * 1000 * np.arange(n) / FS)
    wavfile.write(path, FS, np.clip(np.round(x * 32768), -32768, 32767).astype(np.int16))

def scipy_reference(path, sos_a, sos_c):
    fs, data = wavfile.read(path)
    x = data.astype(np.float64) / 32768
    ya = signal.sosfilt(sos_a, x)
    yc = signal.sosfilt(sos_c, x)
    q = ya * ya
    out = {"LAeq": 10 * math.log10(np.mean(q)), "LCeq": 10 * math.log10(np.mean(yc * yc)), "LZeq": 10 * math.log10(np.mean(x * x))}
    for name, tau in (("F", 0.125), ("S", 1.0)):
        a = math.exp(-1 / (fs * tau))
        # Started at 0.1 s from the mean square of [0.1 s, 0.1 s + tau), maxima from 0.1 s (docs/audio.md).
        s0, s10 = 4800, int(math.ceil(10 * tau * fs / 60)) * 60
        seed = float(np.mean(q[s0:s0 + int(math.ceil(tau * fs / 60)) * 60]))
        e = np.full(len(q), seed)
        e[s0:], _ = signal.lfilter([1 - a], [1, -a], q[s0:], zi=[a * seed])
        out[f"LA{name}max"] = 10 * math.log10(e[s0:].max())
        if name == "F":
            out["LAFmin"] = 10 * math.log10(e[s10:].min())
            frames = np.arange(480, len(x) + 1, 480)
            hist = 10 * np.log10(e[frames[frames > s10] - 1])
            for n in (10, 50, 90):
                out[f"LA{n}"] = float(np.percentile(hist, 100 - n))
    out["LCpeak"] = 20 * math.log10(np.abs(yc[4800:]).max())
    return out

ACOUSTICS_WORKER = r'''
import json, sys, time, statistics
import numpy as np
from scipy.io import wavfile
import acoustics
from acoustics import Signal
path, repeats = sys.argv[1], int(sys.argv[2])
def run():
    fs, data = wavfile.read(path)
    s = Signal(data.astype(np.float64) / 32768, fs)   # pascal (1 FS = 1 Pa); levels re 20 uPa
    a = s.weigh('A')
    leq = float(a.leq())
    c = s.weigh('C')
    lceq = float(c.leq())
    times, lf = a.levels(time=0.125, method='average')   # Fast time weighting via its averaging filter
    return {"LAeq": leq - 93.9794, "LCeq": lceq - 93.9794, "LAFmax": float(np.max(lf[5:])) - 93.9794}
out = run()
ts = []
for _ in range(repeats):
    t = time.perf_counter(); run(); ts.append(time.perf_counter() - t)
print(json.dumps({"levels": out, "ms": statistics.median(ts) * 1e3, "version": acoustics.__version__ if hasattr(acoustics, "__version__") else "?"}))
'''

def acoustics_peer(path, repeats, install):
    py = VENV / "bin" / "python"
    if not py.exists():
        if not install:
            return None, "not installed (--no-install)"
        r = subprocess.run([sys.executable, "-m", "venv", str(VENV)], capture_output=True, text=True)
        if r.returncode != 0:
            return None, "venv failed: " + r.stderr.strip()[-200:]
        r = subprocess.run([str(py), "-m", "pip", "install", "-q", "acoustics", "numpy<2", "scipy<1.14"], capture_output=True, text=True)
        if r.returncode != 0:
            return None, "pip install acoustics failed: " + (r.stderr.strip().splitlines() or ["?"])[-1][:200]
    r = subprocess.run([str(py), "-c", ACOUSTICS_WORKER, path, str(repeats)], capture_output=True, text=True)
    if r.returncode != 0:
        return None, "python-acoustics failed: " + (r.stderr.strip().splitlines() or ["?"])[-1][:300]
    return json.loads(r.stdout), None

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-install", action="store_true")
    args = ap.parse_args()
    harness = BENCH / ".build-spl" / "release" / "CompareHarness"
    if not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--scratch-path", ".build-spl", "--product", "CompareHarness"], cwd=BENCH, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pink-tone-60s-48k-mono-pcm16.wav")
        make_file(path)
        sos_a, sos_c = design("A", FS), design("C", FS)
        ref = scipy_reference(path, sos_a, sos_c)
        ts = []
        for _ in range(args.repeats):
            t = time.perf_counter(); scipy_reference(path, sos_a, sos_c); ts.append(time.perf_counter() - t)
        scipy_ms = statistics.median(ts) * 1e3
        r = subprocess.run([str(harness), "sound", "--input", path, "--clock", "wall", "--samples", str(args.repeats), "--sample-ms", "20"],
                           capture_output=True, text=True, check=True)
        tp = json.loads(r.stdout)["results"][0]
        tp_levels = json.loads([l for l in r.stderr.splitlines() if l.startswith("levels ")][0][7:])
        tp_ms = tp["ns"] / 1e6
        ac, ac_note = acoustics_peer(path, max(3, args.repeats // 3), not args.no_install)
    rows = []
    for k in ["LAeq", "LCeq", "LZeq", "LAFmax", "LASmax", "LAFmin", "LA10", "LA50", "LA90", "LCpeak"]:
        a = ref.get(k); b = tp_levels.get(k); c = ac["levels"].get(k) if ac else None
        rows.append(f"| {k} | {a:.4f} | {b:.4f} | {b - a:+.5f} | " + (f"{c:.3f}" if c is not None else "—") + " |")
    lines = [
        "# Sound level metering: taskproc vs scipy reference and python-acoustics", "",
        f"Generated by `python3 Tools/peers/sound.py` on {platform.node()} ({platform.machine()}, "
        f"{os.cpu_count()} CPUs), {time.strftime('%Y-%m-%d %H:%M')}; numpy {np.__version__}, "
        f"scipy {__import__('scipy').__version__}. Machine shared and noisy (±10–30 %).", "",
        "Input: 60 s, 48 kHz mono PCM16 WAV, pink noise 0.1 FS RMS + 1 kHz tone 0.05 FS (2.88 M samples). "
        "Levels in dB re full scale (10·lg mean square; 1 Pa = 1 FS would add 93.98 dB).", "",
        "| Level | scipy reference | taskproc | taskproc − scipy | python-acoustics |",
        "|---|---:|---:|---:|---:|", *rows, "",
        "| Implementation | Median time, file → full summary | Ratio vs taskproc |", "|---|---:|---:|",
        f"| taskproc `SoundLevelAnalyzer.analyze` (release, in process, wall clock) | {tp_ms:.2f} ms | 1.0× |",
        f"| scipy reference (read + A/C sosfilt + F/S lfilter + percentiles) | {scipy_ms:.1f} ms | {scipy_ms / tp_ms:.1f}× |",
    ]
    if ac:
        lines.append(f"| python-acoustics {ac.get('version', '')} (LAeq, LCeq, LAF; fewer outputs) | {ac['ms']:.1f} ms | {ac['ms'] / tp_ms:.1f}× |")
    else:
        lines.append(f"| python-acoustics | — | {ac_note} |")
    lines += ["", "LA10/50/90: taskproc reads them from 0.01 dB histogram bins (≤ 0.005 dB from numpy's percentile).",
              "python-acoustics levels: its own A/C filter designs and time-weighting (not identical definitions)."]
    (HERE / "SOUND.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))

if __name__ == "__main__":
    main()
