#!/usr/bin/env python3
"""Read every per-kind CSV of a taskproc batch output with DuckDB, using the types columns.csv declares.

Usage: duckdb_types.py OUT     (sets up DuckDB from PyPI, pinned, in .build/duckdb-venv on first use;
                               TASKPROC_DUCKDB_VENV overrides the folder)

For each file of OUT/columns.csv, DuckDB's read_csv gets the declared type of every column (integer BIGINT, real
DOUBLE, boolean BOOLEAN, timestamp TIMESTAMPTZ, text VARCHAR; a blank cell is NULL) with type detection off, reads
every column of every row, and averages every real column (`avg(cadence)` fails on a column DuckDB reads as text). Prints one line
per file; exits 1 naming each file DuckDB could not read with its types.
"""
import csv
import os
import subprocess
import sys

from reference_venv import ensure_venv

PACKAGE = "duckdb==2.0.1"

TYPES = {"integer": "BIGINT", "real": "DOUBLE", "boolean": "BOOLEAN", "timestamp": "TIMESTAMPTZ", "text": "VARCHAR"}


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def main():
    import duckdb  # noqa: imported inside the venv
    out = sys.argv[1]
    files = {}
    with open(os.path.join(out, "columns.csv"), newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            files.setdefault(row["file"], []).append((row["column"], row["type"]))
    con = duckdb.connect()
    failed = 0
    for name, columns in sorted(files.items()):
        path = os.path.join(out, name)
        spec = "{" + ", ".join("'%s': '%s'" % (c.replace("'", "''"), TYPES[t]) for c, t in columns) + "}"
        reals = [c for c, t in columns if t == "real"]
        # every column is used (DuckDB casts only the columns a query reads), and every real one averaged
        averages = ", ".join(["count(%s)" % quote(c) for c, _ in columns] + ["avg(%s)" % quote(c) for c in reals])
        sql = ("SELECT count(*), %s FROM read_csv('%s', header = true, auto_detect = false, columns = %s, "
               "quote = '\"', escape = '\"', nullstr = '')" % (averages, path.replace("'", "''"), spec))
        try:
            rows = con.execute(sql).fetchone()[0]
            print("%s: %d rows, %d columns (%d real) read with their types" % (name, rows, len(columns), len(reals)))
        except duckdb.Error as error:
            failed += 1
            print("%s: DuckDB cannot read it with the declared types: %s" % (name, str(error).splitlines()[0]))
    print("duckdb_types: %d files, %d failed (duckdb %s)" % (len(files), failed, duckdb.__version__))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if os.environ.get("TASKPROC_DUCKDB_IN_VENV") != "1":
        python = os.path.join(ensure_venv(PACKAGE, "duckdb-venv", "TASKPROC_DUCKDB_VENV"), "bin", "python")
        env = dict(os.environ, TASKPROC_DUCKDB_IN_VENV="1")
        sys.exit(subprocess.run([python, os.path.abspath(__file__)] + sys.argv[1:], env=env).returncode)
    main()
