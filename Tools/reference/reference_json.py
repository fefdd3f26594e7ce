"""Writes a reference-data JSON file for the Swift tests (shared by the Python generators in this folder).

The layout is jsonlite's `toJSON(pretty = TRUE)`, which the R generators here write (reference_json.R): objects
and lists of containers one item per line, indented by two spaces; lists of numbers or strings on one line. Every
float is written with repr(), which round-trips; NaN and the infinities, which JSON lacks, are the strings "NaN",
"Inf" and "-Inf" (jsonlite's spelling), and Tests/TestSupport/ReferenceData.swift decodes them back.
"""
import json
import math
import pathlib
import sys

try:
    import numpy as np
except ImportError:  # the generators that need no numpy (audiometry_calibration_reference.py) run without it
    np = None

_BOOLS = (bool,) if np is None else (bool, np.bool_)
_INTEGERS = (int,) if np is None else (int, np.integer)
_ARRAYS = () if np is None else (np.ndarray,)

# Tests/SensorSignalTests/Reference/, where the SensorSignal tests read the files (via #filePath); a generator for
# another test target passes its own folder to write().
DEFAULT_DIRECTORY = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "SensorSignalTests" / "Reference"


def number(value, float_format=repr):
    """One JSON number: ints as they are, floats exactly (non-finite ones as jsonlite's strings)."""
    if isinstance(value, _BOOLS):
        return "true" if value else "false"
    if isinstance(value, _INTEGERS):
        return str(int(value))
    value = float(value)
    if math.isnan(value):
        return '"NaN"'
    if math.isinf(value):
        return '"Inf"' if value > 0 else '"-Inf"'
    return float_format(value)


def _scalar(value, float_format):
    if value is None:
        return "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return number(value, float_format)


def dumps(value, float_format=repr, indent=0):
    """`value` (dicts, lists, tuples, numpy arrays, numbers, strings, None) as JSON text in jsonlite's layout."""
    if isinstance(value, _ARRAYS):
        value = value.tolist()
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{pad}  {json.dumps(key)}: {dumps(item, float_format, indent + 1)}' for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if not any(isinstance(item, (dict, list, tuple, *_ARRAYS)) for item in value):
            return "[" + ", ".join(_scalar(item, float_format) for item in value) + "]"
        items = [pad + "  " + dumps(item, float_format, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return _scalar(value, float_format)


def output_directory(default_directory=DEFAULT_DIRECTORY):
    """The folder given as the script's one argument, or `default_directory`."""
    if len(sys.argv) > 2:
        sys.exit(f"usage: {sys.argv[0]} [OUTPUT_DIRECTORY]")
    return pathlib.Path(sys.argv[1]) if len(sys.argv) == 2 else default_directory


def write(name, value, float_format=repr, default_directory=DEFAULT_DIRECTORY):
    """Writes `value` to `name` (e.g. "filters.json") in the output directory (the script's one argument, or
    `default_directory`); prints the path."""
    path = output_directory(default_directory) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(value, float_format) + "\n")
    print("wrote", path)
