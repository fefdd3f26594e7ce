#!/usr/bin/env python3
"""Writes Sources/StudyBatch/ColumnDictionary.tsv from the documentation's tables (issue 20, item 2).

`taskproc batch` writes `columns.csv` (file, column, unit, definition) next to its CSVs; the unit and definition of
each column come from the task's article, read here with the same article map as
Tests/taskprocTests/DocsCoverageTests.swift (which guarantees every emitted column is documented there). The build
compiles the TSV into the binary (Plugins/EmbedColumnDictionary); nothing reads it at run time.

For each CSV kind (the file's base name), every inline-code token of the kind's articles is a candidate, with the
best of (lowest rank first, then first in article order):
  0. the token is the key cell (first cell) of a row of a CSV table (header `column`, or a definition starting
     "CSV") -- e.g. walking's CSV-only `bouts` -- or is named by a "CSV column" cell;
  1. the token is the key cell of any table row;
  2. the token is the last dotted component of a key-cell token (`channels[].rms` documents the CSV column `rms`);
  3. the token is an inline-code span in a list item;
  4. the token is an inline-code span elsewhere in a table row (`levelUnit` in `unit`'s row): the definition is
     then "<that row's key>: <its definition>".
A key cell naming several tokens with as many comma-separated units gives each its own unit (`s, s, %`).
Definitions are the cell text with Markdown stripped to plain text.

Only a token that can be a CSV column's name is written, since `ColumnDictionary.entry` looks up nothing else: a
name without dots (a CSV column is flat; the wide `<sensor>.<axis>.<feature>` columns are looked up in the sensor
sections), not `result_X` (looked up as `X`), with at least one mention (`Mention`) that is
  - named as a column: a CSV row (rank 0), a "CSV column" cell, or "CSV: `x`" in a cell or list item (`unit`'s
    "(CSV: `levelUnit`)"); or
  - a key: the key cell of a table of result keys, scores or columns (first header `key…`, `column…`, `score`,
    `name`, `names`; not one of features, tasks, sensors, options, benchmarks…), or the token a list item starts
    with ("- `dfaTapInter` (after …): …"); not "JSON only"; not an array (`channels[]`), an object (a key whose
    keys follow in its table: `calibration`, `calibration.tables`) or a sub-object with a table of its own
    (`quality`, `hygiene`); no deeper than a sub-object's key (not the keys of `quality.hygiene`).
Words inside a definition (`null`, `count`, `ORKTaskResult`, the other kinds' names) are not written. A token kept
keeps its best mention's entry, whichever mention kept it.

Also written: batch's own columns (kind `*`, docs/batch.md's "`<kind>.csv`" section) and the mhealthtools features
of docs/tremor-balance.md per sensor (kinds `accelerometer`, `gyroscope`), `u` replaced by the sensor's unit from
that article's Inputs table.

The file: `#` comment lines; a section line `[kind kind …]` naming the kinds (CSV base names, `*`, sensors) the rows
after it belong to; rows of token, unit and definition separated by tabs. Each distinct row is written once, in the
section of all the kinds that have it: tremor and balance read the same articles and share one section, the scored
tasks share the rows of "The result", accelerometer and gyroscope the features whose unit is not the sensor's.

Usage: column_dictionary.py [OUTPUT]   (default: the TSV in the repository)
"""
import collections
import os
import re
import sys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = os.path.join(REPOSITORY, "Sources/StudyBatch/ColumnDictionary.tsv")

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
    "steps": [("docs/batch.md", "### `steps.csv`")],
    "taps": [("docs/batch.md", "### `taps.csv`")],
}
for scored in SCORED:
    KINDS[scored] = [(ACTIVE, "## The result"), (ACTIVE, "(`%s`" % scored)]
BATCH = [("docs/batch.md", "### `<kind>.csv`")]
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
DEFINITION_HEADERS = ("definition", "meaning", "what", "criterion", "value")
# Tables whose key cells are keys of a result, scores or CSV columns (first header cell); others list features,
# tasks, sensors, dialects, options, rules, benchmarks, …
SCHEMA_HEADERS = ("key", "column", "score", "name")
NAMED_COLUMN = re.compile(r"CSV: `([^`]+)`")


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


class Mention(collections.namedtuple("Mention", "rank token unit definition named column parent")):
    """One inline-code token of an article, with the rank and definition of the module docstring.

    `named`: the docs name the token as a CSV column (a CSV row, a "CSV column" cell, "CSV: `token`");
    `column`: the token is a key that can be a CSV column -- a key cell of a table of result keys, not "JSON only",
    not an array (`channels[]`) or an object (a key whose own keys are rows of its table: `calibration` above
    `calibration.tables`), no deeper than a sub-object's key; or the token a list item starts with; `parent`: the
    sub-object whose keys the token's table lists (`("quality", "hygiene")` for a table headed
    "key (`quality.hygiene`)"), () for a result's own."""


def entries(lines):
    """Every documented token of the lines, as `Mention`s, in order."""
    found = []
    header = None
    prefixes = {}  # a `prefix` table's statistics (tapping): prefix -> (unit, definition)
    in_item, item = False, []
    table = []  # the key-cell mentions of the current table, with their key paths

    def end_table():
        # a key with keys of its own in the same table (`calibration`, `calibration.tables`) is an object
        paths = {path for _, path in table}
        for at, path in table:
            if any(other[:len(path)] == path and len(other) > len(path) for other in paths):
                found[at] = found[at]._replace(column=False)
        table.clear()

    def flush_item():
        if item:
            text = " ".join(item)
            named = NAMED_COLUMN.findall(text)
            # an item that starts with a token defines it, like a key cell ("- `dfaTapInter` (after …): …")
            body = re.sub(r"^([-*+]|[0-9]+\.) +", "", text)
            subject = spans(body)[0] if body.startswith("`") else None
            for at, raw in enumerate(spans(text)):
                if token(raw):
                    found.append(Mention(3, token(raw), "", plain(text.lstrip("-*+ ")), raw in named,
                                         at == 0 and raw == subject, ()))
            item.clear()

    for line in lines + [""]:
        stripped = line.lstrip(" ")
        if stripped.startswith("|"):
            flush_item()
            in_item = False
            row = cells(stripped)
            if header is None:
                header = [c.lower() for c in row]
                # `key (`quality.hygiene`)`: the table's keys are under that sub-object
                named_parent = spans(row[0])[:1] if row and header[0].startswith("key") else []
                parent = tuple(token(named_parent[0]).split(".")) if named_parent else ()
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
            # a table of result keys, scores or columns, and a key that is not JSON only
            schema = header[0].startswith(SCHEMA_HEADERS) and "JSON only" not in definition
            raws = [raw for raw in spans(key) if token(raw)]
            keys = [token(raw) for raw in raws]
            units = [u.strip() for u in unit.split(",")]
            if header[0] == "prefix":
                for name in keys:
                    prefixes[name] = (plain(unit), definition)
            for i, (raw, name) in enumerate(zip(raws, keys)):
                own = plain(units[i] if len(units) == len(keys) and len(keys) > 1 else unit)
                path = tuple(name.split("."))
                # batch flattens a result's scalars and those of its sub-objects (`soundLevel`, `channels[]`)
                column = schema and len(parent + path) <= 2 and not raw.strip().endswith("[]")
                statistic = next((p for p in sorted(prefixes, key=len, reverse=True)
                                  if header[0] == "names" and name.startswith(p) and name[len(p):][:1].isupper()),
                                 None)
                if statistic is not None:
                    # "each the statistic of its prefix on the series of its suffix, in that series' unit"
                    prefix_unit, prefix_definition = prefixes[statistic]
                    own = own if prefix_unit == "series unit" else prefix_unit
                    found.append(Mention(1, name, own, "%s, of the %s" % (prefix_definition, plain(row[1])),
                                         False, column, parent))
                    continue
                table.append((len(found), path))
                found.append(Mention(0 if csv else 1, name, own, definition, csv, column, parent))
                if "." in name and "<" not in name:
                    found.append(Mention(2, name.split(".")[-1], own, definition, csv, column, parent))
            for at, cell in enumerate(row[1:], start=1):
                if at < len(header) and header[at] == "csv column":
                    # a "CSV column" cell names the key's column
                    for raw in spans(cell):
                        found.append(Mention(0, token(raw), plain(unit), definition, True, False, parent))
                    continue
                named = NAMED_COLUMN.findall(cell)
                for raw in spans(cell):
                    if token(raw) and token(raw) not in keys:
                        found.append(Mention(4, token(raw), "", "%s: %s" % (plain(key), definition), raw in named,
                                             False, parent))
            continue
        end_table()
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
    """token -> (unit, definition): the best entry (of rank at most `worst`) of each token that can be a column.

    A token is kept when it is flat (no dot; not `result_X`, which is looked up as `X`) and some mention of it is
    `named`, or is a `column` and the token names no sub-object with a table of its own (`quality`, `hygiene`,
    `soundLevel`). Its entry is its best mention all the same, column or not (`levelUnit` is named by
    "(CSV: `levelUnit`)" in `unit`'s row, which is also its only definition)."""
    mentions = [m for path, heading in articles for m in entries(section(path, heading))]
    parents = {component for m in mentions for component in m.parent}
    best = {}
    columns = set()
    for m in mentions:
        if not NAME.match(m.token) or not m.definition or m.rank > worst:
            continue
        if "." not in m.token and not m.token.startswith("result_") and (
                m.named or (m.column and m.token not in parents)):
            columns.add(m.token)
        if m.token not in best or m.rank < best[m.token].rank:
            best[m.token] = m
    return {name: (m.unit, m.definition) for name, m in best.items() if name in columns}


def sensor_units():
    """Sensor -> unit, from tremor-balance.md's Inputs table."""
    units = {}
    for m in entries(section("docs/tremor-balance.md", "## Inputs")):
        if m.rank == 1:
            units[m.token] = m.unit
    return units


def features():
    """The mhealthtools feature rows of tremor-balance.md ("The features of one axis")."""
    lines = section("docs/tremor-balance.md", "## The features of one axis")
    return {m.token: (m.unit, m.definition) for m in entries(lines) if m.rank == 1}


def substitute(unit, sensor_unit):
    if unit == "u":
        return sensor_unit
    if unit == "u²":
        return ("(%s)²" if "/" in sensor_unit else "%s²") % sensor_unit
    return unit


def sections():
    """[(kinds, [(token, unit, definition)])]: each distinct row once, in the section of every kind that has it
    (tremor and balance read the same articles and share all their rows; the scored tasks share the rows of "The
    result"; accelerometer and gyroscope the features whose unit is not the sensor's), sections by kinds."""
    kinds_of = collections.defaultdict(list)  # row -> the kinds that have it
    for name, (unit, definition) in dictionary(BATCH, worst=1).items():
        kinds_of[(name, unit or "—", definition)].append("*")
    for kind in sorted(KINDS):
        for name, (unit, definition) in dictionary(KINDS[kind]).items():
            kinds_of[(name, unit, definition)].append(kind)
    feature_rows = features()
    for sensor, sensor_unit in sorted(sensor_units().items()):
        for name, (unit, definition) in feature_rows.items():
            kinds_of[(name, substitute(unit, sensor_unit), definition)].append(sensor)
    rows_of = collections.defaultdict(list)  # kinds -> their rows
    for row, kinds in kinds_of.items():
        rows_of[tuple(kinds)].append(tuple(" ".join(field.split("\t")) for field in row))
    return [(list(kinds), sorted(rows_of[kinds])) for kinds in sorted(rows_of)]


def tsv(sections_):
    lines = [
        "# GENERATED by Tools/reference/column_dictionary.py from the tables of docs/*.md -- do not edit.",
        "# Re-run `python3 Tools/reference/column_dictionary.py` after changing the documentation;",
        "# ColumnDictionaryTests fails while this file and the documentation disagree.",
        "# [kinds]: the CSV kinds (file base names; * for batch's own columns; accelerometer and gyroscope for the",
        "# features of <sensor>.<axis>.<feature>) whose columns the rows below define, each row once.",
        "# Rows: token, unit, definition, separated by tabs.",
    ]
    for kinds, rows_ in sections_:
        lines.append("[%s]" % " ".join(kinds))
        lines += ["\t".join(row) for row in rows_]
    return "\n".join(lines) + "\n"


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else TARGET
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(tsv(sections()))


if __name__ == "__main__":
    main()
