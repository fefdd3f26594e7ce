#!/usr/bin/env python3
"""mhealthtools' (R) tremor, balance and walk features on the shared device-motion recordings: parity fixtures.

    python3 Tools/peers/motion.py --mhealthtools DIR [--r-lib DIR] [--pkg-src DIR] [--r-source GITDIR]
                                         [--repeats N] [--out DIR] [--debug-dir DIR] [--no-debug] [--no-install]

DIR is a checkout of github.com/Sage-Bionetworks/mhealthtools (commit 4340b82, Apache-2.0) or its R/ folder; the
environment variable MHEALTHTOOLS_DIR works too. Its R/utils.R, sensors.R, feature_extraction_functions.R,
get_tremor_features.R and get_walk_features.R are sourced by Tools/peers/motion_features.R at run time; none
of their code is copied into this repository.

R: Debian `r-base-core r-cran-dplyr r-cran-tidyr r-cran-purrr r-cran-tibble r-cran-rlang r-cran-magrittr r-cran-e1071
r-cran-pracma r-cran-zoo r-cran-matrix r-cran-fields r-cran-locfit` (apt-get installed when missing and we are root,
unless --no-install), plus four packages Debian does not have: seewave (imports tuneR, which imports signal),
statcomp and EMD. Give the R library holding them with --r-lib (or $MHT_R_LIBS). If they are missing there and
--pkg-src DIR holds source checkouts DIR/<name> of github.com/cran/<name> (the read-only CRAN mirror), they are
installed into --r-lib with `R CMD INSTALL` (signal, tuneR, seewave, statcomp, EMD, in that order); the checkouts'
commits are recorded in the README.

Recordings (all real, read-only, from ../shared/data; see its README.md for provenance):
  rest_tremor, kinetic_tremor, balance  mhealthtools-motion/*_data_deviceMotion.json (mhealthtools' package data)
  walk                                  mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz (its walk_data)
accelerometer_data = userAcceleration (t = timestamp, x, y, z), gyroscope_data = rotationRate, rows in file order,
as in mhealthtools' vignette. Python parses the files (correctly rounded, like Swift's Double(String)) and writes
each as a CSV of C99 hex floats (float.hex()), which R's as.numeric parses exactly; R writes back the doubles it
loaded and this script checks they are bit-identical. (Decimal text read with read.csv is not always correctly
rounded in R: R 4.2.2 loaded 2 of the 21014 balance values and 27 of the 20937 walk values 1 ulp off.)

For each recording R calls, with every other argument at its default:
  get_tremor_features(accelerometer_data, gyroscope_data)  IMF = 1 (get_balance_features has the same defaults)
  get_walk_features(accelerometer_data, gyroscope_data)    IMF = 2, EMD + 256-sample Hamming windows, 50 % overlap
                                                           (get_kinetic_tremor_features has the same defaults)
and writes each $extracted_features to OUT/<recording>.imf1.csv and .imf2.csv (default OUT:
Tests/Fixtures/mhealthtools-motion), numbers as "%.17g", NA as an empty cell, plus OUT/README.md.

Timing: one warm R process (one call of each function first), --repeats calls (default 5) of each function per
recording; the median per call goes into the README.

Debug output (--debug-dir, default /tmp/mht-debug; not for committing): the inputs as given to R, the IMF = 1
intermediates per sensor × axis (sampling rate, the ar() fit inside spec.ar, spectrum ends, findpeaks, EWT energies,
the seewave/statcomp/pracma values; <rec>.imf1.debug.txt, full spectra in <rec>.imf1.spectra.csv), EMD::emd's IMFs
(<rec>.emd.csv) and the R source of every library function used (sources.txt, emd-sources.txt). With --r-source
GITDIR (a git mirror of github.com/wch/r-source) the C/Fortran behind stats' spline, acf and ar.yw at the running R
version's tag is appended to them.
"""
from __future__ import annotations

import argparse
import csv
import datetime as _dt
import gzip
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = REPO.parent / "shared" / "data"
R_SCRIPT = HERE / "motion_features.R"
DEFAULT_OUT = REPO / "Tests" / "Fixtures" / "mhealthtools-motion"
RECORDINGS = [
    ("rest_tremor", DATA / "mhealthtools-motion" / "rest_tremor_data_deviceMotion.json"),
    ("kinetic_tremor", DATA / "mhealthtools-motion" / "kinetic_tremor_data_deviceMotion.json"),
    ("balance", DATA / "mhealthtools-motion" / "balance_data_deviceMotion.json"),
    ("walk", DATA / "mpower-samples" / "mhealthtools_walk_data_devicemotion.csv.gz"),
]
COLUMNS = ["timestamp", "ua_x", "ua_y", "ua_z", "rr_x", "rr_y", "rr_z"]
DEBIAN = ["r-base-core", "r-cran-dplyr", "r-cran-tidyr", "r-cran-purrr", "r-cran-tibble", "r-cran-rlang",
          "r-cran-magrittr", "r-cran-e1071", "r-cran-pracma", "r-cran-zoo", "r-cran-matrix", "r-cran-fields",
          "r-cran-locfit"]
FROM_SOURCE = ["signal", "tuneR", "seewave", "statcomp", "EMD"]  # install order (seewave imports tuneR imports signal)
NEEDED = ["dplyr", "tidyr", "purrr", "tibble", "magrittr", "pracma", "e1071", "seewave", "statcomp", "EMD"]
C_SOURCES = {  # R's C/Fortran behind the stats functions used, appended to the debug source dumps
    "sources.txt": ["src/library/stats/src/eureka.f", "src/library/stats/src/filter.c"],
    "emd-sources.txt": ["src/library/stats/src/splines.c"],
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load_recording(path: Path) -> list[list[float]]:
    """Rows of COLUMNS (floats exactly as parsed from the file), in file order."""
    if path.suffix == ".json":
        rows = []
        for s in json.loads(path.read_text()):
            ua, rr = s["userAcceleration"], s["rotationRate"]
            rows.append([float(s["timestamp"]), float(ua["x"]), float(ua["y"]), float(ua["z"]),
                         float(rr["x"]), float(rr["y"]), float(rr["z"])])
        return rows
    with gzip.open(path, "rt") as f:
        return [[float(r[c]) for c in COLUMNS] for r in csv.DictReader(f)]


def r_env(r_lib: Path | None) -> dict:
    env = dict(os.environ)
    if r_lib:
        env["R_LIBS"] = os.pathsep.join([str(r_lib)] + ([env["R_LIBS"]] if env.get("R_LIBS") else []))
    return env


def missing_packages(env: dict, packages: list[str]) -> list[str]:
    if not shutil.which("Rscript"):
        return packages
    probe = ("p <- c(" + ",".join(f'"{p}"' for p in packages) + "); "
             "cat(p[!vapply(p, requireNamespace, TRUE, quietly = TRUE)], sep = '\\n')")
    r = subprocess.run(["Rscript", "-e", probe], capture_output=True, text=True, env=env)
    return [line for line in r.stdout.split() if line] if r.returncode == 0 else packages


def ensure_r(args, env: dict) -> None:
    missing = missing_packages(env, NEEDED)
    debian_side = [p for p in missing if p not in FROM_SOURCE]
    if debian_side or not shutil.which("Rscript"):
        if args.no_install or os.geteuid() != 0:
            raise SystemExit("R packages missing (" + ", ".join(debian_side) + "): apt-get install -y "
                             + " ".join(DEBIAN))
        log("installing " + " ".join(DEBIAN) + " with apt-get…")
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends"] + DEBIAN, check=True,
                       capture_output=True)
    missing = [p for p in missing_packages(env, FROM_SOURCE) if p in FROM_SOURCE]
    if missing:
        if not (args.pkg_src and args.r_lib):
            raise SystemExit("R packages missing: " + ", ".join(missing) + ". Give --r-lib with them installed, or "
                             "--r-lib and --pkg-src DIR holding checkouts DIR/<name> of github.com/cran/<name>.")
        args.r_lib.mkdir(parents=True, exist_ok=True)
        for p in FROM_SOURCE:
            if p in missing_packages(env, [p]):
                log(f"R CMD INSTALL {args.pkg_src / p} → {args.r_lib}…")
                r = subprocess.run(["R", "CMD", "INSTALL", "--no-docs", "--no-html", "-l", str(args.r_lib),
                                    str(args.pkg_src / p)], capture_output=True, text=True, env=env)
                if r.returncode != 0:
                    raise SystemExit(f"installing {p} failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")


def git_commit(path: Path) -> str | None:
    r = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def mhealthtools_dir(arg: str | None) -> tuple[Path, Path]:
    root = arg or os.environ.get("MHEALTHTOOLS_DIR")
    if not root:
        raise SystemExit("give --mhealthtools DIR (a checkout of Sage-Bionetworks/mhealthtools, or its R/ folder)")
    for candidate in [Path(root) / "R", Path(root)]:
        if all((candidate / f).exists() for f in ["utils.R", "sensors.R", "feature_extraction_functions.R",
                                                   "get_tremor_features.R", "get_walk_features.R"]):
            return Path(root), candidate
    raise SystemExit(f"{root}: no mhealthtools R files (in it or its R/ folder)")


def append_c_sources(git_dir: Path, r_version: str, debug_dir: Path) -> str | None:
    """Appends R's C/Fortran for spline/acf/ar.yw at the tag of the running R version; returns the ref used."""
    major_minor_patch = r_version.split()[2]  # "R version 4.2.2 Patched (...)"
    ref = "tags/R-" + major_minor_patch.replace(".", "-")
    for name, files in C_SOURCES.items():
        with (debug_dir / name).open("a") as out:
            for f in files:
                r = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{ref}:{f}"], capture_output=True,
                                   text=True)
                if r.returncode != 0:
                    return None
                out.write("\n" + "=" * 100 + f"\nR sources {ref}:{f} (github.com/wch/r-source)\n" + "=" * 100 + "\n")
                out.write(r.stdout)
    return ref


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mhealthtools", help="mhealthtools checkout (or its R/ folder); default $MHEALTHTOOLS_DIR")
    ap.add_argument("--r-lib", type=Path, default=Path(os.environ["MHT_R_LIBS"]) if os.environ.get("MHT_R_LIBS")
                    else None, help="R library with seewave, statcomp, EMD (default $MHT_R_LIBS)")
    ap.add_argument("--pkg-src", type=Path, help="folder of github.com/cran/<name> checkouts to install from")
    ap.add_argument("--r-source", type=Path, help="git dir of github.com/wch/r-source (debug C sources)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--debug-dir", type=Path, default=Path("/tmp/mht-debug"))
    ap.add_argument("--no-debug", action="store_true", help="skip the intermediates and source dumps")
    ap.add_argument("--no-install", action="store_true", help="never apt-get install R packages")
    args = ap.parse_args()

    mht_root, rdir = mhealthtools_dir(args.mhealthtools)
    env = r_env(args.r_lib)
    ensure_r(args, env)

    debug_dir = args.debug_dir
    inputs = debug_dir / "inputs"
    inputs.mkdir(parents=True, exist_ok=True)
    listing = debug_dir / "listing.tsv"
    data: dict[str, list[list[float]]] = {}
    with listing.open("w") as lst:
        for name, path in RECORDINGS:
            rows = load_recording(path)
            data[name] = rows
            target = inputs / f"{name}.csv"
            with target.open("w") as f:
                f.write(",".join(COLUMNS) + "\n")
                for row in rows:
                    f.write(",".join(v.hex() for v in row) + "\n")
            lst.write(f"{name}\t{target}\n")

    log(f"R: get_tremor_features and get_walk_features on {len(RECORDINGS)} recordings × {args.repeats} "
        "(one warm process; the walk features take a while)…")
    r = subprocess.run(["Rscript", str(R_SCRIPT), str(rdir), str(listing), str(args.out), str(debug_dir),
                        str(args.repeats), "0" if args.no_debug else "1"], env=env, capture_output=True, text=True)
    load = os.getloadavg()  # 1/5/15-minute load averages, as the R run ends
    (debug_dir / "r-stdout.txt").write_text(r.stdout)
    (debug_dir / "r-stderr.txt").write_text(r.stderr)
    if r.returncode != 0:
        raise SystemExit("R failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    print(r.stdout, end="")

    # The doubles R loaded must be the ones Python parsed, bit for bit.
    for name, rows in data.items():
        with (debug_dir / "loaded" / f"{name}.hex.csv").open() as f:
            loaded = [[float.fromhex(v) for v in row.values()] for row in csv.DictReader(f)]
        if loaded != rows:
            raise SystemExit(f"{name}: R did not load the same doubles as Python")
    log("inputs: R loaded bit-identical doubles")

    versions = {}
    for line in (debug_dir / "versions.tsv").read_text().splitlines():
        parts = line.split("\t")
        versions[parts[0]] = parts[1:]
    status = {}
    for line in (debug_dir / "status.tsv").read_text().splitlines():
        _, key, text = line.split("\t", 2)
        status[key] = text
    times: dict[tuple[str, str], list[float]] = {}
    with (debug_dir / "timings.tsv").open() as f:
        for row in csv.DictReader(f, delimiter="\t"):
            times.setdefault((row["name"], row["fun"]), []).append(float(row["seconds"]))
    warnings = [w for w in (debug_dir / "warnings.txt").read_text().splitlines() if w and w != "(none)"]

    c_ref = None
    if not args.no_debug and args.r_source:
        c_ref = append_c_sources(args.r_source, versions["R"][0], debug_dir)

    # ---- README ----
    mht_commit = git_commit(mht_root) or "4340b82fce2aef66ba445f81515749aa1cf599c3 (not a git checkout; assumed)"
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass

    def pkg_line(p: str) -> str:
        v = versions.get(p, ["?", ""])
        published = f", CRAN release of {v[1][:10]}" if len(v) > 1 and v[1] else ""
        if p in FROM_SOURCE:
            commit = git_commit(args.pkg_src / p) if args.pkg_src else None
            where = (f"built from github.com/cran/{p} (CRAN's read-only mirror) at commit {commit}" if commit
                     else f"installed from github.com/cran/{p}")
        else:
            where = f"Debian bookworm r-cran-{p.lower()}"
        return f"- {p} {v[0]}{published}: {where}"

    rec_lines = ["| recording | source | rows | t[n] − t[1] (s) | sampling rate as mhealthtools computes it "
                 "(n / (t[n] − t[1])) |", "|---|---|---:|---:|---:|"]
    for name, path in RECORDINGS:
        rows = data[name]
        span = rows[-1][0] - rows[0][0]
        rec_lines.append(f"| {name} | `{path.relative_to(DATA)}` | {len(rows)} | {span:.6f} | "
                         f"{len(rows) / span:.6f} Hz |")

    time_lines = ["| recording | `get_tremor_features` (IMF 1) | `get_walk_features` (IMF 2) |", "|---|---:|---:|"]
    for name, _ in RECORDINGS:
        cells = []
        for fun in ("imf1", "imf2"):
            t = times.get((name, fun))
            cells.append(f"{statistics.median(t) * 1e3:,.0f} ms" if t else "–")
        time_lines.append(f"| {name} | {cells[0]} | {cells[1]} |")

    status_lines = [f"- `{k}.csv`: {v}" for k, v in status.items()]
    cmd = ("python3 Tools/peers/motion.py --mhealthtools /path/to/mhealthtools --r-lib /path/to/rlib "
           "[--pkg-src /path/to/cran-checkouts] [--r-source /path/to/r-source.git]")
    readme = f"""# mhealthtools motion-feature fixtures

Reference outputs of Sage Bionetworks' R package mhealthtools for its tremor/balance and walk feature functions,
computed on real device-motion recordings. They are for parity tests of taskproc's re-implementation (relative
difference ≤ 1e-9). They are peer outputs, not ground truth.

## Provenance

- mhealthtools: github.com/Sage-Bionetworks/mhealthtools at commit {mht_commit} (Apache-2.0). Its R files are
  sourced at run time; none of its code is in this repository.
- {versions.get("R", ["?"])[0]} (Debian bookworm r-base-core), x86_64, {cpu}.
{chr(10).join(pkg_line(p) for p in ["seewave", "statcomp", "EMD", "tuneR", "signal", "pracma", "e1071", "dplyr",
                                     "tidyr", "purrr", "tibble", "rlang", "magrittr", "fields", "locfit"])}
- seewave's roughness, rugo, TKEO, sfm, sh, ftwindow and hamming.w are textually identical in 2.1.6 (May 2020,
  contemporary with mhealthtools 4340b82) and in the version above. EMD's R code is unchanged from 1.5.8 to 1.5.9.
  statcomp has only ever had release 0.1.0. signal is only needed by the band-pass filter, which the defaults do not
  use.
- Generated {now} by

      {cmd}

  (Tools/peers/motion.py drives Tools/peers/motion_features.R; see their headers).

## Inputs

accelerometer_data = `userAcceleration` (columns t = timestamp, x, y, z; g), gyroscope_data = `rotationRate`
(rad/s), rows in file order, as in mhealthtools' vignette. The doubles R used are bit-identical to a correctly rounded
parse of the files (passed to R as hex floats and checked; R's own decimal parser misrounds a few of them by 1 ulp).
Files are under `../shared/data/`.

{chr(10).join(rec_lines)}

## Files

- `<recording>.imf1.csv`: `get_tremor_features(accelerometer_data, gyroscope_data)`, every other argument at its
  default (IMF = 1, no time filter, no detrending, no band-pass, no windowing, no derived kinematics). The defaults of
  `get_balance_features` are the same, so this is also its output.
- `<recording>.imf2.csv`: `get_walk_features(accelerometer_data, gyroscope_data)` (IMF = 2). Each axis goes through
  `EMD::emd(value, t, max.imf = 2)`, and each IMF is cut into 256-sample windows with 50 % overlap (step 128) and
  multiplied by a Hamming window (`seewave::ftwindow(256)`). The defaults of `get_kinetic_tremor_features` are the
  same.

Each file is `$extracted_features` as mhealthtools returns it. Columns keep mhealthtools' order, numbers are written
with `sprintf("%.17g")`, NA is an empty cell, and there are no row names or quotes.

{chr(10).join(status_lines)}

Columns:
- `sensor`: accelerometer | gyroscope. `measurementType`: acceleration | velocity. `axis`: x | y | z.
  Rows are in that order (sensor, then axis; for IMF 2, then IMF 1..2, then window 1..k).
- `IMF`, `window` (imf2 only): the EMD component and the window number. Windows are taken from 1 in steps of 128
  samples while a full 256-sample window fits.
- `*.tm`: `time_domain_summary(values, sampling_rate)`: mean, median (quantile type 7), mode (`pracma::Mode`), mx, mn,
  sd, skewness and kurtosis (e1071 type 3), Q25, Q75, range, rough (`seewave::roughness`: sum of squared second
  differences), rugo (`seewave::rugo`), energy (sum of squares), mobility, mtkeo (mean of `seewave::TKEO`), rmsmag,
  IQR (defined as **Q25 − Q75**, so it is negative) and complexity.
- `*.fr`: `frequency_domain_summary(values, sampling_rate, npeaks = 3)`. These are statistics of the AR spectrum
  `stats::spec.ar(values, n.freq = 500)` (Yule-Walker, order chosen by AIC): frequencies scaled by sampling_rate,
  pdf normalised to sum 1. The columns are mn, mx, sd, sem, md, mod, Q25, Q75, IQR, cent, skew, kurt, sfm
  (`seewave::sfm`), sh (`seewave::sh`), and then the entropies of the empirical-wavelet energies: ewt.permEnt
  (`statcomp::permutation_entropy`), ewt.shannonEnt, ewt.simpsonEnt, ewt.renyiEnt (α = 2) and ewt.tsallisEnt
  (q = 0.1).
- `EnergyInBand<f>`: `frequency_domain_energy`, `pracma::trapz` of the normalised AR pdf over the frequencies in
  [f, f + 0.5] Hz, for f = 1, 1.5, …, 24.5 (`_` replaces the decimal point).

## Timing

One warm R process (one call of each function first), median of {args.repeats} calls per recording, on a shared
{os.cpu_count()}-core machine (load average when the run ended: {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} over 1 / 5 /
15 minutes; above {os.cpu_count()} means R was competing for the cores and these times are inflated):

{chr(10).join(time_lines)}

## Notes for re-implementers

- The sampling rate is n / (t[n] − t[1]), not (n − 1) / (t[n] − t[1]). It is computed on the rows in file order,
  while the values are sorted with `order(t)` (no recording here has timestamps out of order).
- `mode.tm` is `pracma::Mode`, which tabulates `as.character(values)`, i.e. values rounded to 15 significant digits,
  and returns `as.numeric` of the most frequent string. Ties go to the smallest value. With all-distinct values it is
  therefore the minimum, rounded to 15 significant digits (it can differ from `mn.tm` in the last bits).
- The spectrum is `stats::spec.ar(values, n.freq = 500)`: `ar()` by Yule-Walker with order.max =
  min(n − 1, floor(10 log10 n)) and the order of least AIC; freq = seq(0, 0.5, length.out = 500) × sampling_rate (up
  to the Nyquist frequency of the computed rate); pdf = var.pred / |1 − Σ a_k e^(−2πi f k)|². The normalised pdf
  (sum 1) feeds every `*.fr` and `EnergyInBand*` column.
- `ewt.permEnt` is `statcomp::permutation_entropy` applied to the EWT band energies themselves (a distribution, not
  a time series), i.e. their Shannon entropy divided by log(number of bands). It equals `ewt.shannonEnt` except when
  an energy is 0 (seewave's `sh` replaces zeros by 1e-7, statcomp skips probabilities < 1e-30).
- The EWT bands are cut at the peaks `pracma::findpeaks` finds in the normalised pdf (at most 3, at least 10 % of the
  maximum), so there are peaks + 2 bands (`ewt_*` energies). A pdf that is largest at 0 Hz and falls from there has no
  peak (findpeaks needs a rise first), giving 2 bands. The IMF 1 files cover 0, 1, 2 and 3 peaks, e.g. 0 peaks for
  kinetic_tremor accelerometer z, walk accelerometer z and gyroscope y, and balance gyroscope y.
- `EMD::emd` gets the normalised timestamps as `tt` (not 1..n), so its boundary extension and splines
  (`splinefun`, method "fmm") follow the real sample times (the balance recording has gaps of up to 45 ms).
- `seewave::sh` calls `options(warn = 0)` as a side effect.
- R warnings (all calls, the warm-up included): {"none" if not warnings else "; ".join(sorted(set(
        w.split(": ", 1)[-1] for w in warnings)))}
"""
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "README.md").write_text(readme)

    print("\n".join(time_lines))
    log(f"fixtures: {args.out}; debug: {debug_dir}" + (f" (C sources from {c_ref})" if c_ref else ""))
    if any(not v.startswith("ok") for v in status.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
