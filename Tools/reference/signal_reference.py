#!/usr/bin/env python3
"""Write Tests/SensorSignalTests/Reference/signal.json: scipy reference values for the Signal/ module tests.

Usage (from the package root, with scipy 1.17.1 installed; the one argument, a folder to write into instead, is
for checking):

    python3 Tools/reference/signal_reference.py [OUTPUT_DIRECTORY]

Inputs are small literal arrays or explicit deterministic formulas, so the Swift tests can rebuild
them exactly; only scipy's outputs are stored. Floats are written with repr(), which round-trips
(reference_json.py).
"""

import math
import sys

import numpy as np
import scipy
import scipy.signal as ss
import scipy.special as sp

import reference_json

EXPECTED_SCIPY = "1.17.1"


def interval(value):
    """A find_peaks interval argument as [low, high], None (null) for an open end; a bare number is the low one."""
    try:
        low, high = value
    except TypeError:
        low, high = value, None
    return [None if low is None else float(low), None if high is None else float(high)]


# MARK: - Peak inputs

# Plateaus of odd and even length, a flat valley, a plateau rising into a higher peak,
# a high first sample and a plateau touching the end (neither is a peak).
PLATEAUS = [1, 0, 2, 2, 1, 3, 3, 3, 0, 4, 4, 4, 4, 2, 2, 5, 5, 6, 1, 7, 7]


def formula_signal(n=32):
    """x[i] = sin(2πi/16) + 0.6·sin(2πi/5.3 + 0.5) + 0.25·cos(2πi/2.7), rounded to 6 decimals.

    The rounded values are both what scipy sees and the stored input, so inputs match exactly.
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


# scipy's property name -> the JSON key (PeakReferenceCase's property).
PROPERTY_NAMES = [
    ("peak_heights", "heights"),
    ("left_thresholds", "leftThresholds"),
    ("right_thresholds", "rightThresholds"),
    ("plateau_sizes", "plateauSizes"),
    ("left_edges", "leftEdges"),
    ("right_edges", "rightEdges"),
    ("prominences", "prominences"),
    ("left_bases", "leftBases"),
    ("right_bases", "rightBases"),
    ("widths", "widths"),
    ("width_heights", "widthHeights"),
    ("left_ips", "leftIntersections"),
    ("right_ips", "rightIntersections"),
]

# MARK: - resample_poly inputs


def poly_signal(n=16):
    """r[n] = sin(2π·0.06·n) + 0.4·cos(2π·0.17·n + 0.3), rounded to 6 decimals (stored exactly)."""
    i = np.arange(n, dtype=float)
    return np.round(np.sin(2 * np.pi * 0.06 * i) + 0.4 * np.cos(2 * np.pi * 0.17 * i + 0.3), 6)


POLY_FACTORS = [(1, 2), (2, 1), (3, 2), (2, 3), (4, 5), (160, 147)]


def main():
    if scipy.__version__ != EXPECTED_SCIPY:
        print(f"warning: scipy {scipy.__version__}, references were made with {EXPECTED_SCIPY}", file=sys.stderr)
    out = {"generator": f"Tools/reference/signal_reference.py with scipy {scipy.__version__}, numpy {np.__version__}"}
    out["plateaus"] = [float(v) for v in PLATEAUS]
    out["ties"] = [float(v) for v in TIES]
    out["tiesMixed"] = [float(v) for v in TIES_MIXED]
    out["formula"] = SIGNALS["formula"]

    out["peakCases"] = []
    for name, signal_name, kwargs in PEAK_CASES:
        x = SIGNALS[signal_name]
        peaks, props = ss.find_peaks(x, **kwargs)
        stable_distance_check(x, kwargs, peaks)
        case = {"name": name, "signal": signal_name}
        for key, label in [("height", "height"), ("threshold", "threshold"), ("distance", "distance"),
                           ("prominence", "prominence"), ("width", "width"), ("wlen", "windowLength")]:
            if key in kwargs:
                case[label] = kwargs[key] if key in ("distance", "wlen") else interval(kwargs[key])
        case["relativeHeight"] = float(kwargs.get("rel_height", 0.5))  # scipy's default rel_height
        if "plateau_size" in kwargs:
            case["plateauSize"] = interval(kwargs["plateau_size"])
        case["indices"] = peaks
        for key, label in PROPERTY_NAMES:  # only those scipy returned
            if key in props:
                case[label] = props[key]
        out["peakCases"].append(case)

    out["polySignal"] = poly_signal()
    out["polyCases"] = [{"up": up, "down": down, "output": ss.resample_poly(poly_signal(), up, down)}
                        for up, down in POLY_FACTORS]
    # resample_poly's filter for max(up, down) = 2, before x up.
    out["firwin41"] = ss.firwin(41, 0.5, window=("kaiser", 5.0))
    out["kaiser9"] = ss.windows.kaiser(9, 5.0)  # symmetric
    i0_args = [0.0, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0]
    out["besselI0Arguments"] = i0_args
    out["besselI0Values"] = sp.i0(i0_args)
    reference_json.write("signal.json", out)


if __name__ == "__main__":
    main()
