#!/usr/bin/env python3
"""Prints Tests/SensorSignalTests/FiltersReference.swift: scipy.signal reference values for FiltersTests.

Usage (from the package root):
    python3 Tools/reference/filters_reference.py > Tests/SensorSignalTests/FiltersReference.swift

Needs scipy (values were generated with scipy 1.17.1 / numpy 2.4.6). The test input is built from an
explicit formula with math.sin/math.cos (the C library's sin/cos, as Swift's RealModule uses), so the
Swift test rebuilds it identically; the file also carries a few of its samples and their sum to prove it.
"""

import math

import numpy as np
import scipy
from scipy import signal

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


def lit(x):
    """A Swift Double literal that round-trips exactly."""
    x = float(x)
    assert math.isfinite(x)
    return repr(x)


def array(values, indent):
    """A Swift array literal, a few numbers per line."""
    items = [lit(v) for v in values]
    lines = []
    line = []
    for item in items:
        if line and len(", ".join(line + [item])) > 110 - indent:
            lines.append(", ".join(line))
            line = []
        line.append(item)
    if line:
        lines.append(", ".join(line))
    pad = " " * indent
    return "[\n" + ",\n".join(pad + "    " + l for l in lines) + ",\n" + pad + "]"


def rows(sos, indent):
    """A Swift [[Double]] literal, one row per line (wrapped to stay within 120 columns)."""
    pad = " " * indent
    comma = "," if len(sos) > 1 else ""  # swift-format: no trailing comma after a lone element
    out = "[\n"
    for r in sos:
        items = [lit(v) for v in r]
        one_line = pad + "    [" + ", ".join(items) + "]" + comma
        if len(one_line) <= 120:
            out += one_line + "\n"
        else:
            out += pad + "    [\n" + pad + "        " + ", ".join(items[:3]) + ",\n"
            out += pad + "        " + ", ".join(items[3:]) + ",\n" + pad + "    ]" + comma + "\n"
    return out + pad + "]"


def band(btype, wn):
    if btype == "lowpass":
        return f".lowpass(cutoff: {lit(wn[0])})"
    if btype == "highpass":
        return f".highpass(cutoff: {lit(wn[0])})"
    if btype == "bandpass":
        return f".bandpass(low: {lit(wn[0])}, high: {lit(wn[1])})"
    return f".bandstop(low: {lit(wn[0])}, high: {lit(wn[1])})"


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
    out = []
    w = out.append
    w(f"// Generated by Tools/reference/filters_reference.py with scipy {scipy.__version__} "
      f"(numpy {np.__version__}). Do not edit.")
    w("// Regenerate: python3 Tools/reference/filters_reference.py > Tests/SensorSignalTests/FiltersReference.swift")
    w("")
    w("import SensorSignal")
    w("")
    w("/// scipy.signal reference values for ``FiltersTests``.")
    w("enum FiltersReference {")
    w("    /// One `scipy.signal.butter(order, cutoffs, btype, output='sos', fs=sampleRate)` result.")
    w("    struct Design: Sendable, CustomStringConvertible {")
    w("        let name: String")
    w("        let order: Int")
    w("        let band: FilterBand")
    w("        let sampleRate: Double")
    w("        let sos: [[Double]]")
    w("        var description: String { name }")
    w("    }")
    w("")
    w("    static let designs: [Design] = [")
    for name, order, btype, wn, fs in DESIGNS:
        w(f"        Design(")
        w(f"            name: \"{name}\", order: {order}, band: {band(btype, wn)}, sampleRate: {lit(fs)},")
        w(f"            sos: {rows(butter(name), 12)}),")
    w("    ]")
    w("")
    w("    /// The design called `name`.")
    w("    static func design(_ name: String) -> Design { designs.first { $0.name == name }! }")
    w("")
    w("    /// Length of the test input")
    w("    /// `x[n] = sin(0.19 n) + 0.5 cos(1.09 n + 0.4) + 0.25 sin(2.6 n) + 0.02 n − 0.3`.")
    w(f"    static let signalLength = {SIGNAL_LENGTH}")
    w(f"    /// `x[0..<4]`, to prove the Swift rebuild of the input is identical.")
    w(f"    static let signalHead: [Double] = {array(x[:4], 4)}")
    w(f"    /// `x.sum()`.")
    w(f"    static let signalSum = {lit(math.fsum(x))}")
    w("")

    lp4, hp3, bp3, lp1 = butter("lp4_100"), butter("hp3_100"), butter("bp3_100"), butter("lp1_100")
    w("    /// `sosfilt(lp4_100, x)`.")
    w(f"    static let sosfiltLowpass4: [Double] = {array(signal.sosfilt(lp4, x), 4)}")
    zi = signal.sosfilt_zi(hp3)
    y, zf = signal.sosfilt(hp3, x, zi=zi * x[0])
    w("    /// `sosfilt_zi(hp3_100)` flattened row by row.")
    w(f"    static let sosfiltZiHighpass3: [Double] = {array(zi.ravel(), 4)}")
    w("    /// The output of `sosfilt(hp3_100, x, zi=sosfilt_zi(hp3_100) * x[0])`.")
    w(f"    static let sosfiltHighpass3SteadyStart: [Double] = {array(y, 4)}")
    w("    /// The final state `zf` of that call, flattened row by row.")
    w(f"    static let sosfiltHighpass3FinalState: [Double] = {array(zf.ravel(), 4)}")
    w("    /// `sosfiltfilt(lp4_100, x)`.")
    w(f"    static let sosfiltfiltLowpass4: [Double] = {array(signal.sosfiltfilt(lp4, x), 4)}")
    w("    /// `sosfiltfilt(bp3_100, x)`.")
    w(f"    static let sosfiltfiltBandpass3: [Double] = {array(signal.sosfiltfilt(bp3, x), 4)}")
    w("    /// `sosfiltfilt(lp1_100, x)` (first-order section: b2 == a2 == 0, so padlen is 6).")
    w(f"    static let sosfiltfiltLowpass1: [Double] = {array(signal.sosfiltfilt(lp1, x), 4)}")
    w("    /// The shortest signal scipy's `sosfiltfilt` accepts, by design name (found by trying lengths).")
    w("    static let minimumZeroPhaseLength: [String: Int] = [")
    for name in ("lp1_100", "lp4_100", "bp3_100", "hp8_100"):
        w(f"        \"{name}\": {minimum_filtfilt_length(butter(name))},")
    w("    ]")
    w("")

    xl = np.array(test_signal(LONG_LENGTH))
    w("    /// One long `sosfilt` check: the rows, and at every `longStride`-th sample of the test input of")
    w("    /// length `longLength` both scipy's output and an extended-precision one (scipy's own `sosfilt`")
    w("    /// in `np.longdouble`, 64-bit significand: about 2000 times less rounding than `Double`, so it")
    w("    /// stands for the exact output of these coefficients).")
    w("    struct LongCase: Sendable, CustomStringConvertible {")
    w("        let name: String")
    w("        let sos: [[Double]]")
    w("        let scipy: [Double]")
    w("        let extended: [Double]")
    w("        var description: String { name }")
    w("    }")
    w("")
    w(f"    static let longLength = {LONG_LENGTH}")
    w(f"    static let longStride = {LONG_STRIDE}")
    w("    static let longCases: [LongCase] = [")
    for name, names, spread in LONG_CASES:
        sos = long_case_sos(names, spread)
        y = signal.sosfilt(sos, xl)
        extended = signal.sosfilt(sos.astype(np.longdouble), xl.astype(np.longdouble))
        assert extended.dtype == np.longdouble and np.finfo(np.longdouble).nmant >= 63
        w("        LongCase(")
        w(f"            name: \"{name}\",")
        w(f"            sos: {rows(sos, 12)},")
        w(f"            scipy: {array(y[::LONG_STRIDE], 12)},")
        w(f"            extended: {array(extended[::LONG_STRIDE].astype(np.float64), 12)}),")
    w("    ]")
    w("")

    freqs = [0.0, 50.0, 300.0, 1000.0, 3400.0, 10000.0, 24000.0]
    _, h = signal.freqz_sos(butter("bp2_48k"), worN=freqs, fs=48000.0)
    w("    /// Frequencies (Hz) for `freqz_sos(bp2_48k, worN=…, fs=48000)`.")
    w(f"    static let responseFrequencies: [Double] = {array(freqs, 4)}")
    w("    /// Real parts of that response.")
    w(f"    static let responseReal: [Double] = {array(h.real, 4)}")
    w("    /// Imaginary parts of that response.")
    w(f"    static let responseImaginary: [Double] = {array(h.imag, 4)}")
    w("")

    z1 = np.array([-1, -0.5 - 0.5j, -0.5 + 0.5j])
    p1 = np.array([0.75, 0.8 + 0.1j, 0.8 - 0.1j])
    w("    /// `zpk2sos([-1, -0.5-0.5j, -0.5+0.5j], [0.75, 0.8+0.1j, 0.8-0.1j], 1)` (scipy's docstring example).")
    w(f"    static let zpk2sosExample: [[Double]] = {rows(signal.zpk2sos(z1, p1, 1), 4)}")

    # A-weighting (IEC 61672-1 pole frequencies), analog zpk -> bilinear_zpk at 48 kHz -> zpk2sos.
    f1, f2, f3, f4 = 20.598997, 107.65265, 737.86223, 12194.217
    poles = [-2 * math.pi * f for f in (f1, f1, f2, f3, f4, f4)]
    gain = (2 * math.pi * f4) ** 2 * 10 ** (2.0 / 20)
    z, p, k = signal.bilinear_zpk([0.0, 0.0, 0.0, 0.0], poles, gain, 48000.0)
    w("    /// The analog A-weighting poles in rad/s: −2π·f for f = 20.598997 (×2), 107.65265, 737.86223,")
    w("    /// 12194.217 (×2) Hz; the zeros are 4 × 0.")
    w(f"    static let aWeightingAnalogPoles: [Double] = {array(poles, 4)}")
    w("    /// The analog A-weighting gain (2π·12194.217)²·10^(2/20), 0 dB at 1 kHz.")
    w(f"    static let aWeightingAnalogGain = {lit(gain)}")
    w("    /// `zpk2sos(bilinear_zpk(z, p, k, fs=48000))` of that analog A-weighting filter.")
    w(f"    static let aWeighting48k: [[Double]] = {rows(signal.zpk2sos(z, p, k), 4)}")
    w("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
