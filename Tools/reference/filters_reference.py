#!/usr/bin/env python3
"""Writes Tests/SensorSignalTests/Reference/filters.json: scipy.signal reference values for FiltersTests.

Usage (from the package root; the one argument, a folder to write into instead, is for checking):
    python3 Tools/reference/filters_reference.py [OUTPUT_DIRECTORY]

Needs scipy (values were generated with scipy 1.17.1 / numpy 2.4.6). The test input is built from an
explicit formula with math.sin/math.cos (the C library's sin/cos, as Swift's RealModule uses), so the
Swift test rebuilds it identically; the file also carries a few of its samples and their sum to prove it.
The JSON layout and number format are reference_json.py's (floats exact, NaN/Inf as strings).
"""

import math

import numpy as np
import scipy
from scipy import signal

import reference_json

# (name, order, btype, cutoffs in Hz, sampling rate in Hz)
DESIGNS = [
    ("lp1_100", 1, "lowpass", [10.0], 100.0),
    ("lp2_100", 2, "lowpass", [10.0], 100.0),
    ("lp3_48k", 3, "lowpass", [1000.0], 48000.0),
    ("lp4_100", 4, "lowpass", [5.0], 100.0),
    ("lp5_48k", 5, "lowpass", [15000.0], 48000.0),
    ("lp8_48k", 8, "lowpass", [200.0], 48000.0),
    ("hp3_100", 3, "highpass", [1.5], 100.0),
    ("hp8_100", 8, "highpass", [30.0], 100.0),
    ("bp1_100", 1, "bandpass", [5.0, 15.0], 100.0),
    ("bp2_48k", 2, "bandpass", [300.0, 3400.0], 48000.0),
    ("bp3_100", 3, "bandpass", [0.5, 20.0], 100.0),
    # Symmetric about fs/4: mirror-image poles tie for "closest to the unit circle"; scipy's pairing
    # order then hinges on the last bits of every pole.
    ("bp4_100", 4, "bandpass", [20.0, 30.0], 100.0),
    ("bs2_100", 2, "bandstop", [45.0, 49.0], 100.0),
    ("bs3_48k", 3, "bandstop", [49.0, 51.0], 48000.0),
]

SIGNAL_LENGTH = 40

# Long sosfilt checks: every section count the Swift kernels specialise (1…4), groups beyond four, and
# cascades whose later sections have b0 != 1 (so the general kernels run, not the b0 == 1 shortcut).
# (name, design names whose rows are concatenated, spread the gain over all sections?)
LONG_CASES = [
    ("lp2_100", ["lp2_100"], False),
    ("lp4_100", ["lp4_100"], False),
    ("lp5_48k", ["lp5_48k"], False),
    ("bs3_48k", ["bs3_48k"], False),
    ("lp8_48k", ["lp8_48k"], False),
    ("hp8_100", ["hp8_100"], False),
    ("bp4_100", ["bp4_100"], False),
    ("lp4_100 spread", ["lp4_100"], True),
    ("bs3_48k spread", ["bs3_48k"], True),
    ("lp8_48k spread", ["lp8_48k"], True),
    ("bp3_100+lp4_100", ["bp3_100", "lp4_100"], False),
    ("lp8_48k+bs3_48k", ["lp8_48k", "bs3_48k"], False),
    ("lp8_48k+bs3_48k+hp3_100 spread", ["lp8_48k", "bs3_48k", "hp3_100"], True),
]
LONG_LENGTH = 4096
LONG_STRIDE = 64


def test_signal(n):
    """x[n] = sin(0.19 n) + 0.5 cos(1.09 n + 0.4) + 0.25 sin(2.6 n) + 0.02 n - 0.3, evaluated left to right."""
    return [
        math.sin(0.19 * i) + 0.5 * math.cos(1.09 * i + 0.4) + 0.25 * math.sin(2.6 * i) + 0.02 * i - 0.3
        for i in range(n)
    ]


def butter(name):
    _, order, btype, wn, fs = next(d for d in DESIGNS if d[0] == name)
    return signal.butter(order, wn if len(wn) == 2 else wn[0], btype, output="sos", fs=fs)


def long_case_sos(names, spread):
    """The rows of the designs `names`, concatenated; with `spread`, every numerator row is rescaled so
    that each section carries the same share |k|^(1/S) of the overall gain k = prod(b0)."""
    sos = np.vstack([butter(name) for name in names])
    if spread:
        gain = float(np.prod(sos[:, 0]))
        share = abs(gain) ** (1.0 / len(sos))
        for row in sos:
            row[:3] *= share / row[0]
        sos[0, :3] *= math.copysign(1.0, gain)
    return sos


def minimum_filtfilt_length(sos):
    """The shortest signal scipy's sosfiltfilt accepts (found by trying, not from the formula)."""
    n = 1
    while True:
        try:
            signal.sosfiltfilt(sos, np.ones(n))
            return n
        except ValueError:
            n += 1


def main():
    x = np.array(test_signal(SIGNAL_LENGTH))
    out = {"generator": f"Tools/reference/filters_reference.py with scipy {scipy.__version__}, numpy {np.__version__}"}
    out["designs"] = [
        {"name": name, "order": order, "band": {"btype": btype, "cutoffs": wn}, "sampleRate": fs, "sos": butter(name)}
        for name, order, btype, wn, fs in DESIGNS
    ]
    out["signalLength"] = SIGNAL_LENGTH
    out["signalHead"] = x[:4]  # to prove the Swift rebuild of the input is identical
    out["signalSum"] = math.fsum(x)

    lp4, hp3, bp3, lp1 = butter("lp4_100"), butter("hp3_100"), butter("bp3_100"), butter("lp1_100")
    out["sosfiltLowpass4"] = signal.sosfilt(lp4, x)
    zi = signal.sosfilt_zi(hp3)
    y, zf = signal.sosfilt(hp3, x, zi=zi * x[0])
    out["sosfiltZiHighpass3"] = zi.ravel()
    out["sosfiltHighpass3SteadyStart"] = y
    out["sosfiltHighpass3FinalState"] = zf.ravel()
    out["sosfiltfiltLowpass4"] = signal.sosfiltfilt(lp4, x)
    out["sosfiltfiltBandpass3"] = signal.sosfiltfilt(bp3, x)
    out["sosfiltfiltLowpass1"] = signal.sosfiltfilt(lp1, x)
    out["minimumZeroPhaseLength"] = {
        name: minimum_filtfilt_length(butter(name)) for name in ("lp1_100", "lp4_100", "bp3_100", "hp8_100")
    }

    # Long sosfilt checks: scipy's output and an extended-precision one (scipy's own sosfilt in np.longdouble,
    # 64-bit significand), at every LONG_STRIDE-th sample.
    xl = np.array(test_signal(LONG_LENGTH))
    out["longLength"] = LONG_LENGTH
    out["longStride"] = LONG_STRIDE
    out["longCases"] = []
    for name, names, spread in LONG_CASES:
        sos = long_case_sos(names, spread)
        y = signal.sosfilt(sos, xl)
        extended = signal.sosfilt(sos.astype(np.longdouble), xl.astype(np.longdouble))
        assert extended.dtype == np.longdouble and np.finfo(np.longdouble).nmant >= 63
        out["longCases"].append({"name": name, "sos": sos, "scipy": y[::LONG_STRIDE],
                                 "extended": extended[::LONG_STRIDE].astype(np.float64)})

    freqs = [0.0, 50.0, 300.0, 1000.0, 3400.0, 10000.0, 24000.0]
    _, h = signal.freqz_sos(butter("bp2_48k"), worN=freqs, fs=48000.0)
    out["responseFrequencies"] = freqs  # freqz_sos(bp2_48k, worN=..., fs=48000)
    out["responseReal"] = h.real
    out["responseImaginary"] = h.imag

    # scipy's docstring example.
    z1 = np.array([-1, -0.5 - 0.5j, -0.5 + 0.5j])
    p1 = np.array([0.75, 0.8 + 0.1j, 0.8 - 0.1j])
    out["zpk2sosExample"] = signal.zpk2sos(z1, p1, 1)

    # A-weighting (IEC 61672-1 pole frequencies), analog zpk -> bilinear_zpk at 48 kHz -> zpk2sos.
    f1, f2, f3, f4 = 20.598997, 107.65265, 737.86223, 12194.217
    poles = [-2 * math.pi * f for f in (f1, f1, f2, f3, f4, f4)]
    gain = (2 * math.pi * f4) ** 2 * 10 ** (2.0 / 20)
    z, p, k = signal.bilinear_zpk([0.0, 0.0, 0.0, 0.0], poles, gain, 48000.0)
    out["aWeightingAnalogPoles"] = poles
    out["aWeightingAnalogGain"] = gain
    out["aWeighting48k"] = signal.zpk2sos(z, p, k)
    reference_json.write("filters.json", out)


if __name__ == "__main__":
    main()
