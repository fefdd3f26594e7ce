#!/usr/bin/env python3
"""Print Tests/SensorSignalTests/SignalReference.swift: scipy reference values for the Signal/ module tests.

Usage (from the package root, with scipy 1.17.1 installed):

    python3 Tools/reference/signal_reference.py > Tests/SensorSignalTests/SignalReference.swift

Inputs are small literal arrays or explicit deterministic formulas, so the Swift tests can rebuild
them exactly; only scipy's outputs are stored. Floats are written with repr(), which round-trips.
"""

import math
import sys

import numpy as np
import scipy
import scipy.signal as ss
import scipy.special as sp

EXPECTED_SCIPY = "1.17.1"


def swift_double(v):
    v = float(v)
    if math.isnan(v):
        return ".nan"
    if math.isinf(v):
        return ".infinity" if v > 0 else "-.infinity"
    return repr(v)


def doubles(values, indent="        "):
    items = [swift_double(v) for v in values]
    if len(", ".join(items)) <= 80:
        return "[" + ", ".join(items) + "]"
    lines, line = [], ""
    for item in items:
        piece = item + ", "
        if len(line) + len(piece) > 100:
            lines.append(line.rstrip())
            line = ""
        line += piece
    if line:
        lines.append(line.rstrip())
    if not lines:
        return "[]"
    return "[\n" + "\n".join(indent + "    " + l for l in lines) + "\n" + indent + "]"


def ints(values):
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def bounds(value):
    """A find_peaks interval argument as a Swift `PeakBounds?` expression."""
    if value is None:
        return "nil"
    try:
        low, high = value
    except TypeError:
        low, high = value, None
    if low is None and high is None:
        return ".unbounded"
    if high is None:
        return f".atLeast({swift_double(low)})"
    if low is None:
        return f".atMost({swift_double(high)})"
    return f".between({swift_double(low)}, {swift_double(high)})"


# MARK: - Peak inputs

# Plateaus of odd and even length, a flat valley, a plateau rising into a higher peak,
# a high first sample and a plateau touching the end (neither is a peak).
PLATEAUS = [1, 0, 2, 2, 1, 3, 3, 3, 0, 4, 4, 4, 4, 2, 2, 5, 5, 6, 1, 7, 7]


def formula_signal(n=32):
    """x[i] = sin(2πi/16) + 0.6·sin(2πi/5.3 + 0.5) + 0.25·cos(2πi/2.7), rounded to 6 decimals.

    The rounded values are both what scipy sees and the Swift literals, so inputs match exactly.
    """
    i = np.arange(n, dtype=float)
    x = (np.sin(2 * np.pi * i / 16) + 0.6 * np.sin(2 * np.pi * i / 5.3 + 0.5)
         + 0.25 * np.cos(2 * np.pi * i / 2.7))
    return np.round(x, 6)


# Equal-height peaks: the distance rule must break ties like a stable sort (later peak first).
TIES = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]
TIES_MIXED = [0, 2, 1, 2, 0, 3, 1, 3, 0, 2, 0, 2, 1, 2, 0]

ALL = (None, None)
PEAK_CASES = [
    # name, signal name, kwargs
    ("plateaus, all properties", "plateaus",
     dict(height=ALL, threshold=ALL, prominence=ALL, width=ALL, plateau_size=ALL)),
    ("plateaus, plateau size 2...3", "plateaus", dict(plateau_size=(2, 3))),
    ("formula, all properties", "formula",
     dict(height=ALL, threshold=ALL, prominence=ALL, width=ALL, plateau_size=ALL)),
    ("formula, height 0.5", "formula", dict(height=0.5)),
    ("formula, height 0.2...1.2", "formula", dict(height=(0.2, 1.2))),
    ("formula, distance 5", "formula", dict(distance=5)),
    ("formula, distance 9", "formula", dict(distance=9)),
    ("formula, prominence 0.8", "formula", dict(prominence=0.8)),
    ("formula, prominence 0.3...1.5, wlen 9", "formula", dict(prominence=(0.3, 1.5), wlen=9)),
    ("formula, width 2...", "formula", dict(width=2)),
    ("formula, width 1.5...4, rel_height 0.8", "formula", dict(width=(1.5, 4), rel_height=0.8)),
    ("formula, threshold 0.3", "formula", dict(threshold=0.3)),
    ("formula, threshold 0.1...0.6", "formula", dict(threshold=(0.1, 0.6))),
    ("formula, height 0, distance 4, prominence 0.5", "formula", dict(height=0, distance=4, prominence=0.5)),
    ("ties, distance 3", "ties", dict(distance=3)),
    ("ties mixed, distance 3", "tiesMixed", dict(distance=3)),
    ("ties mixed, distance 5", "tiesMixed", dict(distance=5)),
]

SIGNALS = {
    "plateaus": np.array(PLATEAUS, dtype=float),
    "formula": formula_signal(),
    "ties": np.array(TIES, dtype=float),
    "tiesMixed": np.array(TIES_MIXED, dtype=float),
}


def stable_distance_check(x, kwargs, peaks):
    """Assert scipy's tie-breaking (numpy's unstable argsort) agrees with the stable rule we implement."""
    if "distance" not in kwargs or len(kwargs) != 1:
        return
    candidates, _ = ss.find_peaks(x)
    heights = x[candidates]
    keep = np.ones(len(candidates), dtype=bool)
    for j in np.argsort(heights, kind="stable")[::-1]:
        if not keep[j]:
            continue
        for k in range(len(candidates)):
            if k != j and abs(candidates[k] - candidates[j]) < math.ceil(kwargs["distance"]):
                keep[k] = False
    assert list(candidates[keep]) == list(peaks), (kwargs, candidates[keep], peaks)


PROPERTY_NAMES = [
    ("peak_heights", "heights", "doubles"),
    ("left_thresholds", "leftThresholds", "doubles"),
    ("right_thresholds", "rightThresholds", "doubles"),
    ("plateau_sizes", "plateauSizes", "ints"),
    ("left_edges", "leftEdges", "ints"),
    ("right_edges", "rightEdges", "ints"),
    ("prominences", "prominences", "doubles"),
    ("left_bases", "leftBases", "ints"),
    ("right_bases", "rightBases", "ints"),
    ("widths", "widths", "doubles"),
    ("width_heights", "widthHeights", "doubles"),
    ("left_ips", "leftIntersections", "doubles"),
    ("right_ips", "rightIntersections", "doubles"),
]

# MARK: - resample_poly inputs


def poly_signal(n=16):
    """r[n] = sin(2π·0.06·n) + 0.4·cos(2π·0.17·n + 0.3), rounded to 6 decimals (exact Swift literals)."""
    i = np.arange(n, dtype=float)
    return np.round(np.sin(2 * np.pi * 0.06 * i) + 0.4 * np.cos(2 * np.pi * 0.17 * i + 0.3), 6)


POLY_FACTORS = [(1, 2), (2, 1), (3, 2), (2, 3), (4, 5), (160, 147)]


def main():
    if scipy.__version__ != EXPECTED_SCIPY:
        print(f"warning: scipy {scipy.__version__}, references were made with {EXPECTED_SCIPY}", file=sys.stderr)
    out = []
    w = out.append
    w("// Generated by Tools/reference/signal_reference.py with scipy "
      f"{scipy.__version__}, numpy {np.__version__}. Do not edit.")
    w("// Regenerate: python3 Tools/reference/signal_reference.py > Tests/SensorSignalTests/SignalReference.swift")
    w("")
    w("import SensorSignal")
    w("")
    w("/// One `scipy.signal.find_peaks` call and its result; `nil` properties were not returned by scipy.")
    w("struct PeakReferenceCase: Sendable, CustomStringConvertible {")
    w("    var name: String")
    w("    var signal: String")
    w("    var height: PeakBounds? = nil")
    w("    var threshold: PeakBounds? = nil")
    w("    var distance: Int? = nil")
    w("    var prominence: PeakBounds? = nil")
    w("    var width: PeakBounds? = nil")
    w("    var windowLength: Int? = nil")
    w("    var relativeHeight: Double = 0.5")
    w("    var plateauSize: PeakBounds? = nil")
    w("    var indices: [Int]")
    for _, swift_name, kind in PROPERTY_NAMES:
        w(f"    var {swift_name}: [{'Double' if kind == 'doubles' else 'Int'}]? = nil")
    w("    var description: String { name }")
    w("}")
    w("")
    w("/// One `scipy.signal.resample_poly(polySignal, up, down)` call and its output.")
    w("struct PolyReferenceCase: Sendable, CustomStringConvertible {")
    w("    var up: Int")
    w("    var down: Int")
    w("    var output: [Double]")
    w("    var description: String { \"\\(up)/\\(down)\" }")
    w("}")
    w("")
    w("enum SignalReference {")
    w("    /// Plateaus, a flat valley, a plateau rising into a peak, edges.")
    w(f"    static let plateaus: [Double] = {doubles(PLATEAUS, '    ')}")
    w(f"    static let ties: [Double] = {doubles(TIES, '    ')}")
    w(f"    static let tiesMixed: [Double] = {doubles(TIES_MIXED, '    ')}")
    w("    /// x[i] = sin(2πi/16) + 0.6·sin(2πi/5.3 + 0.5) + 0.25·cos(2πi/2.7), i = 0..<32, rounded to 6 decimals.")
    w(f"    static let formula: [Double] = {doubles(SIGNALS['formula'], '    ')}")
    w("")
    w("    static func signal(named name: String) -> [Double] {")
    w("        switch name {")
    w("        case \"plateaus\": plateaus")
    w("        case \"ties\": ties")
    w("        case \"tiesMixed\": tiesMixed")
    w("        default: formula")
    w("        }")
    w("    }")
    w("")
    w("    static let peakCases: [PeakReferenceCase] = [")
    for name, signal_name, kwargs in PEAK_CASES:
        x = SIGNALS[signal_name]
        peaks, props = ss.find_peaks(x, **kwargs)
        stable_distance_check(x, kwargs, peaks)
        args = [f"name: \"{name}\"", f"signal: \"{signal_name}\""]
        for key, label in [("height", "height"), ("threshold", "threshold")]:
            if key in kwargs:
                args.append(f"{label}: {bounds(kwargs[key])}")
        if "distance" in kwargs:
            args.append(f"distance: {kwargs['distance']}")
        for key, label in [("prominence", "prominence"), ("width", "width")]:
            if key in kwargs:
                args.append(f"{label}: {bounds(kwargs[key])}")
        if "wlen" in kwargs:
            args.append(f"windowLength: {kwargs['wlen']}")
        if "rel_height" in kwargs:
            args.append(f"relativeHeight: {swift_double(kwargs['rel_height'])}")
        if "plateau_size" in kwargs:
            args.append(f"plateauSize: {bounds(kwargs['plateau_size'])}")
        args.append(f"indices: {ints(peaks)}")
        for key, swift_name, kind in PROPERTY_NAMES:
            if key in props:
                value = doubles(props[key], "            ") if kind == "doubles" else ints(props[key])
                args.append(f"{swift_name}: {value}")
        w("        PeakReferenceCase(")
        w("            " + ",\n            ".join(args) + "),")
    w("    ]")
    w("")
    w("    /// r[n] = sin(2π·0.06·n) + 0.4·cos(2π·0.17·n + 0.3), n = 0..<16, rounded to 6 decimals.")
    w(f"    static let polySignal: [Double] = {doubles(poly_signal(), '    ')}")
    w("")
    w("    static let polyCases: [PolyReferenceCase] = [")
    for up, down in POLY_FACTORS:
        y = ss.resample_poly(poly_signal(), up, down)
        w("        PolyReferenceCase(")
        w(f"            up: {up}, down: {down},")
        w(f"            output: {doubles(y, '            ')}),")
    w("    ]")
    w("")
    w("    /// `firwin(41, 0.5, window=(\"kaiser\", 5.0))`: resample_poly's filter for max(up, down) = 2, before × up.")
    w(f"    static let firwin41: [Double] = {doubles(ss.firwin(41, 0.5, window=('kaiser', 5.0)), '    ')}")
    w("    /// `scipy.signal.windows.kaiser(9, 5.0)` (symmetric).")
    w(f"    static let kaiser9: [Double] = {doubles(ss.windows.kaiser(9, 5.0), '    ')}")
    i0_args = [0.0, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0]
    w("    /// `scipy.special.i0` at `besselI0Arguments`.")
    w(f"    static let besselI0Arguments: [Double] = {doubles(i0_args, '    ')}")
    w(f"    static let besselI0Values: [Double] = {doubles(sp.i0(i0_args), '    ')}")
    w("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
