#!/usr/bin/env python3
"""Recompute taskproc batch's study tables from the per-kind CSVs, with the Python standard library only.

Usage: check_study_tables.py OUT [--participant P --date D]

For every row of OUT/participant_day.csv (or only those of participant P on date D), the rows of OUT/<kind>.csv of
that participant and date are read again and the row's records, n, excluded, median, quartiles, mean, min and max
are recomputed by the rule docs/batch.md gives ("Study tables"): one value per record and stratum (the mean of the
record's rows), rows with flag_implausible true left out, quantiles by linear interpolation (statistics.quantiles
with method="inclusive", which is R's type 7). Also checks that OUT/surveys_wide.csv has one row per survey task
run of OUT/survey.csv and that every adherence week lies between the participant's first and last week.

Prints the number of rows checked; exits 1 listing each difference.
"""
import argparse
import csv
import functools
import os
import statistics
import sys

# measures whose unit is the row's cell in a column (docs/batch.md, "Study tables")
UNIT_COLUMNS = {("audio", "LAeq"): "levelUnit", ("audio", "LA90"): "levelUnit",
                ("tremor", "magnitudeSD"): "accelerationUnit", ("balance", "magnitudeSD"): "accelerationUnit"}
FIELDS = ["records", "n", "excluded", "median", "q1", "q3", "iqr", "mean", "min", "max"]


@functools.lru_cache(maxsize=None)
def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def summary(values):
    if not values:
        return ["", "", "", "", "", "", ""]
    values = sorted(values)
    if len(values) == 1:
        q1 = median = q3 = values[0]
    else:
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return [median, q1, q3, q3 - q1, statistics.fmean(values), values[0], values[-1]]


def recompute(out, row):
    kind, measure, stratum = row["kind"], row["measure"], row["stratum"]
    by = [part.split("=", 1)[0] for part in stratum.split(" ")] if stratum else []
    rows = [r for r in read(os.path.join(out, kind + ".csv"))
            if r["participant"] == row["participant"] and r["date"] == row["date"]
            and r["status"] in ("ok", "partial")]
    records = {}
    for r in rows:
        if " ".join(b + "=" + r[b] for b in by) != stratum:
            continue
        unit = r.get(UNIT_COLUMNS.get((kind, measure), ""))
        if unit and unit != row["unit"]:
            continue
        rec = records.setdefault(r["recordSource"], {"values": [], "excluded": 0})
        try:
            value = float(r[measure])
        except ValueError:
            continue
        if value != value or value in (float("inf"), float("-inf")):
            continue
        if r["flag_implausible"] == "true":
            rec["excluded"] += 1
        else:
            rec["values"].append(value)
    values = [statistics.fmean(r["values"]) for r in records.values() if r["values"]]
    excluded = sum(1 for r in records.values() if not r["values"] and r["excluded"])
    return [len(records), len(values), excluded] + summary(values)


def close(a, b):
    if a == "" or b == "":
        return a == b
    a, b = float(a), float(b)
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--participant")
    p.add_argument("--date")
    args = p.parse_args()
    problems = []
    checked = 0
    for row in read(os.path.join(args.out, "participant_day.csv")):
        if args.participant is not None and (row["participant"], row["date"]) != (args.participant, args.date):
            continue
        expected = recompute(args.out, row)
        for field, want in zip(FIELDS, expected):
            if not close(row[field], "" if want == "" else repr(float(want))):
                problems.append("%s %s %s %s [%s] %s: table %s, recomputed %s" % (
                    row["participant"], row["date"], row["kind"], row["measure"], row["stratum"], field,
                    row[field], want))
        checked += 1
    if os.path.exists(os.path.join(args.out, "survey.csv")):
        runs = {(r["recordSource"], r["result_taskRunUUID"] or r["taskRunUUID"])
                for r in read(os.path.join(args.out, "survey.csv")) if r["status"] in ("ok", "partial")
                and r["questionIdentifier"]}
        wide = read(os.path.join(args.out, "surveys_wide.csv"))
        if len(wide) != len(runs):
            problems.append("surveys_wide.csv has %d rows for %d survey runs" % (len(wide), len(runs)))
    weeks = {}
    for r in read(os.path.join(args.out, "adherence.csv")):
        if r["week"]:
            weeks.setdefault(r["participant"], []).append((r["week"], int(r["runs"])))
    for participant, rows in weeks.items():
        ran = sorted(w for w, n in rows if n > 0)
        if not ran or any(not (ran[0] <= w <= ran[-1]) for w, _ in rows):
            problems.append("adherence.csv: %s has a week outside its runs" % participant)
    if args.participant is not None and checked == 0:
        problems.append("no participant_day.csv row of %s on %s" % (args.participant, args.date))
    for line in problems:
        print(line)
    print("check_study_tables: %d participant-day rows recomputed, %d differences" % (checked, len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
