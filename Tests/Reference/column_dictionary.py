#!/usr/bin/env python3
"""Writes Sources/StudyBatch/ColumnDictionary.swift from the documentation's tables (issue 20, item 2).

`taskproc batch` writes `columns.csv` (file, column, unit, definition) next to its CSVs; the unit and definition of
each column come from the task's article, read here with the same article map as
Tests/taskprocTests/DocsCoverageTests.swift (which guarantees every emitted column is documented there).

For each CSV kind (the file's base name), every inline-code token of the kind's articles gets one entry, the best
of (lowest rank first, then first in article order):
  0. the token is the key cell (first cell) of a row of a CSV table (header `column`, or a definition starting
     "CSV") -- e.g. walking's CSV-only `bouts`;
  1. the token is the key cell of any table row;
  2. the token is the last dotted component of a key-cell token (`channels[].rms` documents the CSV column `rms`);
  3. the token is an inline-code span elsewhere in a table row or a list item (`levelUnit` in `unit`'s row): the
     definition is then "<that row's key>: <its definition>".
A key cell naming several tokens with as many comma-separated units gives each its own unit (`s, s, %`).
Definitions are the cell text with Markdown stripped to plain text. Also written: batch's own columns (kind `*`,
docs/batch.md's "`<kind>.csv`" section) and the mhealthtools features of docs/tremor-balance.md per sensor (kinds
`accelerometer`, `gyroscope`), `u` replaced by the sensor's unit from that article's Inputs table.

Usage: column_dictionary.py [OUTPUT]   (default: the Swift file in the repository)
"""
import os
import re
import sys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = os.path.join(REPOSITORY, "Sources/StudyBatch/ColumnDictionary.swift")

ACTIVE = "docs/active-tasks.md"
TREMOR = ("docs/tremor-balance.md", None)
MOTION = [("docs/tremor-balance.md", "## Which recordings are tremor, balance or rest"), TREMOR,
          ("docs/quality.md", None)]
SCORED = ["stroop", "trailMaking", "psat", "spatialSpanMemory", "towerOfHanoi", "holePeg", "rangeOfMotion",
          "accuracyStroop", "reactionTime", "normalizedReactionTime", "speechRecognition", "speechInNoise",
          "amslerGrid", "modelSelection"]
# CSV kind -> its articles (file, heading or None), as DocsCoverageTests.articles(_:) (+ the shared sub-objects).
KINDS = {
    "walking": [("docs/walking.md", None), ("docs/quality.md", None)],
    "tremor": MOTION,
    "balance": MOTION,
    "audio": [("docs/audio.md", "## `taskproc analyze` on an audio file"),
              ("docs/audio.md", "## Sound level metering")],
    "environmentSPLMeter": [("docs/audio.md", "## Sound level metering")],
    "dBHLToneAudiometry": [("docs/audiometry.md", None)],
    "toneAudiometry": [("docs/audiometry.md", None)],
    "tapping": [("docs/tapping.md", None)],
    "survey": [("docs/surveys.md", None)],
}
for scored in SCORED:
    KINDS[scored] = [(ACTIVE, "## The result"), (ACTIVE, "(`%s`" % scored)]
BATCH = [("docs/batch.md", "### `<kind>.csv`")]
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
DEFINITION_HEADERS = ("definition", "meaning", "what", "criterion", "value")


def section(path, heading):
    """The lines of a Markdown file (or of its section under `heading`), fenced code blocks removed."""
    with open(os.path.join(REPOSITORY, path), encoding="utf-8") as f:
        text = f.read()
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)

    def level(line):
        hashes = len(line) - len(line.lstrip("#"))
        return hashes if hashes and line[hashes:hashes + 1] == " " else None

    if heading is None:
        return lines
    start = next((i for i, l in enumerate(lines) if level(l) and heading in l), None)
    if start is None:
        sys.exit("column_dictionary.py: %s has no heading containing %r" % (path, heading))
    end = start + 1
    while end < len(lines) and (level(lines[end]) is None or level(lines[end]) > level(lines[start])):
        end += 1
    return lines[start:end]


def cells(row):
    """The cells of a table row, `\\|` kept inside a cell."""
    parts = re.split(r"(?<!\\)\|", row.strip())
    return [c.strip() for c in parts[1:-1]] if row.strip().endswith("|") else [c.strip() for c in parts[1:]]


def spans(text):
    parts = text.split("`")
    return [p for p in parts[1:-1:2]]


def token(raw):
    return raw.replace("[]", "").strip()


def plain(text):
    """Markdown to plain text: code spans, emphasis, links and escapes removed."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("\\|", "|").replace("`", "")
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?!\w)", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def entries(lines):
    """(rank, token, unit, definition) for every documented token of the lines, in order."""
    found = []
    header = None
    prefixes = {}  # a `prefix` table's statistics (tapping): prefix -> (unit, definition)
    in_item, item = False, []

    def flush_item():
        if item:
            text = " ".join(item)
            for raw in spans(text):
                if token(raw):
                    found.append((3, token(raw), "", plain(text.lstrip("-*+ "))))
            item.clear()

    for line in lines + [""]:
        stripped = line.lstrip(" ")
        if stripped.startswith("|"):
            flush_item()
            in_item = False
            row = cells(stripped)
            if header is None:
                header = [c.lower() for c in row]
                continue
            if all(re.fullmatch(r":?-+:?", c) for c in row if c):
                continue
            unit_at = next((i for i, h in enumerate(header) if h.startswith("unit")), None)
            define_at = next((i for i, h in enumerate(header) if h.startswith(DEFINITION_HEADERS) and i > 0), None)
            if define_at is None:
                define_at = next((i for i in range(len(header) - 1, 0, -1) if i != unit_at), None)
            if len(row) > len(header):
                print("column_dictionary.py: %d cells under a %d-column header (an unescaped |?): %s"
                      % (len(row), len(header), stripped[:100]), file=sys.stderr)
            key = row[0] if row else ""
            unit = row[unit_at] if unit_at is not None and unit_at < len(row) else ""
            if unit_at is not None and not unit.strip():
                unit = "—"  # a table with a unit column leaves it empty for a value without unit
            definition = row[define_at] if define_at is not None and define_at < len(row) else ""
            definition = plain(definition)
            csv = header[0].startswith("column") or definition.startswith("CSV")
            keys = [token(s) for s in spans(key) if token(s)]
            units = [u.strip() for u in unit.split(",")]
            if header[0] == "prefix":
                for name in keys:
                    prefixes[name] = (plain(unit), definition)
            for i, name in enumerate(keys):
                own = plain(units[i] if len(units) == len(keys) and len(keys) > 1 else unit)
                statistic = next((p for p in sorted(prefixes, key=len, reverse=True)
                                  if header[0] == "names" and name.startswith(p) and name[len(p):][:1].isupper()),
                                 None)
                if statistic is not None:
                    # "each the statistic of its prefix on the series of its suffix, in that series' unit"
                    prefix_unit, prefix_definition = prefixes[statistic]
                    own = own if prefix_unit == "series unit" else prefix_unit
                    found.append((1, name, own, "%s, of the %s" % (prefix_definition, plain(row[1]))))
                    continue
                found.append((0 if csv else 1, name, own, definition))
                if "." in name and "<" not in name:
                    found.append((2, name.split(".")[-1], own, definition))
            for at, cell in enumerate(row[1:], start=1):
                if at < len(header) and header[at] == "csv column":
                    # a "CSV column" cell names the key's column
                    for raw in spans(cell):
                        found.append((0, token(raw), plain(unit), definition))
                    continue
                for raw in spans(cell):
                    if token(raw) and token(raw) not in keys:
                        found.append((4, token(raw), "", "%s: %s" % (plain(key), definition)))
            continue
        header = None
        is_item = re.match(r"([-*+]|[0-9]+\.) ", stripped) is not None
        if not stripped or re.match(r"#+ ", line):
            flush_item()
            in_item = False
        elif is_item:
            flush_item()
            in_item = True
            item.append(stripped)
        elif in_item and len(stripped) < len(line):
            item.append(stripped)
        else:
            flush_item()
            in_item = False
    return found


def dictionary(articles, worst=4):
    """token -> (unit, definition): the best entry of each token (of rank at most `worst`)."""
    best = {}
    order = 0
    for path, heading in articles:
        for rank, name, unit, definition in entries(section(path, heading)):
            order += 1
            if not NAME.match(name) or not definition or rank > worst:
                continue
            if name not in best or (rank, 0) < (best[name][0], 0):
                best[name] = (rank, order, unit, definition)
    return {name: (v[2], v[3]) for name, v in best.items()}


def sensor_units():
    """Sensor -> unit, from tremor-balance.md's Inputs table."""
    units = {}
    for rank, name, unit, _ in entries(section("docs/tremor-balance.md", "## Inputs")):
        if rank == 1:
            units[name] = unit
    return units


def features():
    """The mhealthtools feature rows of tremor-balance.md ("The features of one axis")."""
    lines = section("docs/tremor-balance.md", "## The features of one axis")
    return {name: (unit, definition) for rank, name, unit, definition in entries(lines) if rank == 1}


def substitute(unit, sensor_unit):
    if unit == "u":
        return sensor_unit
    if unit == "u²":
        return ("(%s)²" if "/" in sensor_unit else "%s²") % sensor_unit
    return unit


def rows():
    out = []
    for name, (unit, definition) in sorted(dictionary(BATCH, worst=1).items()):
        out.append(("*", name, unit or "—", definition))
    for kind in sorted(KINDS):
        for name, (unit, definition) in sorted(dictionary(KINDS[kind]).items()):
            out.append((kind, name, unit, definition))
    feature_rows = features()
    for sensor, sensor_unit in sorted(sensor_units().items()):
        for name, (unit, definition) in sorted(feature_rows.items()):
            out.append((sensor, name, substitute(unit, sensor_unit), definition))
    return out


def swift(rows_):
    body = "\n".join("        " + "\t".join(field.replace("\t", " ") for field in row) for row in rows_)
    hashes = "#"
    while ('"""' + hashes) in body or ("\\" + hashes) in body:
        hashes += "#"
    return (
        "// GENERATED by Tests/Reference/column_dictionary.py from the tables of docs/*.md -- do not edit.\n"
        "// Re-run `python3 Tests/Reference/column_dictionary.py` after changing the documentation;\n"
        "// ColumnDictionaryTests fails while this file and the documentation disagree.\n\n"
        "extension ColumnDictionary {\n"
        "    /// One line per documented token: kind (`*` for batch's own columns, `accelerometer`/`gyroscope` for the\n"
        "    /// mhealthtools features), token, unit and definition, separated by tabs.\n"
        "    static let table = %s\"\"\"\n%s\n        \"\"\"%s\n}\n" % (hashes, body, hashes)
    )


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else TARGET
    with open(target, "w", encoding="utf-8") as f:
        f.write(swift(rows()))


if __name__ == "__main__":
    main()
