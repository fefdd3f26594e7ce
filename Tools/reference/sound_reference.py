#!/usr/bin/env python3
"""Independent reference values for taskproc's sound level meter (scipy), written to
Tests/SensorSignalTests/Reference/sound.json (reference_json.py: floats exact, NaN as a string).

    python3 Tools/reference/sound_reference.py [OUTPUT_DIRECTORY]

Everything here is computed with numpy/scipy from the standard's definitions, not from taskproc:
  * A/C weighting: analogue poles from IEC 61672-1 (cl. 5.4.10-11), scipy.signal.bilinear_zpk, zpk2sos,
    renormalised to 0 dB at 1 kHz; responses at the exact third-octave frequencies 1000*10^((n-30)/10).
  * Levels of a deterministic 12 s, 48 kHz test signal (the same SplitMix64/Box-Muller generator as
    SensorSignal.TestSignal.whiteNoise, re-implemented here): white noise (rms 0.1, seed 11) whose amplitude
    doubles at 6 s, plus a 1 kHz sine (amplitude 0.05). scipy.signal.sosfilt for A/C, the one-pole exponential
    time weighting e[n] = a e[n-1] + (1-a) x^2[n] with a = exp(-1/(fs tau)) started at 0.1 s from the mean of
    x^2 over [0.1 s, 0.1 s + tau), LAFmax and LASmax after 0.1 s, LAFmin and the 10 ms LAF history after
    10 tau (all rounded up to the meter's 60-sample cells at 48 kHz), LN as numpy.percentile(history, 100-N)
    (linear = R type 7), LCpeak after 0.1 s, and the ResearchKit window series (buffers of fs/10 frames, one window per 11 buffers summing the last 10, meanSquare = sum/1/fs).
"""
import math

import numpy as np
import scipy
from scipy import signal

import reference_json

FS_LIST = [44100.0, 48000.0, 96000.0]

def poles():
    fr, fl, fh, fa = 1000.0, 10 ** 1.5, 10 ** 3.9, 10 ** 2.45
    d = math.sqrt(0.5)
    b = (fr**2 + fl**2 * fh**2 / fr**2 - d * (fl**2 + fh**2)) / (1 - d)
    c = fl**2 * fh**2
    f4sq = (-b + math.sqrt(b * b - 4 * c)) / 2
    f1sq = c / f4sq
    r5 = math.sqrt(5)
    return math.sqrt(f1sq), (3 - r5) / 2 * fa, (3 + r5) / 2 * fa, math.sqrt(f4sq)

def design(weighting, fs):
    f1, f2, f3, f4 = poles()
    w = [2 * math.pi * f for f in (f1, f2, f3, f4)]
    if weighting == "A":
        z = [0, 0, 0, 0]; p = [-w[0], -w[0], -w[1], -w[2], -w[3], -w[3]]
    else:
        z = [0, 0]; p = [-w[0], -w[0], -w[3], -w[3]]
    zd, pd, kd = signal.bilinear_zpk(z, p, 1.0, fs)
    sos = signal.zpk2sos(zd, pd, kd)
    _, h = signal.sosfreqz(sos, worN=[1000.0], fs=fs)
    sos[0, :3] /= abs(h[0])
    return sos

def third_octaves():
    return [1000 * 10 ** ((n - 30) / 10) for n in range(10, 44)]

MASK = (1 << 64) - 1
def splitmix(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)

def white(count, rms, seed):
    g = splitmix(seed)
    out = np.zeros(count)
    i = 0
    while i < count:
        u1 = ((next(g) >> 11) + 1) / 9007199254740992.0
        u2 = (next(g) >> 11) / 9007199254740992.0
        r = math.sqrt(-2 * math.log(u1))
        out[i] = rms * r * math.cos(2 * math.pi * u2)
        if i + 1 < count:
            out[i + 1] = rms * r * math.sin(2 * math.pi * u2)
        i += 2
    return out

def test_signal(fs=48000.0, seconds=12):
    n = int(fs * seconds)
    x = white(n, 0.1, 11)
    x[int(6 * fs):] *= 2
    t = np.arange(n)
    x += 0.05 * np.sin(2 * np.pi * 1000 * t / fs)
    return x

def cells(seconds, fs, cell):
    return int(math.ceil(seconds * fs / cell)) * cell

def seeded_weighting(q, fs, tau, cell=60):
    """The exponential time weighting of q, held at the mean of q over its seed window until 0.1 s (the
    filters' start-up) and run from there."""
    a = math.exp(-1 / (fs * tau))
    s0 = cells(0.1, fs, cell)
    s1 = s0 + cells(tau, fs, cell)
    # A signal that ends before 0.1 s has no time-weighted level at all (nothing below reads e then).
    seed = float(np.mean(q[s0:min(s1, len(q))])) if len(q) > s0 else 0.0
    e = np.full(len(q), seed)
    if len(q) > s0:
        e[s0:], _ = signal.lfilter([1 - a], [1, -a], q[s0:], zi=[a * seed])
    return e

def levels(x, fs=48000.0, cell=60, hist=480):
    ya = signal.sosfilt(design("A", fs), x)
    yc = signal.sosfilt(design("C", fs), x)
    db = lambda ms: 10 * math.log10(ms)
    out = {"LAeq": db(np.mean(ya**2)), "LCeq": db(np.mean(yc**2)), "LZeq": db(np.mean(x**2))}
    q = ya**2
    res = {}
    for name, tau in (("F", 0.125), ("S", 1.0)):
        e = seeded_weighting(q, fs, tau, cell)
        res[name] = (e, cells(10 * tau, fs, cell))
    eF, s10F = res["F"]
    eS, s10S = res["S"]
    start = cells(0.1, fs, cell)
    out["LAFmax"] = db(eF[start:].max())
    out["LAFmin"] = db(eF[s10F:].min())
    out["LASmax"] = db(eS[start:].max())
    out["LASmin"] = db(eS[s10S:].min())
    # history: e after sample index k*hist - 1 (frames = k*hist), frames > s10F
    frames = np.arange(hist, len(x) + 1, hist)
    frames = frames[frames > s10F]
    history = 10 * np.log10(eF[frames - 1])
    for nlev in (10, 50, 90):
        out[f"LA{nlev}"] = float(np.percentile(history, 100 - nlev))
    out["LCpeak"] = 20 * math.log10(np.abs(yc[cells(0.1, fs, cell):]).max())
    b = int(fs // 10)
    nbuf = len(x) // b
    energies = [np.sum(q[i * b:(i + 1) * b]) for i in range(nbuf)]
    windows = []
    for j in range(nbuf // 11):
        windows.append(db(sum(energies[j * 11 + 1:j * 11 + 11]) / 1.0 / fs))
    out["windows"] = windows
    return out

def main():
    out = {"generator": f"Tools/reference/sound_reference.py with scipy {scipy.__version__}, numpy {np.__version__}"}
    out["thirdOctaves"] = third_octaves()  # exact 1000*10^((n-30)/10), n = 10...43, Hz
    for w in ("A", "C"):
        for fs in FS_LIST:
            sos = design(w, fs)
            _, h = signal.sosfreqz(sos, worN=third_octaves(), fs=fs)
            resp = 20 * np.log10(np.abs(h))
            # dB at the third octaves, NaN above Nyquist
            out[f"{w.lower()}Response{int(fs)}"] = [v if f < fs / 2 else float("nan")
                                                    for v, f in zip(resp, third_octaves())]
    ref = levels(test_signal())
    # Levels (dB re full scale^2) of the test signal, then its ResearchKit window series.
    for k in ("LAeq", "LCeq", "LZeq", "LAFmax", "LAFmin", "LASmax", "LASmin", "LA10", "LA50", "LA90", "LCpeak"):
        out[k] = ref[k]
    out["windows"] = ref["windows"]
    reference_json.write("sound.json", out)


if __name__ == "__main__":
    main()
