#!/usr/bin/env python3
"""taskproc walking (step count) vs the open peers, on the same inputs, on every data set in ../shared/data.

    python3 Tools/peers/walking.py [--repeats N] [--no-build | --taskproc PATH] [--only oak,mobgap,...]
                                          [--data weallwalk,mobilised,...] [--clock cpu|wall] [--no-install]

Peers (see ../shared/spec/walking-tapping.md §2 for the pins and workarounds used here):
  oak     beiwe-forest 1.0, forest.oak.base.preprocess_bout + find_walking; steps = Σ per-second cadence
  gaitpy  gaitpy 1.6.1 (--no-deps + pinned deps), Gaitpy(‖a‖ as the vertical axis).extract_features,
          fed the input as is (it resamples to 50 Hz itself and refuses < 50 Hz)
  gaitpy50  the same, but fed the input after *our* linear resampling to a uniform 50 Hz grid (the spec's
          1.05 % configuration; avoids its crash on duplicate/backwards timestamps and runs on 25/15 Hz inputs)
  pdkit   pdkit 1.4.4 (pinned old numpy/scipy/pandas), GaitProcessor.resample_signal + gait(‖a‖)
  skdh    scikit-digital-health 0.17.18, skdh.gait.GaitLumbar().predict (defaults; whole recording = gait)
  mobgap  mobgap 1.2.0 (the Mobilise-D pipeline), mobgap.pipeline.MobilisedPipelineUniversal() with its default
          pipelines, run on a mobgap.data.GaitDatasetFromData datapoint; steps = Σ n_raw_initial_contacts over
          per_wb_parameters_ (its final walking bouts), walking time = Σ duration_s, cadence = mean cadence_spm.
          How each input is given to it:
          - sensor "LowerBack", a DataFrame acc_x/acc_y/acc_z in m/s² (g × 9.80665) and gyr_x/gyr_y/gyr_z in deg/s,
            sampling_rate_hz = 1 / median sample interval (mobgap: samples as they are) or 100 (mobgap100: x/y/z
            and gyro linearly interpolated onto a uniform 100 Hz grid by us, like gaitpy50);
          - participant metadata height_m 1.70, sensor_height_m 0.90 (no heights in the data; they only scale stride
            length and speed), recording metadata measurement_condition "laboratory";
          - cohort, which picks the pipeline (HA/COPD/CHF → MobilisedPipelineHealthy, PD/MS/PFF →
            MobilisedPipelineImpaired): Mobilise-D trials their own cohort (HA, MS); WeAllWalk sighted and guide-dog
            walkers "HA", long-cane walkers "MS" (impaired pipeline); Oxford, the still phone and the tremor/balance
            recordings "HA";
          - orientation: mobgap wants the Mobilise-D lower-back sensor frame (x = inferior→superior, reading +1 g
            upright; y = medio-lateral; z = posterior→anterior). The Mobilise-D CSVs are in that frame and go in
            unrotated. Every phone recording (WeAllWalk trouser pocket, Oxford hand/pockets/neck pouch, the mPower
            phones) is rotated once per recording: x = the direction of the mean acceleration (gravity, so x reads
            +1 g plus the vertical acceleration whatever the phone's sign convention), z = the horizontal direction
            of largest acceleration variance (sign made deterministic), y = z × x. A phone that is not on the lower
            back is OUTSIDE mobgap's design; it is run anyway and the tables say what it gives;
          - gyroscope: mobgap uses it only for left/right labelling (LrcUllrich) and turns (TdElGohary); gait
            sequences (GsdIluz/GsdIonescu), initial contacts (IcdIonescu) and stride length (SlZijlstra) use the
            accelerometer alone, so the step count does not need it. WeAllWalk's raw gyroscope (columns 34–36, rad/s)
            and the device-motion rotationRate are given (rotated like the acceleration); the Mobilise-D CSVs, Oxford
            and the still phone have none, and mobgap gets zeros (its columns are required). With zeros the four
            Mobilise-D straight walks give exactly mobgap's stored counts (mobilise-d-lab/mobgap-results.csv).
  mobgap100  the same, fed the input resampled to 100 Hz by us (see above).

Each peer lives in its own venv, Tools/peers/.venv-walking-<tool> (git-ignored), created with
Python 3.11 on first run. The peers are only installed from PyPI and called; none of their code is copied here.

Inputs (identical for every tool; only the development participants named in ../shared/data/README.md):
  oxford     the 4 Oxford validation walks (../shared/data/oxford-step-counter), the same walks linearly resampled to
             uniform 25 Hz and 15 Hz grids (written as headerless 7-column Oxford CSVs in a temp dir so that taskproc
             reads them exactly like the originals), and the 4 joined back to back (~13 min, throughput); ground
             truth = the number of +1 increments of column 6 (steps_ground_truth) of the original file.
  weallwalk  the 60 WeAllWalk walks (header-less 41-column CSV, 25 Hz): time = column 1 (s), raw accelerometer in g
             = columns 31–33 (taskproc: `--no-header --time-column 1 --acceleration-columns 31,32,33
             --acceleration-unit g --time-unit s`); truth.csv gt_steps; grouped by mobility (sighted / guide dog /
             long cane).
  mobilised  the 5 Mobilise-D lab trials (`t,x,y,z`, m/s², 100 Hz, lower back): 4 straight walks (Test5) and the
             simulated daily activities (Test11); truth.csv ref_steps; mobgap-results.csv shown beside mobgap's run.
  motion     mhealthtools' kinetic-tremor, rest-tremor and balance mPower-2 device-motion JSON (0 steps expected;
             peers get total acceleration = userAcceleration + gravity, in g).
  still      the still mPower phone (../shared/data/mpower-samples/pdkit_mpower_gait_stationary.json, 0 expected).

Timing (--clock cpu, the default: CPU time, user + system, so time spent waiting for a core on the shared machine is
left out; --clock wall: elapsed time):
  peers     "load" = np.load of the prepared arrays + building the tool's input objects (DataFrames, resampling
            for gaitpy50/mobgap100, mobgap's frame rotation and dataset); "analysis" = only the tool's analysis
            call(s) on those loaded objects (all threads of the process). Median of --repeats runs, in one warm
            Python process per tool.
  taskproc  the whole CLI `taskproc analyze FILE --format json` (process start, gzip/CSV or JSON decode, analysis,
            JSON output), median of --repeats; also the same minus the median of `taskproc --version` (process start
            only). samples/s = input samples / time. --taskproc PATH uses that binary (a snapshot copied at the start
            of the run) instead of building .build/release/taskproc.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = REPO.parent / "shared" / "data"
OXFORD = DATA / "oxford-step-counter"
STATIONARY = DATA / "mpower-samples" / "pdkit_mpower_gait_stationary.json"
WEALLWALK = DATA / "weallwalk"
MOBILISED = DATA / "mobilise-d-lab"
MOTION = DATA / "mhealthtools-motion"
G = 9.80665
PY = os.environ.get("WALKING_PYTHON", "python3.11")

PEERS = {
    # tool: (venv suffix, list of pip install invocations, version label)
    "oak": ("oak", [["beiwe-forest==1.0"]], "beiwe-forest 1.0"),
    "gaitpy": ("gaitpy", [["--no-deps", "gaitpy==1.6.1"],
                          ["numpy<1.25", "scipy<1.12", "pandas<2", "scikit-learn<1.3", "statsmodels<0.15",
                           "PyWavelets<1.5", "tables<3.9", "bokeh", "dill", "deepdish"]], "gaitpy 1.6.1"),
    "pdkit": ("pdkit", [["pdkit==1.4.4", "numpy<1.24", "scipy<1.12", "pandas<2", "PyWavelets<1.5", "tsfresh<0.21",
                         "matplotlib<3.9", "praat-parselmouth", "soundfile", "pandas_validator", "future"]],
              "pdkit 1.4.4"),
    "skdh": ("skdh", [["scikit-digital-health==0.17.18"]], "scikit-digital-health 0.17.18"),
    "mobgap": ("mobgap", [["mobgap==1.2.0"]], "mobgap 1.2.0"),
}
TOOLS = ["taskproc", "oak", "gaitpy", "gaitpy50", "pdkit", "skdh", "mobgap", "mobgap100"]
TOOL_LABEL = {
    "taskproc": "taskproc (CLI)",
    "oak": "forest oak",
    "gaitpy": "gaitpy (own resampling)",
    "gaitpy50": "gaitpy (input resampled to 50 Hz by us)",
    "pdkit": "pdkit",
    "skdh": "skdh GaitLumbar",
    "mobgap": "mobgap MobilisedPipelineUniversal (input rate as is)",
    "mobgap100": "mobgap MobilisedPipelineUniversal (input resampled to 100 Hz by us)",
}
TOOL_SHORT = {"taskproc": "taskproc", "oak": "oak", "gaitpy": "gaitpy", "gaitpy50": "gaitpy 50 Hz", "pdkit": "pdkit",
              "skdh": "skdh", "mobgap": "mobgap", "mobgap100": "mobgap 100 Hz"}  # column heads of the wide tables
# the venv each tool runs in
VENV_OF = {"gaitpy50": "gaitpy", "mobgap100": "mobgap"}

# --------------------------------------------------------------------------------------------------
# The worker runs inside a peer's venv. It only imports and calls the peer.
WORKER = r'''
import contextlib, io, json, statistics, sys, time, traceback, warnings
import numpy as np
warnings.filterwarnings("ignore")
tool, manifest_path, out_path, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# "cpu": CPU time of the whole process (every thread), so time spent descheduled on a shared machine is left out
clock = time.process_time if sys.argv[5] == "cpu" else time.perf_counter
manifest = json.load(open(manifest_path))

def fs_of(t):
    d = np.diff(t); d = d[d > 0]
    return 1.0 / float(np.median(d))

def uniform(t, x, y, z, fs):
    o = np.argsort(t, kind="stable"); t, x, y, z = t[o], x[o], y[o], z[o]
    keep = np.concatenate([[True], np.diff(t) > 0]); t, x, y, z = t[keep], x[keep], y[keep], z[keep]
    tu = np.arange(t[0], t[-1], 1.0 / fs)
    return tu, np.interp(tu, t, x), np.interp(tu, t, y), np.interp(tu, t, z)

def body_frame(acc, gyr):
    # one rotation per recording: x (mobgap "IS") = the direction of the mean acceleration (gravity), so x reads
    # +1 g plus the vertical acceleration whatever the device's sign convention; z ("PA") = the horizontal direction
    # of largest acceleration variance (principal axis, sign made deterministic: its largest device component > 0);
    # y ("ML") = z × x (right-handed). Gyro is rotated with the same matrix.
    u = acc.mean(axis=0); ex = u / np.linalg.norm(u)
    h = acc - np.outer(acc @ ex, ex); h = h - h.mean(axis=0)
    ez = np.linalg.eigh(h.T @ h)[1][:, -1]; ez = ez - (ez @ ex) * ex; ez = ez / np.linalg.norm(ez)
    if ez[np.argmax(np.abs(ez))] < 0: ez = -ez
    R = np.vstack([ex, np.cross(ez, ex), ez])
    return acc @ R.T, gyr @ R.T

def prepare(d, item):
    t, x, y, z = d["t"], d["x"], d["y"], d["z"]
    if tool in ("mobgap", "mobgap100"):
        import pandas as pd
        from mobgap.data import GaitDatasetFromData
        has_gyr = "gx" in d
        gx, gy, gz = (d["gx"], d["gy"], d["gz"]) if has_gyr else (0 * x, 0 * x, 0 * x)
        d0 = np.diff(t); med = float(np.median(d0[d0 > 0]))
        if tool == "mobgap100":
            fs = 100.0
            o = np.argsort(t, kind="stable"); keep = np.concatenate([[True], np.diff(t[o]) > 0]); o = o[keep]
            tu = np.arange(t[o][0], t[o][-1], 1.0 / fs)
            x, y, z, gx, gy, gz = (np.interp(tu, t[o], c[o]) for c in (x, y, z, gx, gy, gz))
        else:
            fs = 1.0 / med
        acc = np.column_stack([x, y, z]) * 9.80665                     # g -> m/s^2
        gyr = np.degrees(np.column_stack([gx, gy, gz]))               # rad/s -> deg/s
        if item.get("frame") != "mobilised":
            acc, gyr = body_frame(acc, gyr)
        df = pd.DataFrame({"acc_x": acc[:, 0], "acc_y": acc[:, 1], "acc_z": acc[:, 2],
                           "gyr_x": gyr[:, 0], "gyr_y": gyr[:, 1], "gyr_z": gyr[:, 2]})
        ds = GaitDatasetFromData({"rec": {"LowerBack": df}}, fs,
                                 {"rec": dict(height_m=1.70, sensor_height_m=0.90, cohort=item["cohort"])},
                                 {"rec": dict(measurement_condition="laboratory")})
        return dict(dp=ds[0])
    if tool == "oak":
        return dict(args=(t, x, y, z))
    if tool in ("gaitpy", "gaitpy50"):
        import pandas as pd
        fs = fs_of(t)
        if tool == "gaitpy50":
            t, x, y, z = uniform(t, x, y, z, 50.0); fs = 50.0
        mag = np.sqrt(x * x + y * y + z * z)
        return dict(df=pd.DataFrame({"timestamps": t * 1000.0, "v": mag}), fs=fs)
    if tool == "pdkit":
        import pandas as pd
        mag = np.sqrt(x * x + y * y + z * z)
        df = pd.DataFrame({"td": t - t[0], "x": x, "y": y, "z": z, "mag_sum_acc": mag},
                          index=pd.to_datetime(t - t[0], unit="s"))
        return dict(df=df, duration=float(t[-1] - t[0]))
    if tool == "skdh":
        return dict(t=t, a=np.column_stack([x, y, z]))
    raise SystemExit("unknown tool " + tool)

def analyse(p):
    if tool == "oak":
        from forest.oak.base import preprocess_bout, find_walking
        tb, vm = preprocess_bout(*p["args"])
        cad = np.asarray(find_walking(vm), dtype=float)
        steps = float(cad.sum()); w = cad[cad > 0]
        return steps, (float(w.mean() * 60) if w.size else None)
    if tool in ("gaitpy", "gaitpy50"):
        from gaitpy.gait import Gaitpy
        g = Gaitpy(p["df"].copy(), p["fs"], v_acc_col_name="v", ts_col_name="timestamps", v_acc_units="g", ts_units="ms")
        f = g.extract_features(170, subject_height_units="centimeters", sensor_height_ratio=0.53)
        if f is None:
            raise RuntimeError("extract_features returned None")
        if f.empty:
            return 0.0, None
        steps = float(f.groupby("bout_number")["steps"].first().sum())
        cad = f["cadence"].dropna()
        return steps, (float(cad.mean()) if len(cad) else None)
    if tool == "pdkit":
        from pdkit.gait_processor import GaitProcessor
        gp = GaitProcessor(duration=p["duration"])
        r = gp.resample_signal(p["df"].copy())
        res = gp.gait(r["mag_sum_acc"].copy())
        return float(res[0]), (float(res[1]) * 60 if res[1] is not None else None)
    if tool == "skdh":
        from skdh.gait import GaitLumbar
        r = GaitLumbar().predict(time=p["t"], accel=p["a"])
        steps = float(len(r.get("IC Timestamp", [])))
        cad = np.asarray(r.get("cadence", []), dtype=float)
        c = float(np.nanmean(cad)) if np.isfinite(cad).any() else None
        return steps, c
    if tool in ("mobgap", "mobgap100"):
        from mobgap.pipeline import MobilisedPipelineUniversal
        pl = MobilisedPipelineUniversal().run(p["dp"])
        wb = pl.per_wb_parameters_
        if wb is None or len(wb) == 0:
            return 0.0, None, dict(walking_s=0.0, pipeline=pl.pipeline_name_, bouts=0)
        steps = float(wb["n_raw_initial_contacts"].sum())
        cad = wb["cadence_spm"].dropna()
        return steps, (float(cad.mean()) if len(cad) else None), dict(
            walking_s=float(wb["duration_s"].sum()), pipeline=pl.pipeline_name_, bouts=int(len(wb)))

results = []
# import the peer once, outside the timing (module import is not the analysis)
try:
    with contextlib.redirect_stdout(io.StringIO()):
        if tool == "oak": import forest.oak.base
        elif tool.startswith("gaitpy"): import gaitpy.gait
        elif tool == "pdkit": import pdkit.gait_processor
        elif tool == "skdh": import skdh.gait
        elif tool.startswith("mobgap"): import mobgap.pipeline, mobgap.data
except BaseException as e:
    json.dump({"error": "import failed: %s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")}, open(out_path, "w"))
    sys.exit(0)

# one untimed warm-up call on the first input (lazy imports, JIT/caches), so the medians are steady-state
try:
    with contextlib.redirect_stdout(io.StringIO()):
        analyse(prepare(dict(np.load(manifest[0]["npz"])), manifest[0]))
except BaseException:
    pass

for item in manifest:
    rec = {"name": item["name"]}
    try:
        lt = []
        for _ in range(repeats):
            t0 = clock()
            d = dict(np.load(item["npz"]))
            p = prepare(d, item)
            lt.append(clock() - t0)
        rec["load_s"] = statistics.median(lt)
        at = []
        for _ in range(repeats):
            p = prepare(d, item)
            buf = io.StringIO()
            t0 = clock()
            try:
                with contextlib.redirect_stdout(buf):
                    out = analyse(p)
            except BaseException as e:
                msg = str(e).splitlines()[0] if str(e) else ""
                printed = [l.strip() for l in buf.getvalue().splitlines() if "abort" in l or "too low" in l]
                raise RuntimeError("%s: %s%s" % (type(e).__name__, msg[:160], (" — tool says: " + printed[-1][:160]) if printed else ""))
            at.append(clock() - t0)
        steps, cad = out[0], out[1]
        rec.update(steps=steps, cadence=cad, seconds=statistics.median(at), first_s=at[0])
        if len(out) > 2:
            rec.update(out[2])
    except BaseException as e:
        rec["error"] = str(e)[:300] or type(e).__name__
    results.append(rec)
json.dump({"results": results}, open(out_path, "w"))
'''


# --------------------------------------------------------------------------------------------------
def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load_oxford(path: Path) -> np.ndarray:
    with gzip.open(path, "rt") as f:
        return np.loadtxt(f, delimiter=",", ndmin=2)


def ground_truth(col6: np.ndarray) -> int:
    return int(np.sum(np.diff(col6) == 1))


def resample_linear(raw: np.ndarray, fs: float) -> np.ndarray:
    """Uniform grid at fs over [t0, tN], linear interpolation of x/y/z on the time-sorted, de-duplicated samples.
    The cumulative step columns are carried forward (previous value), so the file stays a valid Oxford CSV."""
    o = np.argsort(raw[:, 0], kind="stable")
    r = raw[o]
    keep = np.concatenate([[True], np.diff(r[:, 0]) > 0])
    r = r[keep]
    t = r[:, 0]
    tu = np.arange(t[0], t[-1], 1e9 / fs)
    out = np.empty((tu.size, 7))
    out[:, 0] = tu
    for c in (1, 2, 3):
        out[:, c] = np.interp(tu, t, r[:, c])
    idx = np.searchsorted(t, tu, side="right") - 1
    for c in (4, 5, 6):
        out[:, c] = r[idx, c]
    return out


def write_oxford_csv(path: Path, a: np.ndarray) -> None:
    with open(path, "w") as f:
        for row in a:
            f.write("%d,%.9g,%.9g,%.9g,%d,%d,%d\n" % (int(row[0]), row[1], row[2], row[3], row[4], row[5], row[6]))


DATASETS = ["oxford", "weallwalk", "mobilised", "motion", "still"]
WAW_GROUP = {"sighted": "waw-sighted", "blind, guide dog": "waw-guidedog", "blind, long cane": "waw-longcane"}
# mobgap's cohort token per WeAllWalk mobility group: "HA" selects MobilisedPipelineHealthy, "MS" (any of PD/MS/PFF)
# MobilisedPipelineImpaired (issue 17: healthy pipeline for sighted walkers, impaired for long-cane walkers; guide-dog
# walkers walk at a normal pace behind the dog, so they get the healthy one).
WAW_COHORT = {"sighted": "HA", "blind, guide dog": "HA", "blind, long cane": "MS"}
WAW_TASKPROC_ARGS = ["--no-header", "--time-column", "1", "--acceleration-columns", "31,32,33",
                     "--acceleration-unit", "g", "--time-unit", "s"]


def prepare_weallwalk(tmp: Path) -> list[dict]:
    """WeAllWalk (header-less 41-column CSV, 25 Hz): time = column 1 (s), raw accelerometer in g = columns 31–33,
    raw gyroscope in rad/s = columns 34–36 (1-based). Only the development participants in ../shared/data."""
    import csv as _csv
    inputs = []
    with open(WEALLWALK / "truth.csv", newline="") as f:
        rows = list(_csv.DictReader(f))
    order = {"sighted": 0, "blind, guide dog": 1, "blind, long cane": 2}
    rows.sort(key=lambda r: (order[r["mobility"]], int(r["participant"]), r["walk"], r["file"]))
    for r in rows:
        gz = WEALLWALK / r["file"]
        with gzip.open(gz, "rt") as fh:
            a = np.loadtxt(fh, delimiter=",", ndmin=2)
        stem = r["file"].split(".")[0]
        npz = tmp / f"{stem}.npz"
        np.savez(npz, t=a[:, 0] - a[0, 0] + 1.5e9, x=a[:, 30], y=a[:, 31], z=a[:, 32],
                 gx=a[:, 33], gy=a[:, 34], gz=a[:, 35])
        short = stem.replace("iPhoneSensors_", "")
        inputs.append(dict(name=f"WeAllWalk {short} ({r['mobility'].replace('blind, ', '')})",
                           group=WAW_GROUP[r["mobility"]], dataset="weallwalk", path=str(gz), npz=str(npz),
                           gt=int(r["gt_steps"]), n=int(a.shape[0]), duration=float(a[-1, 0] - a[0, 0]),
                           args=WAW_TASKPROC_ARGS, cohort=WAW_COHORT[r["mobility"]], gyro=True))
    return inputs


def prepare_mobilised(tmp: Path) -> list[dict]:
    """Mobilise-D lab trials: `t,x,y,z` CSV, m/s², lower back, Mobilise-D sensor frame (x ≈ vertical), 100 Hz;
    accelerometer only (no gyroscope in ../shared/data)."""
    import csv as _csv
    with open(MOBILISED / "truth.csv", newline="") as f:
        truth = list(_csv.DictReader(f))
    with open(MOBILISED / "mobgap-results.csv", newline="") as f:
        stored = {r["file"]: r for r in _csv.DictReader(f)}
    inputs = []
    for r in sorted(truth, key=lambda r: (r["test"] != "Test5", r["file"])):
        gz = MOBILISED / r["file"]
        with gzip.open(gz, "rt") as fh:
            a = np.loadtxt(fh, delimiter=",", skiprows=1, ndmin=2)
        stem = r["file"].split(".")[0]
        npz = tmp / f"{stem}.npz"
        np.savez(npz, t=a[:, 0] + 1.5e9, x=a[:, 1] / G, y=a[:, 2] / G, z=a[:, 3] / G)
        st = stored.get(r["file"], {})
        inputs.append(dict(name=f"Mobilise-D {stem}", group="md-daily" if r["test"] == "Test11" else "md-straight",
                           dataset="mobilised", path=str(gz), npz=str(npz), gt=int(r["ref_steps"]), n=int(a.shape[0]),
                           duration=float(a[-1, 0] - a[0, 0]), cohort=r["cohort"], frame="mobilised", gyro=False,
                           ref_walking_s=float(r["ref_walking_s"]), test_name=r["test_name"],
                           stored_mobgap=(float(st["mobgap_steps"]), float(st["mobgap_walking_s"]), st["mobgap_pipeline"])
                           if st else None))
    return inputs


def prepare_motion(tmp: Path) -> list[dict]:
    """mhealthtools' mPower-2 device-motion tremor and balance recordings (nobody walked: 0 steps expected).
    Peers get total acceleration = userAcceleration + gravity (g, CoreMotion's sign convention, which is that of
    the raw accelerometer) and, for mobgap, rotationRate (rad/s); taskproc reads the JSON file itself."""
    inputs = []
    for name, label in (("kinetic_tremor", "kinetic tremor"), ("rest_tremor", "rest tremor"), ("balance", "balance (standing)")):
        path = MOTION / f"{name}_data_deviceMotion.json"
        js = json.loads(path.read_text())
        t = np.array([s["timestamp"] for s in js], float)
        ua = np.array([[s["userAcceleration"][k] for k in "xyz"] for s in js], float)
        gr = np.array([[s["gravity"][k] for k in "xyz"] for s in js], float)
        rr = np.array([[s["rotationRate"][k] for k in "xyz"] for s in js], float)
        a = ua + gr
        npz = tmp / f"motion_{name}.npz"
        np.savez(npz, t=t - t[0] + 1.5e9, x=a[:, 0], y=a[:, 1], z=a[:, 2], gx=rr[:, 0], gy=rr[:, 1], gz=rr[:, 2])
        inputs.append(dict(name=f"mhealthtools {label}", group="motion", dataset="motion", path=str(path),
                           npz=str(npz), gt=0, n=len(js), duration=float(t[-1] - t[0]), gyro=True))
    return inputs


def prepare_inputs(tmp: Path, datasets: list[str]) -> list[dict]:
    inputs = []
    if "oxford" in datasets:
        inputs += prepare_oxford(tmp)
    if "still" in datasets:
        inputs += prepare_still(tmp)
    if "weallwalk" in datasets:
        inputs += prepare_weallwalk(tmp)
    if "mobilised" in datasets:
        inputs += prepare_mobilised(tmp)
    if "motion" in datasets:
        inputs += prepare_motion(tmp)
    return inputs


def prepare_oxford(tmp: Path) -> list[dict]:
    inputs = []
    for gz in sorted(OXFORD.glob("*.csv.gz")):
        raw = load_oxford(gz)
        gt = ground_truth(raw[:, 5])
        place = gz.name.split("_")[1]
        epoch = int(gz.name.split("_")[2].split(".")[0]) / 1000.0  # recording start in the file name (Unix ms)
        for rate in (None, 25.0, 15.0):
            if rate is None:
                a, csv, label = raw, gz, f"{place} (orig ~100 Hz)"
            else:
                a = resample_linear(raw, rate)
                csv = tmp / f"{gz.name.split('.')[0]}_{int(rate)}hz.csv"
                write_oxford_csv(csv, a)
                label = f"{place} @{int(rate)} Hz"
            t = (a[:, 0] - a[0, 0]) / 1e9 + epoch
            npz = tmp / (csv.name.split(".")[0] + ".npz")
            np.savez(npz, t=t, x=a[:, 1] / G, y=a[:, 2] / G, z=a[:, 3] / G)
            inputs.append(dict(name=label, group="orig" if rate is None else f"{int(rate)}hz", dataset="oxford",
                               path=str(csv), npz=str(npz), gt=gt, n=int(a.shape[0]), duration=float(t[-1] - t[0])))
    # The 4 original walks joined back to back (~13 min, like the spec's 10-min throughput input): each file's
    # timestamps continue one median interval after the previous file's last sample, and the cumulative step columns
    # continue from the previous file's last counts, so the file stays a valid Oxford CSV; GT is the sum.
    parts, shift, gt_sum, counts = [], 0.0, 0, np.zeros(3)
    for gz in sorted(OXFORD.glob("*.csv.gz")):
        raw = load_oxford(gz)
        gt_sum += ground_truth(raw[:, 5])
        a = raw.copy()
        a[:, 0] = a[:, 0] - a[0, 0] + shift
        shift = a[-1, 0] + float(np.median(np.diff(raw[:, 0])))
        a[:, 4:7] += counts - a[0, 4:7]
        counts = a[-1, 4:7].copy()
        parts.append(a)
    joined = np.vstack(parts)
    csv = tmp / "oxford_user1_joined.csv"
    write_oxford_csv(csv, joined)
    t = joined[:, 0] / 1e9 + 1506421989.895
    npz = tmp / "oxford_user1_joined.npz"
    np.savez(npz, t=t, x=joined[:, 1] / G, y=joined[:, 2] / G, z=joined[:, 3] / G)
    inputs.append(dict(name="4 walks joined (orig, ~13 min)", group="joined", dataset="oxford", path=str(csv),
                       npz=str(npz), gt=gt_sum, n=int(joined.shape[0]), duration=float(t[-1] - t[0])))
    return inputs


def prepare_still(tmp: Path) -> list[dict]:
    inputs = []
    js = json.loads(STATIONARY.read_text())
    t = np.array([s["timestamp"] for s in js], dtype=float)
    npz = tmp / "stationary.npz"
    np.savez(npz, t=t - t[0] + 1.5e9, x=np.array([s["x"] for s in js], float),
             y=np.array([s["y"] for s in js], float), z=np.array([s["z"] for s in js], float))
    inputs.append(dict(name="mPower still phone (stationary)", group="stationary", dataset="still",
                       path=str(STATIONARY), npz=str(npz), gt=0, n=len(js), duration=float(t[-1] - t[0])))
    return inputs


# --------------------------------------------------------------------------------------------------
def venv_dir(tool: str) -> Path:
    return HERE / f".venv-walking-{PEERS[tool][0]}"


def ensure_venv(tool: str, install: bool) -> str | None:
    """Returns None when ready, otherwise the reason it is not."""
    v = venv_dir(tool)
    marker = v / ".walking-installed"
    if marker.exists():
        return None
    if not install:
        return "venv missing (--no-install)"
    log(f"[{tool}] creating {v} and installing {PEERS[tool][2]} (first run only)…")
    try:
        subprocess.run([PY, "-m", "venv", str(v)], check=True, capture_output=True, text=True)
        for args in PEERS[tool][1]:
            r = subprocess.run([str(v / "bin" / "pip"), "install", "-q", *args], capture_output=True, text=True)
            if r.returncode != 0:
                tail = [l for l in (r.stderr or r.stdout).splitlines() if l.strip()][-1:] or ["?"]
                return f"pip install {' '.join(args)} failed: {tail[0][:200]}"
    except (OSError, subprocess.CalledProcessError) as e:
        return f"venv creation failed: {e}"
    freeze = subprocess.run([str(v / "bin" / "pip"), "freeze"], capture_output=True, text=True).stdout.split()
    key = [l for l in freeze if l.split("==")[0].lower() in ("numpy", "scipy", "pandas", "numba", "scikit-learn")]
    marker.write_text(" ".join(" ".join(a) for a in PEERS[tool][1]) + "\n" + " ".join(key) + "\n")
    return None


def venv_versions(tool: str) -> str:
    """numpy/scipy/pandas/… versions pip resolved in a peer's venv (second line of its marker), or ''."""
    try:
        lines = (venv_dir(tool) / ".walking-installed").read_text().splitlines()
        return ", ".join(x.replace("==", " ") for x in lines[1].split()) if len(lines) > 1 else ""
    except OSError:
        return ""


def run_peer(tool: str, inputs: list[dict], tmp: Path, repeats: int, install: bool) -> dict[str, dict]:
    base = VENV_OF.get(tool, tool)
    why = ensure_venv(base, install)
    if why:
        return {i["name"]: {"error": "not installed: " + why} for i in inputs}
    worker = tmp / "walking_worker.py"
    worker.write_text(WORKER)
    manifest = tmp / "manifest.json"
    manifest.write_text(json.dumps([{"name": i["name"], "npz": i["npz"], "cohort": i.get("cohort", "HA"),
                                     "frame": i.get("frame", "device")} for i in inputs]))
    out = tmp / f"out_{tool}.json"
    log(f"[{tool}] running on {len(inputs)} inputs…")
    r = subprocess.run([str(venv_dir(base) / "bin" / "python"), str(worker), tool, str(manifest), str(out), str(repeats),
                        CLOCK[0]],
                       capture_output=True, text=True)
    if not out.exists():
        tail = [l for l in r.stderr.splitlines() if l.strip()][-1:] or [f"exit {r.returncode}"]
        return {i["name"]: {"error": "worker crashed: " + tail[0][:200]} for i in inputs}
    res = json.loads(out.read_text())
    if "error" in res:
        return {i["name"]: {"error": res["error"]} for i in inputs}
    return {rec["name"]: rec for rec in res["results"]}


BUILD_NOTE: list[str] = []


def taskproc_binary(build: bool, given: str | None = None) -> Path:
    if given:
        exe = Path(given).absolute()
        if not exe.exists():
            raise SystemExit(f"--taskproc {given}: no such file")
        repo = next((d for d in exe.parents if (d / ".git").exists()), None)  # the checkout it was built in, if any
        if repo:
            TASKPROC_REPO.append(repo)
        BUILD_NOTE.append(f"taskproc binary given with --taskproc: `{given}` (modified "
                          f"{_dt.datetime.fromtimestamp(exe.stat().st_mtime, _dt.timezone.utc):%Y-%m-%d %H:%M} UTC)")
        return exe
    exe = REPO / ".build" / "release" / "taskproc"
    if build:
        log("building taskproc (swift build -c release --product taskproc)…")
        r = subprocess.run(["swift", "build", "-c", "release", "--product", "taskproc"], cwd=REPO,
                           capture_output=True, text=True)
        if r.returncode != 0:
            errs = [l for l in r.stdout.splitlines() + r.stderr.splitlines() if "error:" in l][:3]
            log("swift build failed:\n  " + "\n  ".join(errs or ["(no error line)"]))
            if not exe.exists():
                raise SystemExit("no taskproc binary to fall back to")
            BUILD_NOTE.append("swift build failed, so the existing .build/release/taskproc was used (built "
                              f"{_dt.datetime.fromtimestamp(exe.stat().st_mtime, _dt.timezone.utc):%Y-%m-%d %H:%M} UTC)")
            log("falling back to the existing binary")
    if not exe.exists():
        raise SystemExit(f"{exe} missing; run without --no-build")
    return exe


CLOCK = ["cpu"]  # --clock: "cpu" (default) or "wall"


def wall(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    """Time of one taskproc run: with --clock cpu the child's user + system CPU time (from the kernel's rusage of
    the waited-for child), with --clock wall the wall time."""
    u0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    t1 = time.perf_counter()
    u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if CLOCK[0] == "cpu":
        return (u1.ru_utime - u0.ru_utime) + (u1.ru_stime - u0.ru_stime), r
    return t1 - t0, r


def run_taskproc(exe: Path, inputs: list[dict], repeats: int) -> tuple[dict[str, dict], float]:
    base = statistics.median(wall([str(exe), "--version"])[0] for _ in range(max(5, repeats)))
    out = {}
    for i in inputs:
        times, r = [], None
        for _ in range(repeats):
            dt, r = wall([str(exe), "analyze", i["path"], "--format", "json", *i.get("args", [])])
            times.append(dt)
        if r.returncode != 0:
            out[i["name"]] = {"error": f"exit {r.returncode}: " + (r.stderr.strip().splitlines() or ["?"])[-1][:200]}
            continue
        try:
            res = json.loads(r.stdout)
            res = res if isinstance(res, list) else [res]
            walks = [x for x in res if isinstance(x, dict) and "stepCount" in x]
            steps = float(sum(x["stepCount"] for x in walks))
            cads = [x.get("cadence") for x in walks if x.get("cadence")]
            out[i["name"]] = dict(steps=steps, cadence=cads[0] if cads else None, seconds=statistics.median(times),
                                  load_s=None, startup_s=base,
                                  walking_s=sum(float(x.get("walkingDuration") or 0) for x in walks))
            if not walks:  # e.g. a recording recognised as a tremor or balance task: no step analysis, so no steps
                kinds = sorted({str(x.get("kind")) for x in res if isinstance(x, dict)})
                out[i["name"]]["note"] = "no walking result (kind " + ", ".join(kinds) + "): 0 steps"
        except (ValueError, KeyError, TypeError) as e:
            out[i["name"]] = {"error": f"unparsable output: {e}"}
    return out, base


# --------------------------------------------------------------------------------------------------
def fmt_rate(v: float | None) -> str:
    if v is None or not np.isfinite(v) or v <= 0:
        return "–"
    if v >= 1e6:
        return f"{v / 1e6:.2f} M"
    if v >= 1e3:
        return f"{v / 1e3:.1f} k"
    return f"{v:.0f}"


def fmt_s(v: float | None) -> str:
    if v is None:
        return "–"
    return f"{v * 1000:.1f} ms" if v < 1 else f"{v:.2f} s"


def err_pct(steps: float, gt: int) -> float | None:
    return None if gt == 0 else 100.0 * (steps - gt) / gt


TASKPROC_REPO: list[Path] = []  # the checkout a --taskproc binary was built in (PATH/.build/release/taskproc)


REV_AT_START: list[str] = []  # git_rev() taken when the taskproc binary was chosen (its checkout may move on)


def git_rev() -> str:
    if REV_AT_START:
        return REV_AT_START[0]
    repo = TASKPROC_REPO[0] if TASKPROC_REPO else REPO
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True,
                              text=True).stdout.strip() or "?"
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "Sources", "Package.swift"], cwd=repo,
                               capture_output=True, text=True).stdout.strip()
        return head + (" + uncommitted changes in Sources/ or Package.swift" if dirty else "")
    except OSError:
        return "?"


def machine_facts() -> list[str]:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem = int(next(l for l in open("/proc/meminfo") if l.startswith("MemTotal")).split()[1]) / 2**20
        mem_s = f"{mem:.0f} GiB"
    except (OSError, StopIteration):
        mem_s = "?"
    try:
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        swift = "?"
    la = os.getloadavg()
    return [f"Date: {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC",
            f"CPU: {cpu}, {os.cpu_count()} logical cores, {mem_s} RAM; kernel {platform.release()}",
            f"Load average when the run ended (1/5/15 min): {la[0]:.2f} / {la[1]:.2f} / {la[2]:.2f} (the machine is shared)",
            f"Swift: {swift} (`swift build -c release`); taskproc sources at `{git_rev()}`"
            + (f" (checkout `{TASKPROC_REPO[0]}`)" if TASKPROC_REPO else "")
            + ("; " + BUILD_NOTE[0] if BUILD_NOTE else ""),
            f"Driver Python {platform.python_version()}; peers in Python 3.11 venvs: "
            + "; ".join(f"{k}: {v[2]}" + (f" ({venv_versions(k)})" if venv_versions(k) else "")
                        for k, v in PEERS.items())]


def ok(res: dict, i: dict) -> bool:
    return "error" not in res.get(i["name"], {"error": 1})


GROUPS = [  # (group, short label for the summary) in the order of the headline table
    ("waw-sighted", "WeAllWalk sighted"), ("waw-guidedog", "WeAllWalk guide dog"), ("waw-longcane", "WeAllWalk long cane"),
    ("md-straight", "Mobilise-D straight walks"), ("md-daily", "Mobilise-D daily activities"),
    ("oxford12", "Oxford (4 walks × ~100/25/15 Hz)"),
]
GT_GROUPS = {"orig", "25hz", "15hz", "waw-sighted", "waw-guidedog", "waw-longcane", "md-straight", "md-daily"}


def in_group(i: dict, grp: str) -> bool:
    return i["group"] in ("orig", "25hz", "15hz") if grp == "oxford12" else i["group"] == grp


def mape_cell(res: dict, inputs: list[dict], grp: str) -> tuple[str, float | None]:
    members = [i for i in inputs if in_group(i, grp)]
    if not members:
        return "–", None
    errs = [abs(err_pct(res[i["name"]]["steps"], i["gt"])) for i in members if ok(res, i)]
    if not errs:
        return f"✗ (0/{len(members)} ran)", None
    m = statistics.mean(errs)
    return (f"{m:.2f} %" + ("" if len(errs) == len(members) else f" ({len(errs)}/{len(members)} ran)")), m


def cell(res: dict, i: dict) -> str:
    r = res.get(i["name"], {"error": "no result"})
    if "error" in r:
        return "✗"
    e = err_pct(r["steps"], i["gt"])
    return f"{r['steps']:g}" + ("" if e is None else f" ({e:+.1f} %)")


def report(inputs, results, tools, repeats, base, datasets) -> tuple[str, dict]:
    L = []
    L.append("# Walking step count: taskproc vs forest oak, gaitpy, pdkit, scikit-digital-health and mobgap")
    L.append("")
    L.append("Generated by `python3 Tools/peers/walking.py` (see Tools/peers/README.md). Every tool gets the same "
             "inputs from ../shared/data: **WeAllWalk** (60 iPhone walks, 25 Hz, left trouser pocket, indoor routes with "
             "turns and doors; sighted, guide-dog and long-cane walkers; annotated heel strikes), **Mobilise-D lab** "
             "(5 lower-back IMU trials, 100 Hz: 4 straight walks, 1 two-minute simulated-daily-activities trial; INDIP "
             "reference initial contacts), the 4 **Oxford** validation walks (Samsung S6, ~100 Hz, foot-switch ground "
             "truth) and the same walks linearly resampled to uniform 25 Hz and 15 Hz grids, and four recordings in which "
             "nobody walked (0 steps expected): a still mPower phone and mhealthtools' kinetic-tremor, rest-tremor and "
             "balance device-motion recordings. Error % = (detected − GT) / GT; MAPE = mean of |error %| over the files "
             "of a group. Peers run with their defaults (the docstring of walking.py gives each call and exactly how "
             "each input is given to it). Only the development participants named in ../shared/data/README.md are used.")
    L.append("")
    for f in machine_facts():
        L.append(f"- {f}")
    L.append(f"- Data sets in this run: {', '.join(datasets)}")
    L.append(f"- Timing: median of {repeats} run{'s' if repeats != 1 else ''}, "
             + ("**CPU time** (user + system, every thread of the process; time spent waiting for a core on the shared "
                "machine is left out: `--clock cpu`)" if CLOCK[0] == "cpu" else "**wall time** (`--clock wall`)")
             + ". **Peers**: *analysis* = only the analysis "
             "call on arrays already loaded in a warm Python process (that is what seconds and samples/s below use); "
             "*load* = np.load + building the tool's input objects (for mobgap: the frame rotation, resampling and its "
             "dataset object), shown separately; before timing, each peer makes one untimed warm-up call on the first "
             "input (imports, JIT). *First call* = the first timed call on that input. **taskproc**: the whole CLI "
             "`taskproc analyze FILE --format json` — process start, gzip/CSV (or JSON) decoding, analysis and "
             f"JSON output — so it is an upper bound on its analysis time; `taskproc --version` alone takes {fmt_s(base)} "
             "(process start), and the summary also gives samples/s after subtracting it. samples/s always counts the "
             "input's own samples (also for the tools fed a resampled copy).")
    L.append("")

    # ---------------- headline summary
    present = [(g, lab) for g, lab in GROUPS if any(in_group(i, g) for i in inputs)]
    still = [i for i in inputs if i["group"] == "stationary"]
    motion = [i for i in inputs if i["group"] == "motion"]
    joined = [i for i in inputs if i["group"] == "joined"]
    L.append("## Summary")
    L.append("")
    L.append("MAPE per group (a file a tool refused or crashed on is left out of its MAPE, and the cell says how many ran); "
             "*worst file* = the largest |error %| over every file with a ground truth; *false steps* = steps counted "
             "where nobody walked (0 expected); *samples/s* = input samples ÷ time on the ~13-min Oxford input "
             "(the 4 walks joined) and, in brackets, over all inputs that ran. taskproc: whole CLI (net of process start "
             "after the slash); peers: analysis call only.")
    L.append("")
    hdr = ["tool"] + [f"MAPE {lab}" for _, lab in present] + ["worst file"]
    if still:
        hdr.append("false steps: still phone")
    if motion:
        hdr.append("false steps: " + " / ".join(i["name"].replace("mhealthtools ", "") for i in motion))
    hdr += ["samples/s", "failed inputs"]
    L.append("| " + " | ".join(hdr) + " |")
    L.append("|---|" + "---:|" * (len(hdr) - 1))
    summary = {}
    for tool in tools:
        res = results[tool]
        row = [TOOL_LABEL[tool]]
        summary[tool] = {}
        for g, _ in present:
            c, m = mape_cell(res, inputs, g)
            row.append(c)
            summary[tool][g] = m
        signed = [(err_pct(res[i["name"]]["steps"], i["gt"]), i["name"]) for i in inputs
                  if i["group"] in GT_GROUPS and ok(res, i)]
        worst = max(signed, key=lambda p: abs(p[0])) if signed else None
        summary[tool]["worst"] = worst
        row.append("–" if not worst else f"{worst[1]}: {worst[0]:+.1f} %")
        if still:
            row.append(" / ".join("✗" if not ok(res, i) else f"{res[i['name']]['steps']:g}" for i in still))
        if motion:
            row.append(" / ".join("✗" if not ok(res, i) else f"{res[i['name']]['steps']:g}" for i in motion))
            summary[tool]["motion"] = [None if not ok(res, i) else res[i["name"]]["steps"] for i in motion]
        if still:
            summary[tool]["still"] = [None if not ok(res, i) else res[i["name"]]["steps"] for i in still]
        good = [i for i in inputs if ok(res, i)]
        tot_n = sum(i["n"] for i in good)
        tot_t = sum(res[i["name"]]["seconds"] for i in good)
        allr = fmt_rate(tot_n / tot_t) if tot_t else "–"
        if tool == "taskproc" and good:
            allr += " / " + fmt_rate(tot_n / sum(max(res[i["name"]]["seconds"] - base, 1e-9) for i in good))
        if joined and ok(res, joined[0]):
            jr = res[joined[0]["name"]]
            lr = fmt_rate(joined[0]["n"] / jr["seconds"])
            if tool == "taskproc":
                lr += " / " + fmt_rate(joined[0]["n"] / max(jr["seconds"] - base, 1e-9))
        else:
            lr = "✗" if joined else "–"
        row.append(f"{lr} ({allr})")
        row.append(f"{len(inputs) - len(good)} of {len(inputs)}")
        L.append("| " + " | ".join(row) + " |")
    L.append("")

    # ---------------- issue 17 targets for taskproc
    if "taskproc" in results:
        res = results["taskproc"]
        T = []
        waw = [i for i in inputs if i["dataset"] == "weallwalk"]
        if waw:
            for g, lab in GROUPS[:3]:
                m = summary["taskproc"].get(g)
                T.append((f"{lab}: MAPE ≤ 3 %", "–" if m is None else f"{m:.2f} %", m is not None and m <= 3))
            errs = [(abs(err_pct(res[i["name"]]["steps"], i["gt"])), i["name"]) for i in waw if ok(res, i)]
            if errs:
                w = max(errs)
                T.append(("WeAllWalk: no file worse than 8 %", f"worst {w[0]:.1f} % ({w[1]})",
                          w[0] <= 8 and len(errs) == len(waw)))
        for i in inputs:
            if i["group"] == "md-daily":
                e = err_pct(res[i["name"]]["steps"], i["gt"]) if ok(res, i) else None
                T.append((f"{i['name']}: within 8 % of the reference", "✗" if e is None else f"{e:+.1f} %",
                          e is not None and abs(e) <= 8))
        md = [i for i in inputs if i["group"] == "md-straight"]
        if md:
            d = [abs(res[i["name"]]["steps"] - i["gt"]) for i in md if ok(res, i)]
            T.append(("Mobilise-D straight walks: within 2 steps", "steps off: " + ", ".join(f"{x:g}" for x in d),
                      len(d) == len(md) and max(d) <= 2))
        if any(in_group(i, "oxford12") for i in inputs):
            m = summary["taskproc"].get("oxford12")
            T.append(("Oxford: MAPE ≤ 0.5 %", "–" if m is None else f"{m:.2f} %", m is not None and m <= 0.5))
        neg = still + motion
        if neg:
            v = [res[i["name"]]["steps"] if ok(res, i) else None for i in neg]
            T.append(("still, tremor and balance recordings: 0 steps",
                      ", ".join("✗" if x is None else f"{x:g}" for x in v), all(x == 0 for x in v)))
        if T:
            L.append("**taskproc against the issue-17 targets** (this run):")
            L.append("")
            L.append("| target | taskproc | met |")
            L.append("|---|---:|:---:|")
            for t, v, m in T:
                L.append(f"| {t} | {v} | {'yes' if m else '**no**'} |")
            L.append("")

    # ---------------- side by side per data set
    def side_by_side(title: str, members: list[dict], note: str = "") -> None:
        if not members:
            return
        L.append(f"### {title}")
        L.append("")
        if note:
            L.append(note)
            L.append("")
        L.append("| input | GT | " + " | ".join(TOOL_SHORT[t] for t in tools) + " |")
        L.append("|---|---:|" + "---:|" * len(tools))
        for i in members:
            L.append(f"| {i['name']} | {i['gt']} | " + " | ".join(cell(results[t], i) for t in tools) + " |")
        L.append("")

    L.append("## Side by side, per data set")
    L.append("")
    L.append("Detected steps (error %) per input and tool; ✗ = refused or crashed (the reason is in the tool's table "
             "below). Columns: " + "; ".join(f"*{TOOL_SHORT[t]}* = {TOOL_LABEL[t]}" for t in tools) + ".")
    L.append("")
    side_by_side("WeAllWalk (iPhone, left trouser pocket, 25 Hz)", [i for i in inputs if i["dataset"] == "weallwalk"],
                 "taskproc reads the CSVs with `" + " ".join(WAW_TASKPROC_ARGS) + "`.")
    md = [i for i in inputs if i["dataset"] == "mobilised"]
    side_by_side("Mobilise-D lab (lower back, 100 Hz)", md)
    if md:
        mg = [t for t in ("mobgap", "mobgap100") if t in tools]
        L.append("Mobilise-D: the reference, mobgap's own stored counts (`mobilise-d-lab/mobgap-results.csv`, computed by "
                 "the data set's curators from mobgap's example data with its gyroscope), mobgap run here on the "
                 "accelerometer-only CSV (gyroscope zeros), and taskproc; walking time in seconds in brackets.")
        L.append("")
        L.append("| input | test | cohort → pipeline | reference | mobgap stored | " +
                 " | ".join(f"{TOOL_SHORT[t]}, run here" for t in mg) + (" | taskproc |" if "taskproc" in tools else " |"))
        L.append("|---|---|---|---:|---:|" + "---:|" * (len(mg) + ("taskproc" in tools)))
        for i in md:
            st = i.get("stored_mobgap")
            cells = []
            for t in mg + (["taskproc"] if "taskproc" in tools else []):
                r = results[t].get(i["name"], {"error": 1})
                cells.append("✗" if "error" in r else f"{r['steps']:g} ({r.get('walking_s') or 0:.2f} s)")
            pl = next((results[t][i["name"]].get("pipeline") for t in mg if ok(results[t], i)), None)
            L.append(f"| {i['name']} | {i['test_name']} | {i['cohort']} → {pl or (st[2] if st else '?')} | "
                     f"{i['gt']} ({i['ref_walking_s']:.2f} s) | "
                     + (f"{st[0]:g} ({st[1]:.2f} s)" if st else "–") + " | " + " | ".join(cells) + " |")
        L.append("")
    ox = [i for i in inputs if i["dataset"] == "oxford"]
    side_by_side("Oxford (Samsung S6; hand, front/back pocket, neck pouch)", ox)
    side_by_side("Nobody walked (0 steps expected)", still + motion,
                 "The still phone is an mPower accelerometer JSON (g); the tremor and balance recordings are mPower-2 "
                 "device-motion JSON: taskproc reads the file, the peers get userAcceleration + gravity (g).")

    if ox:
        L.append("### Oxford per rate")
        L.append("")
        L.append("MAPE over the 4 Oxford walks at each rate (n = files that ran).")
        L.append("")
        L.append("| tool | MAPE orig (~100 Hz) | MAPE 25 Hz | MAPE 15 Hz | MAPE all 12 |")
        L.append("|---|---:|---:|---:|---:|")
        for tool in tools:
            res = results[tool]
            cells, allerr = [], []
            for grp in ("orig", "25hz", "15hz"):
                errs = [abs(err_pct(res[i["name"]]["steps"], i["gt"])) for i in inputs if i["group"] == grp and ok(res, i)]
                allerr += errs
                cells.append(f"{statistics.mean(errs):.2f} % (n={len(errs)})" if errs else "–")
            L.append(f"| {TOOL_LABEL[tool]} | " + " | ".join(cells) +
                     f" | {statistics.mean(allerr):.2f} % (n={len(allerr)}) |" if allerr else
                     f"| {TOOL_LABEL[tool]} | " + " | ".join(cells) + " | – |")
        L.append("")

    # ---------------- per-tool detail tables
    L.append("## Per tool and input")
    L.append("")
    for tool in tools:
        L.append(f"### {TOOL_LABEL[tool]}")
        L.append("")
        L.append("| input | samples | GT | detected | error % | cadence (spm) | seconds | samples/s | first call | load, or why it failed |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for i in inputs:
            r = results[tool].get(i["name"], {"error": "no result"})
            if "error" in r:
                L.append(f"| {i['name']} | {i['n']:,} | {i['gt']} | ✗ | – | – | – | – | – | {r['error']} |")
                continue
            e = err_pct(r["steps"], i["gt"])
            cad = f"{r['cadence']:.1f}" if r.get("cadence") else "–"
            L.append(f"| {i['name']} | {i['n']:,} | {i['gt']} | {r['steps']:g} | {'–' if e is None else f'{e:+.2f} %'} | "
                     f"{cad} | {fmt_s(r['seconds'])} | {fmt_rate(i['n'] / r['seconds'])} | {fmt_s(r.get('first_s'))} | "
                     f"{'–' if r.get('load_s') is None else fmt_s(r['load_s'])}"
                     f"{(' ' + r['note']) if r.get('note') else ''} |")
        L.append("")

    L.append("## Notes")
    L.append("")
    L.append("- **How mobgap is fed** (`MobilisedPipelineUniversal` with its default healthy/impaired pipelines; steps = "
             "Σ `n_raw_initial_contacts` over its final walking bouts `per_wb_parameters_`, the definition that reproduces "
             "the stored counts of the Mobilise-D straight walks; cadence = mean of the bouts' `cadence_spm`): "
             "acceleration in m/s², gyroscope in deg/s, a `GaitDatasetFromData` datapoint with the sensor "
             "`LowerBack`, `sampling_rate_hz`, participant metadata height 1.70 m, sensor height 0.90 m, cohort, and "
             "measurement condition `laboratory`. Cohort → pipeline: Mobilise-D trials their own cohort (HA → healthy, "
             "MS → impaired); WeAllWalk sighted and guide-dog → HA (healthy), long cane → MS (impaired); everything "
             "else → HA. Mobilise-D data are in mobgap's sensor frame already (x = vertical, y = medio-lateral, "
             "z = anterior-posterior) and go in unrotated; every phone recording (WeAllWalk, Oxford, mPower) is "
             "rotated once per recording so that x = the mean-acceleration (gravity) direction, z = the horizontal "
             "direction of largest acceleration variance, y = z × x — **phones in a pocket, hand or neck pouch are "
             "outside mobgap's design (a lower-back IMU) and are run anyway**. Gyroscope: WeAllWalk's raw gyroscope "
             "(columns 34–36) and the device-motion rotationRate, rotated the same way; none in the Mobilise-D CSVs, "
             "Oxford or the still phone, where mobgap gets zeros. mobgap uses the gyroscope only for left/right "
             "labelling (LrcUllrich) and turns (TdElGohary); gait-sequence detection (GsdIluz / GsdIonescu), "
             "initial contacts (IcdIonescu) and stride length (SlZijlstra) use the accelerometer alone, so the step "
             "count does not need it (with zeros, the Mobilise-D straight walks give exactly the stored counts). "
             "*mobgap (as is)* gets the samples at their own median rate; *mobgap (100 Hz)* gets them linearly "
             "interpolated onto a uniform 100 Hz grid (the Mobilise-D rate), like gaitpy's 50 Hz variant.")
    L.append("- oak's step count is the sum of its per-second cadence (Hz), so it is fractional. gaitpy's count is the "
             "sum of its per-bout `steps`; with no bout classifier it treats the whole recording as one bout. pdkit's "
             "cadence is steps ÷ the whole recording's duration (its definition). skdh's count is the number of initial "
             "contacts it reports, with its default `gait_pred=True` (whole recording is gait).")
    L.append("- Inputs: the Oxford *orig* rows, WeAllWalk, Mobilise-D and the mPower/mhealthtools JSON files are read by "
             "taskproc from ../shared/data as they are; the Oxford 25 Hz, 15 Hz and joined inputs are uncompressed CSVs "
             "written by this script (x/y/z linearly interpolated onto a uniform grid over the time-sorted, "
             "de-duplicated samples). Peers get the same samples converted to g, with Unix-second timestamps (Oxford: "
             "start time from the file name; every other recording shifted to start at 1.5e9 s). The reference numbers "
             "in ../shared/spec/walking-tapping.md §0 are on 12 Oxford files (both users); only the 4 user1 files are "
             "here.")
    L.append("")
    return "\n".join(L), summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per input and tool (median); 1 for speed")
    ap.add_argument("--no-build", action="store_true", help="use .build/release/taskproc as it is")
    ap.add_argument("--taskproc", metavar="PATH", help="use this taskproc binary (no build)")
    ap.add_argument("--no-install", action="store_true", help="do not create missing venvs")
    ap.add_argument("--only", default=",".join(TOOLS), help="comma-separated subset of " + ",".join(TOOLS))
    ap.add_argument("--data", default=",".join(DATASETS), help="comma-separated subset of " + ",".join(DATASETS))
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu (default): CPU time of the tool's process (peers: all its threads; taskproc: the child's "
                         "user+sys), which leaves out time descheduled on a shared machine; wall: elapsed time")
    ap.add_argument("--output", default=str(HERE / "WALKING.md"))
    args = ap.parse_args()
    CLOCK[0] = args.clock
    tools = [t for t in TOOLS if t in args.only.split(",")]
    datasets = [d for d in DATASETS if d in args.data.split(",")]
    unknown = [x for x in args.only.split(",") if x not in TOOLS] + [x for x in args.data.split(",") if x not in DATASETS]
    if unknown:
        raise SystemExit("unknown --only/--data entries: " + ", ".join(unknown))
    exe = taskproc_binary(not args.no_build, args.taskproc) if "taskproc" in tools else None
    results: dict[str, dict] = {}
    base = 0.0
    with tempfile.TemporaryDirectory(prefix="walking-compare-") as td:
        tmp = Path(td)
        log(f"preparing inputs ({', '.join(datasets)})…")
        inputs = prepare_inputs(tmp, datasets)
        if exe is not None and args.taskproc:
            # a snapshot, so that every input sees the same binary even if its checkout is rebuilt during the run
            snap = tmp / "taskproc"
            shutil.copy2(exe, snap)
            exe = snap
        if "taskproc" in tools:
            REV_AT_START.append(git_rev() + " when the run started")
        for tool in tools:
            t0 = time.perf_counter()
            if tool == "taskproc":
                log(f"[taskproc] running on {len(inputs)} inputs…")
                results[tool], base = run_taskproc(exe, inputs, args.repeats)
            else:
                results[tool] = run_peer(tool, inputs, tmp, args.repeats, not args.no_install)
            log(f"[{tool}] done in {time.perf_counter() - t0:.0f} s")
    text, _ = report(inputs, results, tools, args.repeats, base, datasets)
    print(text)
    Path(args.output).write_text(text)
    log(f"wrote {args.output}")


if __name__ == "__main__":
    main()
