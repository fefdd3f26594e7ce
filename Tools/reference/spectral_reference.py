#!/usr/bin/env python3
"""Writes Tests/SensorSignalTests/Reference/spectral.json: scipy/numpy reference values for the
SensorSignal spectral tests (windows, Welch PSD, periodogram, detrend, rfft, correlate, next_fast_len).

Usage (from the package root; the one argument, a folder to write into instead, is for checking):
    python3 Tools/reference/spectral_reference.py [OUTPUT_DIRECTORY]

Inputs are deterministic: small literal arrays, or `welch_signal(n)` below, which the Swift tests
rebuild with the same formula (and check against `welchSignalSum`). No random numbers.
Floats are written with repr(), which round-trips (reference_json.py).
"""
import math
import warnings

import numpy as np
import scipy
import scipy.fft
import scipy.signal

import reference_json

FS = 50.0
N = 64


def welch_signal(n):
    """x[i] = sin(2π·0.11·i) + 0.5·cos(2π·0.27·i + 0.3) + 0.02·i + 0.25·sin(0.05·i·i)."""
    i = np.arange(n, dtype=np.float64)
    return (np.sin(2 * np.pi * 0.11 * i) + 0.5 * np.cos(2 * np.pi * 0.27 * i + 0.3)
            + 0.02 * i + 0.25 * np.sin(0.05 * i * i))


out = {"generator": f"Tools/reference/spectral_reference.py with scipy {scipy.__version__}, numpy {np.__version__}"}

# Windows
cases = [("boxcar", 8, False)]
cases += [(name, n, sym) for n in (8, 9) for name in ("hann", "hamming", "blackman") for sym in (False, True)]
cases += [("hann", 16, False)]
out["windows"] = []
for name, n, sym in cases:
    w = getattr(scipy.signal.windows, name)(n, sym=True) if sym else scipy.signal.get_window(name, n)
    out["windows"].append({"name": name, "count": n, "symmetric": sym, "values": w})

# Welch on welch_signal(N), sampled at FS Hz
x = welch_signal(N)
out["welchSignalLength"] = N
out["welchSampleRate"] = FS
out["welchSignalSum"] = float(np.sum(x))
custom = [0.2 + 0.8 * math.sin(math.pi * (i + 0.5) / 12) for i in range(12)]
welch_cases = [
    ("hann 32, defaults", "hann", None, 32, None, None, "constant", "density", "mean"),
    ("hamming 17 odd, overlap 5, linear, spectrum", "hamming", None, 17, 5, None, "linear", "spectrum", "mean"),
    ("blackman 32, overlap 0, nfft 40, no detrend", "blackman", None, 32, 0, 40, "none", "density", "mean"),
    ("boxcar 16, overlap 12, odd nfft 31, spectrum", "boxcar", None, 16, 12, 31, "constant", "spectrum", "mean"),
    ("custom 12, linear", None, custom, None, None, None, "linear", "density", "mean"),
    ("hann 16, overlap 8, median (7 segments)", "hann", None, 16, 8, None, "constant", "density", "median"),
    ("hann 16, overlap 0, median (4 segments)", "hann", None, 16, 0, None, "linear", "spectrum", "median"),
    ("default nperseg 256 clipped to 64", "hann", None, None, None, None, "constant", "density", "mean"),
    ("hann 25, overlap 24, no detrend, spectrum", "hann", None, 25, 24, None, "none", "spectrum", "mean"),
]
out["welch"] = []
for label, window, cw, nperseg, noverlap, nfft, detrend, scaling, average in welch_cases:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f, p = scipy.signal.welch(x, fs=FS, window=window if window else np.array(cw), nperseg=nperseg,
                                  noverlap=noverlap, nfft=nfft, detrend=False if detrend == "none" else detrend,
                                  scaling=scaling, average=average)
    assert np.allclose(f, np.arange(len(f)) * FS / (nfft or nperseg or (len(cw) if cw else N)))
    out["welch"].append({"label": label, "window": window, "customWindow": cw or [], "nperseg": nperseg,
                         "noverlap": noverlap, "nfft": nfft, "detrend": detrend, "scaling": scaling,
                         "average": average, "pxx": p})

# Periodogram (single frame spectrum)
out["periodograms"] = []
for count, window, nfft, scaling in [(24, "hann", 24, "spectrum"), (24, "blackman", 30, "density"),
                                     (17, "boxcar", 17, "spectrum")]:
    f, p = scipy.signal.periodogram(welch_signal(count), fs=FS, window=window, nfft=nfft, detrend=False,
                                    scaling=scaling)
    out["periodograms"].append({"count": count, "window": window, "nfft": nfft, "scaling": scaling, "pxx": p})

# Detrend
out["detrendLinear12"] = scipy.signal.detrend(welch_signal(12), type="linear")

# rfft: real and imaginary parts
for name, arr in [("rfftInput8", [1.0, 2.0, -0.5, 3.25, 0.0, -1.5, 2.5, 0.75]),
                  ("rfftInput7", [0.5, -1.0, 4.0, 2.25, -3.0, 1.0, 0.125])]:
    X = np.fft.rfft(np.array(arr))
    out[name] = arr
    out[name + "Real"] = X.real
    out[name + "Imag"] = X.imag

# correlate ('full': 2N - 1 values, lag -(N-1) first)
c_in = [2.0, -1.0, 0.5, 3.0, 1.25, -2.0, 0.0, 1.0, 4.0]
out["correlateInput"] = c_in
out["correlateFull"] = np.correlate(c_in, c_in, "full")

# next_fast_len: [n, the 5-smooth length scipy picks for a real FFT of n]
targets = [0, 1, 5, 7, 11, 13, 49, 97, 121, 127, 199, 1001, 2047, 4097, 10007]
out["nextFastLenReal"] = [[t, scipy.fft.next_fast_len(t, real=True)] for t in targets]

reference_json.write("spectral.json", out)
