#!/usr/bin/env python3
"""taskproc tapping features vs Sage Bionetworks' mhealthtools (R), on the same records.

    python3 Tools/peers/tapping.py --mhealthtools DIR [--records N] [--repeats N] [--no-build]
                                          [--taskproc PATH] [--no-install]

DIR is a checkout of github.com/Sage-Bionetworks/mhealthtools (commit 4340b82, Apache-2.0) or the folder holding
its R/utils.R and R/get_tapping_features.R; the environment variable MHEALTHTOOLS_DIR works too. Those two files
are sourced by R at run time; none of their code is copied into this repository.

R: Debian `r-base-core r-cran-dplyr r-cran-e1071 r-cran-jsonlite` (installed with apt-get when missing and we are
root, unless --no-install). This is all mhealthtools' tapping code needs (its walking code needs seewave, signal and
EMD, which Debian does not package).

Records (identical for both tools): the two shared samples (../shared/data/mpower-samples/mhealthtools_tap_data.csv
and pdkit_mpower_finger_tapping.json) plus N derived 180-tap records: the first 180 taps of mhealthtools' tap_data
with, per record, seeded jitter of the locations (uniform ±3 points) and of the timestamps (×(1 ± 10 %) plus uniform
±5 ms), written as `t,x,y,buttonid` CSV tables. R reads each with read.csv (the JSON with jsonlite) and calls
get_tapping_features(); taskproc reads the same files.

Agreement: every one of the 42 features (and error) of every record, relative difference ≤ 1e-9, NA in R ⇔ empty
in taskproc's CSV.

Timing (median of --repeats):
  R         get_tapping_features() alone on data frames already loaded in one warm R process, per record
            (the spec's 32 ms anchor measures the same call).
  taskproc  the whole CLI `taskproc analyze RECORDS_DIR --format csv` over every record in one process (start,
            reading and parsing every file, analysis, CSV output), divided by the record count: an upper bound on
            its per-record cost; also `taskproc inspect RECORDS_DIR` (reading and parsing only) to show how much of
            it is file loading. The in-process figure is Benchmarks/Benchmarks/TappingBenchmarks.

Writes Tools/peers/TAPPING.md and prints the same tables.
"""
from __future__ import annotations

import argparse
import csv
import datetime as _dt
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = REPO.parent / "shared" / "data"
TAP_TABLE = DATA / "mpower-samples" / "mhealthtools_tap_data.csv"
PDKIT_JSON = DATA / "mpower-samples" / "pdkit_mpower_finger_tapping.json"
R_PACKAGES = ["r-base-core", "r-cran-dplyr", "r-cran-e1071", "r-cran-jsonlite"]

FEATURES = (
    [p + "TapInter" for p in ["mean", "median", "iqr", "min", "max", "skew", "kur", "sd", "mad", "cv", "range",
                              "tkeo", "ar1", "ar2", "fatigue10", "fatigue25", "fatigue50"]]
    + [p + side for side in ["DriftLeft", "DriftRight"]
       for p in ["mean", "median", "iqr", "min", "max", "skew", "kur", "sd", "mad", "cv", "range"]]
    + ["numberTaps", "buttonNoneFreq", "corXY"]
)

R_SCRIPT = r"""
suppressPackageStartupMessages({ library(dplyr); library(jsonlite) })
options(warn = -1)
args <- commandArgs(trailingOnly = TRUE)
rdir <- args[1]; listing <- args[2]; out <- args[3]; repeats <- as.integer(args[4])
source(file.path(rdir, "utils.R")); source(file.path(rdir, "get_tapping_features.R"))
files <- readLines(listing)
load_one <- function(path) {
  if (grepl("\\.json$", path)) {
    j <- fromJSON(path)
    xy <- do.call(rbind, lapply(strsplit(gsub("[{}]", "", j$TapCoordinate), ", "), as.numeric))
    data.frame(t = j$TapTimeStamp, x = xy[, 1], y = xy[, 2], buttonid = j$TappedButtonId, stringsAsFactors = FALSE)
  } else read.csv(path, stringsAsFactors = FALSE)
}
frames <- lapply(files, load_one)
invisible(get_tapping_features(frames[[1]]))  # warm-up (dplyr dispatch, byte compilation)
times <- matrix(NA_real_, length(files), repeats)
results <- vector("list", length(files))
for (r in seq_len(repeats)) for (i in seq_along(files)) {
  t0 <- proc.time()[["elapsed"]]
  f <- get_tapping_features(frames[[i]])
  times[i, r] <- proc.time()[["elapsed"]] - t0
  results[[i]] <- f
}
# elapsed has 1 ms resolution: also time the whole loop once more to get a precise mean per record
t0 <- proc.time()[["elapsed"]]
for (i in seq_along(files)) invisible(get_tapping_features(frames[[i]]))
loop <- (proc.time()[["elapsed"]] - t0) / length(files)
fmt <- function(v) { if (is.null(v) || length(v) == 0 || is.na(v)) "NA" else if (is.character(v)) v else sprintf("%.17g", v) }
cols <- strsplit(args[5], ",")[[1]]
con <- file(out, "w")
writeLines(paste(c("file", cols, "error", "seconds_median", "loop_mean"), collapse = "\t"), con)
for (i in seq_along(files)) {
  f <- results[[i]]
  vals <- vapply(cols, function(c) if (c %in% names(f)) fmt(f[[c]]) else "NA", "")
  writeLines(paste(c(files[i], vals, as.character(f$error), sprintf("%.6f", median(times[i, ])), sprintf("%.6f", loop)),
                   collapse = "\t"), con)
}
close(con)
"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def ensure_r(install: bool) -> str:
    """Returns the R version line, installing the Debian packages when missing (and allowed)."""
    probe = "suppressPackageStartupMessages({library(dplyr); library(e1071); library(jsonlite)})"
    ok = shutil.which("Rscript") and subprocess.run(["Rscript", "-e", probe], capture_output=True).returncode == 0
    if not ok:
        if not install or os.geteuid() != 0:
            raise SystemExit("R with dplyr, e1071 and jsonlite is missing: apt-get install -y " + " ".join(R_PACKAGES))
        log("installing " + " ".join(R_PACKAGES) + " with apt-get…")
        subprocess.run(["apt-get", "update"], check=True, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends"] + R_PACKAGES, check=True,
                       capture_output=True)
    versions = subprocess.run(
        ["Rscript", "-e", 'cat(R.version.string, "; dplyr", as.character(packageVersion("dplyr")), "; e1071",'
                          ' as.character(packageVersion("e1071")))'], capture_output=True, text=True)
    return versions.stdout.strip()


def mhealthtools_r_dir(arg: str | None) -> Path:
    root = arg or os.environ.get("MHEALTHTOOLS_DIR")
    if not root:
        raise SystemExit("give --mhealthtools DIR (a checkout of Sage-Bionetworks/mhealthtools, or its R/ folder)")
    for candidate in [Path(root) / "R", Path(root)]:
        if (candidate / "utils.R").exists() and (candidate / "get_tapping_features.R").exists():
            return candidate
    raise SystemExit(f"{root}: no utils.R and get_tapping_features.R (in it or its R/ folder)")


def make_records(folder: Path, count: int) -> list[Path]:
    """The shared samples plus `count` jittered 180-tap copies of tap_data (seeded)."""
    with TAP_TABLE.open() as f:
        rows = list(csv.DictReader(f))[:180]
    files = [folder / "mhealthtools_tap_data.csv", folder / "pdkit_mpower_finger_tapping.json"]
    shutil.copy(TAP_TABLE, files[0])
    shutil.copy(PDKIT_JSON, files[1])
    rng = random.Random(20240502)
    for k in range(count):
        scale = 1 + rng.uniform(-0.1, 0.1)
        path = folder / f"record_{k:04d}.csv"
        with path.open("w") as f:
            f.write('"t","x","y","buttonid"\n')
            for r in rows:
                t = max(0.0, float(r["t"]) * scale + rng.uniform(-0.005, 0.005))
                x = float(r["x"]) + rng.uniform(-3, 3)
                y = float(r["y"]) + rng.uniform(-3, 3)
                f.write(f'{t!r},{x!r},{y!r},"{r["buttonid"]}"\n')
        files.append(path)
    return files


def taskproc_binary(args) -> Path:
    if args.taskproc:
        return Path(args.taskproc)
    exe = REPO / ".build" / "release" / "taskproc"
    if not args.no_build:
        log("building taskproc (swift build -c release --product taskproc)…")
        r = subprocess.run(["swift", "build", "-c", "release", "--product", "taskproc"], cwd=REPO,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("swift build failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    if not exe.exists():
        raise SystemExit(f"{exe} missing; run without --no-build or give --taskproc")
    return exe


def agrees(r: str, t: str) -> bool:
    if r in ("NA", "NaN", "Inf", "-Inf"):
        return t == ""
    if t == "":
        return False
    a, b = float(r), float(t)
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), 1e-300)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mhealthtools", help="mhealthtools checkout (or its R/ folder); default $MHEALTHTOOLS_DIR")
    ap.add_argument("--records", type=int, default=200, help="derived 180-tap records (default 200)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-build", action="store_true", help="use .build/release/taskproc as it is")
    ap.add_argument("--taskproc", help="use this taskproc binary (implies --no-build)")
    ap.add_argument("--no-install", action="store_true", help="never apt-get install R packages")
    args = ap.parse_args()

    rdir = mhealthtools_r_dir(args.mhealthtools)
    r_version = ensure_r(not args.no_install)
    exe = taskproc_binary(args)

    with tempfile.TemporaryDirectory(prefix="taskproc-tapping-") as tmp:
        tmp = Path(tmp)
        records = tmp / "records"
        records.mkdir()
        files = make_records(records, args.records)
        listing = tmp / "files.txt"
        listing.write_text("\n".join(str(f) for f in files) + "\n")
        script = tmp / "mh.R"
        script.write_text(R_SCRIPT)
        r_out = tmp / "r.tsv"
        log(f"R: get_tapping_features on {len(files)} records × {args.repeats}…")
        subprocess.run(["Rscript", str(script), str(rdir), str(listing), str(r_out), str(args.repeats),
                        ",".join(FEATURES)], check=True)
        with r_out.open() as f:
            r_rows = {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}

        log("taskproc: analyze RECORDS_DIR --format csv…")
        start_only = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            subprocess.run([str(exe), "--version"], check=True, capture_output=True)
            start_only.append(time.perf_counter() - t0)
        wall = []
        out = ""
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            p = subprocess.run([str(exe), "analyze", str(records), "--format", "csv"], capture_output=True, text=True)
            wall.append(time.perf_counter() - t0)
            if p.returncode != 0:
                raise SystemExit("taskproc failed:\n" + p.stderr)
            out = p.stdout
        t_rows = {row["source"]: row for row in csv.DictReader(out.splitlines())}
        inspect = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            subprocess.run([str(exe), "inspect", str(records), "--format", "csv"], capture_output=True)
            inspect.append(time.perf_counter() - t0)

    # Agreement, feature by feature.
    mismatches: list[str] = []
    per_record = []
    for f in files:
        r = r_rows[str(f)]
        t = t_rows.get(str(f))
        if t is None:
            mismatches.append(f"{f.name}: no taskproc result")
            continue
        bad = [c for c in FEATURES if not agrees(r[c], t[c])]
        r_error = None if r["error"] == "None" else r["error"]
        if (t["error"] or None) != r_error:
            bad.append("error")
        if bad:
            mismatches.append(f"{f.name}: " + ", ".join(f"{c} (R {r.get(c)}, taskproc {t.get(c)})" for c in bad[:5]))
        per_record.append((f.name, r, t, bad))

    r_median = statistics.median(float(r_rows[str(f)]["seconds_median"]) for f in files)
    r_loop = float(next(iter(r_rows.values()))["loop_mean"])
    n = len(files)
    t_total = statistics.median(wall)
    t_start = statistics.median(start_only)
    t_per = t_total / n
    t_per_net = max(t_total - t_start, 1e-9) / n
    t_read = max(statistics.median(inspect) - t_start, 0) / n

    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                         text=True).stdout.strip()
    lines = [
        "# Tapping features: taskproc vs mhealthtools (R)",
        "",
        "Generated by `python3 Tools/peers/tapping.py` (see its docstring). Both tools get the same files: "
        f"the two shared samples and {args.records} derived 180-tap records (tap_data with seeded location and "
        "timing jitter), as `t,x,y,buttonid` tables (and the pdkit JSON).",
        "",
        f"- Date: {now}; CPU: {cpu}, {os.cpu_count()} logical cores; load average at the end "
        f"{load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (the machine is shared)",
        f"- R: {r_version}; mhealthtools R/utils.R + R/get_tapping_features.R sourced from the checkout",
        f"- taskproc: {swift[0] if swift else 'swift ?'}, release build, sources at `{rev}`",
        f"- Timing: median of {args.repeats} runs",
        "",
        "## Agreement",
        "",
        f"{len(per_record) - sum(1 for p in per_record if p[3])} of {n} records agree on all 42 features and "
        "`error` (relative difference ≤ 1e-9; NA in R ⇔ empty in taskproc's CSV)."
        + ("" if not mismatches else " Mismatches:"),
        "",
    ]
    lines += [f"- {m}" for m in mismatches[:20]]
    lines += [
        "",
        "## Time per record",
        "",
        "| tool | what is timed | per record | records/s |",
        "|---|---|---:|---:|",
        f"| mhealthtools (R) | `get_tapping_features()` on a loaded data frame, median over records | "
        f"{r_median * 1e3:.1f} ms | {1 / r_median:,.0f} |",
        f"| mhealthtools (R) | the same, mean over one loop of all records | {r_loop * 1e3:.1f} ms | {1 / r_loop:,.0f} |",
        f"| taskproc CLI | `taskproc analyze DIR --format csv`: start, read + parse every file, analyse, write CSV | "
        f"{t_per * 1e6:.0f} µs | {1 / t_per:,.0f} |",
        f"| taskproc CLI | the same minus process start ({t_start * 1e3:.1f} ms) | {t_per_net * 1e6:.0f} µs | "
        f"{1 / t_per_net:,.0f} |",
        f"| taskproc CLI | `taskproc inspect DIR --format csv` minus process start: reading and parsing only, no "
        f"features | {t_read * 1e6:.0f} µs | – |",
        "",
        f"**Ratio (R loop mean / taskproc CLI per record): {r_loop / t_per:,.0f}×** "
        f"({r_loop / t_per_net:,.0f}× without process start). The features alone, in process, are measured by "
        '`TappingBenchmarks` (see Benchmarks/README.md, "Tapping features").',
        "",
    ]
    report = "\n".join(lines)
    (HERE / "TAPPING.md").write_text(report)
    print(report)
    if mismatches:
        sys.exit(1)


if __name__ == "__main__":
    main()
