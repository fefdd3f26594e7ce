#!/usr/bin/env python3
"""Spatial-temporal gait side by side: taskproc, mobgap, gaitpy and skdh against the INDIP reference of Mobilise-D.

For each Mobilise-D lab trial in ../shared/data/mobilise-d-lab (development participants only: HA 001 and the MS 001
straight walks, as that README says) this runs

- taskproc: `taskproc analyze <trial>.imu.csv.gz --sensor-height <participants.csv sensor_height_m> --format json`
  (lower back; steps, contacts and lengths from the accelerometer, turns from the gyroscope, whose unit it detects),
- mobgap 1.2.0 `MobilisedPipelineUniversal` on `<trial>.imu.csv.gz` (accelerometer and gyroscope, already in the
  Mobilise-D body frame) with the same sensor height and the participant's cohort, from the venv
  Tools/peers/.venv-walking-mobgap (created with `pip install mobgap==1.2.0` when missing; `--no-mobgap` skips it),
- gaitpy 1.6.1 (lumbar, accelerometer only) on `<trial>.csv.gz`: |a| in g, linearly interpolated by us onto a uniform
  50 Hz grid (its best configuration, ../shared/spec/walking-tapping.md), `Gaitpy.extract_features` with the
  participant's sensor height as `sensor_height_ratio` 0.53 × a subject height of sensor height / 0.53; its bouts
  are `bout_number` groups (start `bout_start_time`, length `bout_length_sec`), their cadence, stride length and
  gait speed the means over the bout's gait cycles. From the venv Tools/peers/.venv-walking-gaitpy (the pins of
  Tools/peers/walking.py; `--no-gaitpy` skips it),
- scikit-digital-health 0.17.18 (skdh) on `<trial>.imu.csv.gz`, its documented lumbar pipeline: gait bouts from its
  own classifier `skdh.context.PredictGaitLumbarLgbm` (3 s windows), then `skdh.gait.GaitLumbar()` with its defaults
  (8 s shortest bout, AP-CWT contacts) given the accelerometer in g, the gyroscope in rad/s (for turns; the file's
  is deg/s) and a height of sensor height / 0.53 (its `height_factor`, so its leg length is the sensor height). Its
  bouts are `Bout N` groups (start `Bout Starts`, length `Bout Duration`, `Bout Steps` contacts), their cadence,
  stride length and gait speed the means over the bout's strides. From the venv Tools/peers/.venv-walking-skdh
  (`pip install scikit-digital-health==0.17.18`; `--no-skdh` skips it). Its classifier finds little walking in these
  short trials, so skdh is run a second time ("skdh whole trial") with the whole trial given as one gait bout, as
  Tools/peers/walking.py runs it,

and compares each tool's walking bouts with the reference bouts of reference-bouts.csv:

- bouts: a reference bout is *found* when a tool's bout overlaps it; each tool bout is matched to at most one
  reference bout (greatest overlap first). Sensitivity = found / reference bouts, precision = matched / tool bouts;
  time sensitivity / precision = the share of reference walking time inside tool bouts and of tool bout time
  inside reference bouts.
- per matched bout: absolute errors of cadence (steps/min), stride length (m) and walking speed (m/s); the mean
  absolute error (MAE) over the matched bouts, per group (straight walks, daily activities) and overall.
- turns per reference bout: taskproc's `turnEvents` whose peak lies in the reference bout (independent of its own
  bouts), and mobgap's turns (`raw_turn_list_`) whose middle lies in it, against the reference's `turns` (gaitpy
  detects no turns).

Writes Benchmarks/compare/WALKING.md (and prints it). Usage:
    python3 Benchmarks/compare/walking.py [--taskproc PATH] [--no-mobgap] [--no-gaitpy] [--out FILE]
"""
from __future__ import annotations

import argparse
import csv
import datetime
import gzip
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = ROOT.parent / "shared" / "data" / "mobilise-d-lab"
VENV = ROOT / "Tools" / "peers" / ".venv-walking-mobgap"
GAITPY_VENV = ROOT / "Tools" / "peers" / ".venv-walking-gaitpy"
SKDH_VENV = ROOT / "Tools" / "peers" / ".venv-walking-skdh"
GAITPY_PINS = [["--no-deps", "gaitpy==1.6.1"],
               ["numpy<1.25", "scipy<1.12", "pandas<2", "scikit-learn<1.3", "statsmodels<0.15", "PyWavelets<1.5",
                "tables<3.9", "bokeh", "dill", "deepdish"]]

GAITPY_WORKER = r'''
import contextlib, io, json, sys, warnings
import numpy as np, pandas as pd
warnings.filterwarnings("ignore")
from gaitpy.gait import Gaitpy
path, sensor_height = sys.argv[1], float(sys.argv[2])
a = np.loadtxt(path, delimiter=",", skiprows=1)
t = np.arange(a[0, 0], a[-1, 0], 0.02)
v = np.sqrt(sum(np.interp(t, a[:, 0], a[:, k]) ** 2 for k in (1, 2, 3))) / 9.80665
df = pd.DataFrame({"timestamps": t * 1000.0, "v": v})
with contextlib.redirect_stdout(io.StringIO()):
    g = Gaitpy(df, 50.0, v_acc_col_name="v", ts_col_name="timestamps", v_acc_units="g", ts_units="ms")
    f = g.extract_features(100 * sensor_height / 0.53, subject_height_units="centimeters", sensor_height_ratio=0.53)
bouts = []
if f is not None and not f.empty:
    for _, b in f.groupby("bout_number"):
        start = pd.Timestamp(b["bout_start_time"].iloc[0]).value / 1e9
        def m(k):
            x = b[k].dropna()
            return float(x.mean()) if len(x) else None
        bouts.append(dict(start=start, end=start + float(b["bout_length_sec"].iloc[0]), cadence=m("cadence"),
                          strideLength=m("stride_length"), walkingSpeed=m("gait_speed"),
                          steps=float(b["steps"].iloc[0])))
json.dump(dict(bouts=bouts), sys.stdout)
'''

SKDH_WORKER = r'''
import json, sys, warnings
import numpy as np
warnings.filterwarnings("ignore")
from skdh.context import PredictGaitLumbarLgbm
from skdh.gait import GaitLumbar
path, sensor_height, mode = sys.argv[1], float(sys.argv[2]), sys.argv[3]
a = np.loadtxt(path, delimiter=",", skiprows=1)
origin = 1.7e9  # unix seconds: skdh splits the recording into days by the clock
t = a[:, 0] + origin
acc = a[:, 1:4] / 9.80665
if mode == "whole":
    starts, stops = np.array([0]), np.array([len(t) - 1])
else:
    gb = PredictGaitLumbarLgbm().predict(time=t, accel=acc)
    starts = np.asarray(gb["Gait Bout Start Index"], dtype=int)
    stops = np.asarray(gb["Gait Bout Stop Index"], dtype=int)
bouts = []
if starts.size:
    r = GaitLumbar().predict(time=t, accel=acc, gyro=np.deg2rad(a[:, 4:7]), height=sensor_height / 0.53,
                             gait_bouts=np.column_stack([starts, stops]))
    n = np.asarray(r["Bout N"])
    for b in np.unique(n):
        sel = n == b
        def m(k):
            x = np.asarray(r[k], dtype=float)[sel]
            x = x[np.isfinite(x)]
            return float(x.mean()) if x.size else None
        start = float(np.asarray(r["Bout Starts"])[sel][0]) - origin
        bouts.append(dict(start=start, end=start + float(np.asarray(r["Bout Duration"])[sel][0]),
                          cadence=m("cadence"), strideLength=m("stride length"), walkingSpeed=m("gait speed"),
                          steps=float(np.asarray(r["Bout Steps"])[sel][0])))
json.dump(dict(bouts=bouts, classified=[[float(a[i, 0]), float(a[min(j, len(a) - 1), 0])]
                                        for i, j in zip(starts, stops)]), sys.stdout)
'''

MOBGAP_WORKER = r'''
import json, sys, warnings
import numpy as np, pandas as pd
warnings.filterwarnings("ignore")
from mobgap.data import GaitDatasetFromData
from mobgap.pipeline import MobilisedPipelineUniversal
path, height, sensor_height, cohort = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
a = np.loadtxt(path, delimiter=",", skiprows=1)
fs = 1.0 / float(np.median(np.diff(a[:, 0])))
df = pd.DataFrame(a[:, 1:7], columns=["acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z"])
ds = GaitDatasetFromData({"rec": {"LowerBack": df}}, fs,
                         {"rec": dict(height_m=height, sensor_height_m=sensor_height, cohort=cohort)},
                         {"rec": dict(measurement_condition="laboratory")})
pl = MobilisedPipelineUniversal().run(ds[0])
wb = pl.per_wb_parameters_
bouts = []
if wb is not None:
    for _, r in wb.iterrows():
        def f(k):
            v = r.get(k)
            return None if v is None or pd.isna(v) else float(v)
        bouts.append(dict(start=float(r["start"]) / fs, end=float(r["end"]) / fs, cadence=f("cadence_spm"),
                          strideLength=f("stride_length_m"), walkingSpeed=f("walking_speed_mps"),
                          steps=f("n_raw_initial_contacts")))
turns = pl.raw_turn_list_
centres = [] if turns is None else [float(r["start"] + r["end"]) / 2 / fs for _, r in turns.iterrows()]
json.dump(dict(pipeline=pl.pipeline_name_, bouts=bouts, turns=centres), sys.stdout)
'''


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def find_walking(document):
    """The first walking result anywhere in taskproc's JSON output."""
    if isinstance(document, dict):
        if document.get("kind") == "walking":
            return document
        for v in document.values():
            found = find_walking(v)
            if found:
                return found
    if isinstance(document, list):
        for v in document:
            found = find_walking(v)
            if found:
                return found
    return None


def run_taskproc(exe: Path, trial: Path, sensor_height: float) -> tuple[list[dict], list[float]]:
    """The bouts, and the peak time of every turn (s from the recording's start)."""
    out = subprocess.run([str(exe), "analyze", str(trial), "--sensor-height", str(sensor_height), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    walking = find_walking(json.loads(out))
    origin = walking.get("timeOrigin") or 0.0
    peaks = [origin + t["peak"] for t in (walking.get("turnEvents") or [])]
    bouts = [dict(start=origin + b["start"], end=origin + b["end"], cadence=b.get("cadence"),
                  strideLength=b.get("strideLength"), walkingSpeed=b.get("walkingSpeed"), steps=b["steps"],
                  turns=b.get("turns")) for b in walking["bouts"]]
    return bouts, peaks


def ensure_venv(venv: Path, what: str, pin_sets: list[list[str]]) -> Path:
    """The venv's python, creating the venv with `pip install` of each pin set in turn when it is missing."""
    python = venv / "bin" / "python"
    if not python.exists():
        print("creating", venv, f"(pip install {what})", file=sys.stderr)
        subprocess.run(["python3.11", "-m", "venv", str(venv)], check=True)
        for pins in pin_sets:
            subprocess.run([str(python), "-m", "pip", "install", "-q", *pins], check=True)
    return python


def run_worker(python: Path, worker: str, trial: Path, tag: str, *args: str) -> dict:
    """Runs a peer's worker script on the trial decompressed to /tmp (the peers read plain CSV); its JSON output."""
    with gzip.open(trial, "rt") as f:
        text = f.read()
    plain = Path("/tmp") / (trial.name.removesuffix(".gz") + f".{tag}.csv")
    plain.write_text(text)
    out = subprocess.run([str(python), "-c", worker, str(plain), *args], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def run_skdh(python: Path, imu: Path, participant: dict, mode: str) -> list[dict]:
    """skdh's bouts on the IMU file (t, accelerometer m/s², gyroscope deg/s)."""
    return run_worker(python, SKDH_WORKER, imu, "skdh", participant["sensor_height_m"], mode)["bouts"]


def run_gaitpy(python: Path, trial: Path, participant: dict) -> list[dict]:
    """gaitpy's bouts on the accelerometer file (t, x, y, z in m/s²)."""
    return run_worker(python, GAITPY_WORKER, trial, "gaitpy", participant["sensor_height_m"])["bouts"]


def run_mobgap(python: Path, imu: Path, participant: dict, cohort: str) -> tuple[list[dict], list[float]]:
    """The bouts, and the middle of every turn mobgap's El-Gohary detector finds in its gait sequences (s)."""
    result = run_worker(python, MOBGAP_WORKER, imu, "mobgap", participant["height_m"], participant["sensor_height_m"],
                        cohort)
    return result["bouts"], result["turns"]


def overlap(a: dict, b: dict) -> float:
    return max(0.0, min(a["end"], b["end"]) - max(a["start"], b["start"]))


def match(reference: list[dict], found: list[dict]) -> list[tuple[dict, dict]]:
    """One-to-one pairs of overlapping bouts, greatest overlap first."""
    pairs = sorted(((overlap(r, f), i, j) for i, r in enumerate(reference) for j, f in enumerate(found)), reverse=True)
    used_r, used_f, out = set(), set(), []
    for o, i, j in pairs:
        if o <= 0 or i in used_r or j in used_f:
            continue
        used_r.add(i)
        used_f.add(j)
        out.append((reference[i], found[j]))
    return out


def covered(intervals: list[dict], by: list[dict]) -> float:
    return sum(overlap(a, b) for a in intervals for b in by)


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def fmt(v: float | None, digits: int = 3, unit: str = "") -> str:
    return "—" if v is None else f"{v:.{digits}f}{unit}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--taskproc", default=str(ROOT / ".build" / "release" / "taskproc"))
    ap.add_argument("--no-mobgap", action="store_true")
    ap.add_argument("--no-gaitpy", action="store_true")
    ap.add_argument("--no-skdh", action="store_true")
    ap.add_argument("--out", default=str(HERE / "WALKING.md"))
    args = ap.parse_args()
    exe = Path(args.taskproc)
    if not exe.exists():
        subprocess.run(["swift", "build", "-c", "release", "--product", "taskproc"], cwd=ROOT, check=True)
    participants = {r["participant"]: r for r in read_csv(DATA / "participants.csv")}
    truth = read_csv(DATA / "truth.csv")
    reference = read_csv(DATA / "reference-bouts.csv")
    mobgap = None if args.no_mobgap else ensure_venv(VENV, "mobgap==1.2.0", [["mobgap==1.2.0"]])
    gaitpy = None if args.no_gaitpy else ensure_venv(GAITPY_VENV, "gaitpy==1.6.1 with pinned dependencies",
                                                     GAITPY_PINS)
    skdh = None if args.no_skdh else ensure_venv(SKDH_VENV, "scikit-digital-health==0.17.18",
                                                 [["scikit-digital-health==0.17.18"]])
    tools = ["taskproc"] + (["mobgap"] if mobgap else []) + (["gaitpy"] if gaitpy else []) + (["skdh", "skdh whole trial"] if skdh else [])

    rows: dict[str, list[dict]] = {t: [] for t in tools}  # per matched bout
    counts = {t: dict(ref=0, found=0, tool=0, matched=0, ref_s=0.0, ref_cov=0.0, tool_s=0.0, tool_cov=0.0)
              for t in tools}
    per_bout_lines = []
    turn_lines: list[str] = []
    turn_errors: list[int] = []
    mobgap_turn_errors: list[int] = []
    pipelines = set()
    for trial in truth:
        name = trial["file"]
        stem = name.removesuffix(".csv.gz")
        participant = participants[stem[:6]]
        group = "daily activities" if trial["test"] == "Test11" else "straight walks"
        ref = [dict(start=float(r["start_s"]), end=float(r["end_s"]), cadence=float(r["cadence_spm"]),
                    strideLength=float(r["stride_length_m"]), walkingSpeed=float(r["walking_speed_mps"]),
                    turns=int(r["turns"]), bout=r["bout"]) for r in reference if r["file"] == name]
        bouts, peaks = run_taskproc(exe, DATA / (stem + ".imu.csv.gz"), float(participant["sensor_height_m"]))
        found = {"taskproc": bouts}
        mobgap_turns: list[float] = []
        if mobgap:
            found["mobgap"], mobgap_turns = run_mobgap(mobgap, DATA / (stem + ".imu.csv.gz"), participant,
                                                       trial["cohort"])
        if gaitpy:
            found["gaitpy"] = run_gaitpy(gaitpy, DATA / name, participant)
        if skdh:
            found["skdh"] = run_skdh(skdh, DATA / (stem + ".imu.csv.gz"), participant, "classifier")
            found["skdh whole trial"] = run_skdh(skdh, DATA / (stem + ".imu.csv.gz"), participant, "whole")
        for tool in tools:
            bouts = found[tool]
            pairs = match(ref, bouts)
            c = counts[tool]
            c["ref"] += len(ref)
            c["tool"] += len(bouts)
            c["matched"] += len(pairs)
            c["ref_s"] += sum(r["end"] - r["start"] for r in ref)
            c["tool_s"] += sum(b["end"] - b["start"] for b in bouts)
            c["ref_cov"] += covered(ref, bouts)
            c["tool_cov"] += covered(bouts, ref)
            for r, b in pairs:
                row = dict(group=group, trial=stem, bout=r["bout"], ref=r, tool=b)
                rows[tool].append(row)
        for r in ref:
            inside = sum(1 for p in peaks if r["start"] <= p <= r["end"])
            cells = [stem, r["bout"], str(r["turns"]), str(inside)]
            if mobgap:
                theirs = sum(1 for p in mobgap_turns if r["start"] <= p <= r["end"])
                cells.append(str(theirs))
                mobgap_turn_errors.append(abs(theirs - r["turns"]))
            turn_lines.append("| " + " | ".join(cells) + " |")
            turn_errors.append(abs(inside - r["turns"]))
            cells = [stem, r["bout"], f"{r['start']:.2f}–{r['end']:.2f}", fmt(r["cadence"], 1), fmt(r["strideLength"], 2),
                     fmt(r["walkingSpeed"], 2)]
            for tool in tools:
                hit = next((row["tool"] for row in rows[tool] if row["ref"] is r), None)
                cells += ([f"{hit['start']:.2f}–{hit['end']:.2f}", fmt(hit["cadence"], 1), fmt(hit["strideLength"], 2),
                           fmt(hit["walkingSpeed"], 2)] if hit else ["not found", "", "", ""])
            per_bout_lines.append("| " + " | ".join(cells) + " |")

    def mae(tool: str, key: str, group: str | None) -> tuple[float | None, int]:
        errors = [abs(row["tool"][key] - row["ref"][key]) for row in rows[tool]
                  if (group is None or row["group"] == group) and row["tool"].get(key) is not None]
        return mean(errors), len(errors)

    lines = ["# Spatial-temporal gait: taskproc, mobgap, gaitpy and skdh against the Mobilise-D INDIP reference", "",
             f"Generated by `python3 Benchmarks/compare/walking.py` on {datetime.date.today().isoformat()} "
             + f"(taskproc `{subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout.strip()}`). "
             + "Inputs: the 5 Mobilise-D lab trials of the development participants (lower back, 100 Hz); taskproc "
             + "reads the `.imu.csv.gz` files (accelerometer for steps and lengths, gyroscope for turns) and is given "
             + "each participant's measured sensor height "
             + "(`--sensor-height`); mobgap 1.2.0 `MobilisedPipelineUniversal` gets the accelerometer and gyroscope, "
             + "the same sensor height and the cohort; gaitpy 1.6.1 gets |a| of the accelerometer file at 50 Hz and the "
             + "same sensor height; skdh 0.17.18 runs its lumbar gait classifier and `GaitLumbar` (defaults) on the "
             + "accelerometer and gyroscope with a leg length of the sensor height (\"skdh whole trial\": the whole trial "
             + "given to `GaitLumbar` as one gait bout). Matching: see the script's "
             + "docstring.", "",
             "| tool | group | bouts found (sensitivity) | bout precision | time sensitivity | time precision | "
             + "cadence MAE, steps/min | stride length MAE, m | walking speed MAE, m/s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for tool in tools:
        c = counts[tool]
        for group in ["straight walks", "daily activities", None]:
            label = group or "all"
            if group is None:
                sens = f"{c['matched']} of {c['ref']}"
                prec = f"{c['matched']} of {c['tool']}"
                ts = fmt(100 * c["ref_cov"] / c["ref_s"], 0, " %") if c["ref_s"] else "—"
                tp = fmt(100 * c["tool_cov"] / c["tool_s"], 0, " %") if c["tool_s"] else "—"
            else:
                n = sum(1 for row in rows[tool] if row["group"] == group)
                sens, prec, ts, tp = f"{n} matched", "", "", ""
            cells = [tool, label, sens, prec, ts, tp]
            for key, d in [("cadence", 1), ("strideLength", 3), ("walkingSpeed", 3)]:
                m, n = mae(tool, key, group)
                cells.append(f"{fmt(m, d)} (n = {n})")
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Targets (issue 53): walking speed MAE ≤ 0.10 m/s, stride length ≤ 0.10 m, cadence within 3 "
              + "steps/min, per reference bout.", "", "## Per reference bout", "",
              "| trial | bout | reference | cadence | stride length | speed | "
              + " | ".join(f"{t} bout | cadence | stride length | speed" for t in tools) + " |",
              "|---|---|---|---:|---:|---:|" + "---|---:|---:|---:|" * len(tools)]
    lines += per_bout_lines
    lines += ["", "## Turns per reference bout", "",
              "taskproc: the turns (`turnEvents`) whose peak lies in the reference bout; mobgap: the turns of its "
              + "`raw_turn_list_` (El-Gohary in its gait sequences) whose middle lies in the reference bout. Sum of "
              + f"absolute count errors: taskproc {sum(turn_errors)}"
              + (f", mobgap {sum(mobgap_turn_errors)}" if mobgap else "") + f" over {len(turn_errors)} bouts.", "",
              "| trial | bout | INDIP turns | taskproc | " + ("mobgap |" if mobgap else ""),
              "|---|---|---:|---:|" + ("---:|" if mobgap else "")]
    lines += turn_lines
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
