#!/usr/bin/env python3
"""Writes Tests/ActiveTasksTests/Audiometry/Reference/audiometry_calibration.json: dB HL calibration values for
AudiometryCalibrationTests, computed from the spec text alone.

Usage (from anywhere; the one argument, a folder to write into instead, is for checking):
    python3 Tools/reference/audiometry_calibration_reference.py [OUTPUT_DIRECTORY]

Reads the calibration tables of researchkit-formats.md §4.6–4.7 (../shared/spec/ beside the repository) straight
from the markdown, not from taskproc's Swift transcription, re-implements the headphone → table rules per
ResearchKit release and computes with exact decimal arithmetic. Only the Python standard library.

Every value is a decimal string (the tests read it with `Decimal(string:)`), written as the shortest plain
decimal that denotes it ("86.3", "-0.5", "0"). Per case, `r`, `s`, `ceiling` and `attenuation30` hold one value per
entry of `frequencies`. The JSON layout is reference_json.py's.
"""
import pathlib
from decimal import Decimal

import reference_json

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
SPEC = REPOSITORY.parent / "shared" / "spec" / "researchkit-formats.md"
# Tests/ActiveTasksTests/Audiometry/Reference/, beside AudiometryCalibrationReference.swift, which reads the file
# from its own folder (via #filePath).
DEFAULT_DIRECTORY = REPOSITORY / "Tests" / "ActiveTasksTests" / "Audiometry" / "Reference"

TYPES = ["AIRPODS", "AIRPODSV1", "AIRPODSV2", "AIRPODSV3", "AIRPODSPRO", "AIRPODSPROV2", "AIRPODSMAX", "EARPODS",
         "UNKNOWN", "airpodsprov2", "FOO"]
VERSIONS = [(2, 0, 0), (2, 2, 0), (3, 0, 0), (3, 1, 0), (3, 2, 0)]


def table_after(text, heading):
    """Rows (lists of cell strings) of the first markdown table after the line starting with `heading`."""
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


def keyed(rows):
    header = rows[0]
    return header, {r[0]: r[1:] for r in rows[1:]}


def tables(t, v, retspl):
    """(suffix, curve) per the §4.6 'Headphone type → files' table and its notes, or None (exception)."""
    t = t.upper()
    if v < (2, 2, 0):
        # RK 2.0.0: uppercased string as suffix; AIRPODS → AIRPODS curve, anything else WIRED.
        # (AIRPODSV2 files only exist from 3.2.0.)
        if t in retspl and t != "AIRPODSV2":
            return t, ("AIRPODS" if t == "AIRPODS" else "WIRED")
        return None
    m = {"AIRPODSV1": ("AIRPODS", "AIRPODS"),
         "AIRPODSV2": ("AIRPODSV2", "AIRPODSV2") if v >= (3, 2, 0) else ("AIRPODS", "AIRPODS"),
         "AIRPODSV3": ("AIRPODSV3", "AIRPODSV3"), "AIRPODSPRO": ("AIRPODSPRO", "AIRPODSPRO"),
         "AIRPODSPROV2": None if v[:2] == (3, 0) else ("AIRPODSPROV2", "AIRPODSPROV2"),
         "AIRPODSMAX": ("AIRPODSMAX", "AIRPODSMAX"), "EARPODS": ("EARPODS", "WIRED")}
    return m.get(t)


def decimal_text(d):
    """The shortest plain decimal that denotes `d` ("86.3", "-57.97", "0")."""
    return format(d.normalize(), "f") if d != 0 else "0"


def main():
    text = SPEC.read_text(encoding="utf-8")
    freq_header, retspl = keyed(table_after(text, "**retspl_<TYPE>.plist"))
    _, sens = keyed(table_after(text, "**frequency_dBSPL_<TYPE>.plist"))
    vol_rows = table_after(text, "**volume_curve_<NAME>.plist")
    curve_names = vol_rows[0][1:]
    curves = {name: {} for name in curve_names}
    for r in vol_rows[1:]:
        for name, value in zip(curve_names, r[1:]):
            curves[name][r[0]] = Decimal(value)
    derived_rows = table_after(text, "**Derived: clipping ceiling")
    frequencies = [int(f) for f in freq_header[1:]]
    # §4.6 "RETSPL history": every retspl file held the AIRPODS values up to 3.1.x.
    generic = retspl["AIRPODS"]

    out = {"generator": "Tools/reference/audiometry_calibration_reference.py from researchkit-formats.md §4.6–4.7"}
    out["frequencies"] = frequencies
    cases = []
    for v in VERSIONS:
        for t in TYPES:
            case = {"version": "%d.%d.%d" % v, "type": t}
            sel = tables(t, v, retspl)
            if sel is None:  # ResearchKit throws for the type
                cases.append(case | {"suffix": None, "curve": None, "r": [], "s": [], "ceiling": [],
                                     "attenuation30": []})
                continue
            suffix, curve = sel
            rrow = retspl[suffix] if v >= (3, 2, 0) else generic
            columns = {"r": [], "s": [], "ceiling": [], "attenuation30": []}
            for i, _ in enumerate(frequencies):
                r = Decimal(rrow[i])
                s = Decimal(sens[suffix][i])
                v1 = curves[curve]["1.0000"]
                ceiling = s + v1 + 30 - 1 - r
                att = (r + 30) - (s + v1 + 30)
                for key, value in zip(columns, (r, s, ceiling, att)):
                    columns[key].append(decimal_text(value))
            cases.append(case | {"suffix": suffix, "curve": curve} | columns)
    out["cases"] = cases
    # Volume-curve offsets, dB, per curve at the 16 keys 0.0625 … 1.0000.
    out["volumeCurves"] = {name: [decimal_text(curves[name]["%.4f" % (k / 16)]) for k in range(1, 17)]
                           for name in curve_names}
    # The spec's own derived clipping-ceiling table (HEAD), headphone row label → 11 values, dB HL, as printed.
    out["derivedCeilings"] = {r[0].split(" ")[0]: r[1:] for r in derived_rows[1:]}
    reference_json.write("audiometry_calibration.json", out, default_directory=DEFAULT_DIRECTORY)
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
