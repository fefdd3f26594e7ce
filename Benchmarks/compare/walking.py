#!/usr/bin/env python3
"""taskproc walking (step count) vs the open peers, on the same inputs.

    python3 Benchmarks/compare/walking.py [--repeats N] [--no-build] [--only oak,gaitpy,...] [--no-install]

Peers (see ../shared/spec/walking-tapping.md §2 for the pins and workarounds used here):
  oak     beiwe-forest 1.0, forest.oak.base.preprocess_bout + find_walking; steps = Σ per-second cadence
  gaitpy  gaitpy 1.6.1 (--no-deps + pinned deps), Gaitpy(‖a‖ as the vertical axis).extract_features,
          fed the input as is (it resamples to 50 Hz itself and refuses < 50 Hz)
  gaitpy50  the same, but fed the input after *our* linear resampling to a uniform 50 Hz grid (the spec's
          1.05 % configuration; avoids its crash on duplicate/backwards timestamps and runs on 25/15 Hz inputs)
  pdkit   pdkit 1.4.4 (pinned old numpy/scipy/pandas), GaitProcessor.resample_signal + gait(‖a‖)
  skdh    scikit-digital-health 0.17.18, skdh.gait.GaitLumbar().predict (defaults; whole recording = gait)

Each peer lives in its own venv, Benchmarks/compare/.venv-walking-<tool> (git-ignored), created with
Python 3.11 on first run. The peers are only installed from PyPI and called; none of their code is copied here.

Inputs (identical for every tool): the 4 Oxford validation walks (../shared/data/oxford-step-counter), the same
walks linearly resampled to uniform 25 Hz and 15 Hz grids (written as headerless 7-column Oxford CSVs in a temp
dir so that taskproc reads them exactly like the originals), and the still mPower recording
(../shared/data/mpower-samples/pdkit_mpower_gait_stationary.json, expected 0 steps).
Ground truth = the number of +1 increments of column 6 (steps_ground_truth) of the original file.

Timing:
  peers     "load" = np.load of the prepared arrays + building the tool's input objects (DataFrames, resampling
            for gaitpy50); "analysis" = only the tool's analysis call(s) on those loaded objects.
            Median of --repeats runs, in one warm Python process per tool.
  taskproc  wall time of the whole CLI `taskproc analyze FILE --format json` (process start, gzip/CSV or JSON
            decode, analysis, JSON output), median of --repeats; also the same minus the median of
            `taskproc --version` (process start only). samples/s = input samples / time.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import json
import os
import platform
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
}
TOOLS = ["taskproc", "oak", "gaitpy", "gaitpy50", "pdkit", "skdh"]
TOOL_LABEL = {
    "taskproc": "taskproc (CLI)",
    "oak": "forest oak",
    "gaitpy": "gaitpy (own resampling)",
    "gaitpy50": "gaitpy (input resampled to 50 Hz by us)",
    "pdkit": "pdkit",
    "skdh": "skdh GaitLumbar",
}

# --------------------------------------------------------------------------------------------------
# The worker runs inside a peer's venv. It only imports and calls the peer.
WORKER = r'''
import contextlib, io, json, statistics, sys, time, traceback, warnings
import numpy as np
warnings.filterwarnings("ignore")
tool, manifest_path, out_path, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
manifest = json.load(open(manifest_path))

def fs_of(t):
    d = np.diff(t); d = d[d > 0]
    return 1.0 / float(np.median(d))

def uniform(t, x, y, z, fs):
    o = np.argsort(t, kind="stable"); t, x, y, z = t[o], x[o], y[o], z[o]
    keep = np.concatenate([[True], np.diff(t) > 0]); t, x, y, z = t[keep], x[keep], y[keep], z[keep]
    tu = np.arange(t[0], t[-1], 1.0 / fs)
    return tu, np.interp(tu, t, x), np.interp(tu, t, y), np.interp(tu, t, z)

def prepare(d):
    t, x, y, z = d["t"], d["x"], d["y"], d["z"]
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

results = []
# import the peer once, outside the timing (module import is not the analysis)
try:
    with contextlib.redirect_stdout(io.StringIO()):
        if tool == "oak": import forest.oak.base
        elif tool.startswith("gaitpy"): import gaitpy.gait
        elif tool == "pdkit": import pdkit.gait_processor
        elif tool == "skdh": import skdh.gait
except BaseException as e:
    json.dump({"error": "import failed: %s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")}, open(out_path, "w"))
    sys.exit(0)

# one untimed warm-up call on the first input (lazy imports, JIT/caches), so the medians are steady-state
try:
    with contextlib.redirect_stdout(io.StringIO()):
        analyse(prepare(dict(np.load(manifest[0]["npz"]))))
except BaseException:
    pass

for item in manifest:
    rec = {"name": item["name"]}
    try:
        lt = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            d = dict(np.load(item["npz"]))
            p = prepare(d)
            lt.append(time.perf_counter() - t0)
        rec["load_s"] = statistics.median(lt)
        at = []
        for _ in range(repeats):
            p = prepare(d)
            buf = io.StringIO()
            t0 = time.perf_counter()
            try:
                with contextlib.redirect_stdout(buf):
                    steps, cad = analyse(p)
            except BaseException as e:
                msg = str(e).splitlines()[0] if str(e) else ""
                printed = [l.strip() for l in buf.getvalue().splitlines() if "abort" in l or "too low" in l]
                raise RuntimeError("%s: %s%s" % (type(e).__name__, msg[:160], (" — tool says: " + printed[-1][:160]) if printed else ""))
            at.append(time.perf_counter() - t0)
        rec.update(steps=steps, cadence=cad, seconds=statistics.median(at), first_s=at[0])
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


def prepare_inputs(tmp: Path) -> list[dict]:
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
            inputs.append(dict(name=label, group="orig" if rate is None else f"{int(rate)}hz", path=str(csv),
                               npz=str(npz), gt=gt, n=int(a.shape[0]), duration=float(t[-1] - t[0])))
    # The 4 original walks joined back to back (~13 min, like the spec's 10-min throughput input): each file's
    # timestamps continue one median interval after the previous file's last sample; GT is the sum.
    parts, shift, gt_sum = [], 0.0, 0
    for gz in sorted(OXFORD.glob("*.csv.gz")):
        raw = load_oxford(gz)
        gt_sum += ground_truth(raw[:, 5])
        a = raw.copy()
        a[:, 0] = a[:, 0] - a[0, 0] + shift
        shift = a[-1, 0] + float(np.median(np.diff(raw[:, 0])))
        parts.append(a)
    joined = np.vstack(parts)
    csv = tmp / "oxford_user1_joined.csv"
    write_oxford_csv(csv, joined)
    t = joined[:, 0] / 1e9 + 1506421989.895
    npz = tmp / "oxford_user1_joined.npz"
    np.savez(npz, t=t, x=joined[:, 1] / G, y=joined[:, 2] / G, z=joined[:, 3] / G)
    inputs.append(dict(name="4 walks joined (orig, ~13 min)", group="joined", path=str(csv), npz=str(npz), gt=gt_sum,
                       n=int(joined.shape[0]), duration=float(t[-1] - t[0])))
    js = json.loads(STATIONARY.read_text())
    t = np.array([s["timestamp"] for s in js], dtype=float)
    npz = tmp / "stationary.npz"
    np.savez(npz, t=t - t[0] + 1.5e9, x=np.array([s["x"] for s in js], float),
             y=np.array([s["y"] for s in js], float), z=np.array([s["z"] for s in js], float))
    inputs.append(dict(name="mPower still phone (stationary)", group="stationary", path=str(STATIONARY), npz=str(npz),
                       gt=0, n=len(js), duration=float(t[-1] - t[0])))
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
    marker.write_text(" ".join(" ".join(a) for a in PEERS[tool][1]) + "\n")
    return None


def run_peer(tool: str, inputs: list[dict], tmp: Path, repeats: int, install: bool) -> dict[str, dict]:
    base = "gaitpy" if tool == "gaitpy50" else tool
    why = ensure_venv(base, install)
    if why:
        return {i["name"]: {"error": "not installed: " + why} for i in inputs}
    worker = tmp / "walking_worker.py"
    worker.write_text(WORKER)
    manifest = tmp / "manifest.json"
    manifest.write_text(json.dumps([{"name": i["name"], "npz": i["npz"]} for i in inputs]))
    out = tmp / f"out_{tool}.json"
    log(f"[{tool}] running on {len(inputs)} inputs…")
    r = subprocess.run([str(venv_dir(base) / "bin" / "python"), str(worker), tool, str(manifest), str(out), str(repeats)],
                       capture_output=True, text=True)
    if not out.exists():
        tail = [l for l in r.stderr.splitlines() if l.strip()][-1:] or [f"exit {r.returncode}"]
        return {i["name"]: {"error": "worker crashed: " + tail[0][:200]} for i in inputs}
    res = json.loads(out.read_text())
    if "error" in res:
        return {i["name"]: {"error": res["error"]} for i in inputs}
    return {rec["name"]: rec for rec in res["results"]}


BUILD_NOTE: list[str] = []


def taskproc_binary(build: bool) -> Path:
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


def wall(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t0, r


def run_taskproc(exe: Path, inputs: list[dict], repeats: int) -> tuple[dict[str, dict], float]:
    base = statistics.median(wall([str(exe), "--version"])[0] for _ in range(max(5, repeats)))
    out = {}
    for i in inputs:
        times, r = [], None
        for _ in range(repeats):
            dt, r = wall([str(exe), "analyze", i["path"], "--format", "json"])
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
                                  load_s=None, startup_s=base)
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


def git_rev() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                              text=True).stdout.strip() or "?"
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "Sources", "Package.swift"], cwd=REPO,
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
            + ("; " + BUILD_NOTE[0] if BUILD_NOTE else ""),
            f"Driver Python {platform.python_version()}; peers in Python 3.11 venvs: "
            + "; ".join(f"{k}: {v[2]}" for k, v in PEERS.items())]


def report(inputs, results, tools, repeats, base) -> str:
    L = []
    L.append("# Walking step count: taskproc vs forest oak, gaitpy, pdkit, scikit-digital-health")
    L.append("")
    L.append("Generated by `python3 Benchmarks/compare/walking.py` (see Benchmarks/README.md). Every tool gets the same "
             "inputs: the 4 Oxford validation walks (Samsung S6, ~100 Hz, foot-switch ground truth), the same walks "
             "linearly resampled to uniform 25 Hz and 15 Hz grids, and a still mPower phone recording (expected 0 steps). "
             "Error % = (detected − GT) / GT. Peers run with their defaults (see the docstring of walking.py for each call).")
    L.append("")
    for f in machine_facts():
        L.append(f"- {f}")
    L.append(f"- Timing: median of {repeats} runs. **Peers**: *analysis* = only the analysis call on arrays already "
             "loaded in a warm Python process (that is what seconds and samples/s below use); *load* = np.load + building "
             "the tool's input objects, shown separately; before timing, each peer makes one untimed warm-up call on the first "
             "input (imports, JIT). *First call* = the first timed call on that input (a new input length can still "
             "cost plan/JIT work that later repeats on the same length do not pay). **taskproc**: the whole CLI `taskproc analyze FILE --format json` "
             "wall time — process start, gzip/CSV (or JSON) decoding, analysis and JSON output — so it is an upper bound "
             f"on its analysis time; `taskproc --version` alone takes {fmt_s(base)} (process start), and the summary also "
             "gives samples/s after subtracting it.")
    L.append("")
    # per-tool tables
    for tool in tools:
        L.append(f"## {TOOL_LABEL[tool]}")
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
            steps = f"{r['steps']:g}"
            L.append(f"| {i['name']} | {i['n']:,} | {i['gt']} | {steps} | {'–' if e is None else f'{e:+.2f} %'} | {cad} | "
                     f"{fmt_s(r['seconds'])} | {fmt_rate(i['n'] / r['seconds'])} | {fmt_s(r.get('first_s'))} | "
                     f"{'–' if r.get('load_s') is None else fmt_s(r['load_s'])} |")
        L.append("")
    # summary
    L.append("## Summary")
    L.append("")
    L.append("MAPE over the 4 Oxford walks at each rate (n = files that ran; a failed file is not in the MAPE; "
             "the joined input is not in the MAPEs). Worst file is over the 12 per-file inputs. "
             "Throughput: *long input* = samples/s on the 4 walks joined back to back (~13 min, comparable to the "
             "spec's 10-min anchor); *all inputs* = total samples of all inputs that ran ÷ their total time. "
             "taskproc is end-to-end CLI (process start + gzip/CSV decode + analysis + JSON); in brackets, after "
             "subtracting the process start (`taskproc --version`). Peers: analysis call only.")
    L.append("")
    L.append("| tool | MAPE orig (~100 Hz) | MAPE 25 Hz | MAPE 15 Hz | MAPE all 12 | worst file | still phone (0 expected) | failed inputs | throughput, long input (samples/s) | throughput, all inputs (samples/s) |")
    L.append("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    summary = {}
    for tool in tools:
        res = results[tool]
        cells = []
        all_err = []
        for grp in ("orig", "25hz", "15hz"):
            errs = [abs(err_pct(res[i["name"]]["steps"], i["gt"])) for i in inputs
                    if i["group"] == grp and "error" not in res.get(i["name"], {"error": 1})]
            all_err += errs
            cells.append(f"{statistics.mean(errs):.2f} % (n={len(errs)})" if errs else "–")
        signed = [(err_pct(res[i["name"]]["steps"], i["gt"]), i["name"]) for i in inputs
                  if i["group"] in ("orig", "25hz", "15hz") and "error" not in res.get(i["name"], {"error": 1})]
        worst = max(signed, key=lambda p: abs(p[0])) if signed else None
        st = next(i for i in inputs if i["group"] == "stationary")
        sr = res.get(st["name"], {"error": "?"})
        still = "✗ (failed)" if "error" in sr else f"{sr['steps']:g}"
        jn = next(i for i in inputs if i["group"] == "joined")
        jr = res.get(jn["name"], {"error": "?"})
        if "error" in jr:
            jthr = "✗"
        else:
            jthr = fmt_rate(jn["n"] / jr["seconds"])
            if jr.get("first_s"):
                jthr += f" (first call {fmt_rate(jn['n'] / jr['first_s'])})"
            if tool == "taskproc":
                jthr += f" ({fmt_rate(jn['n'] / max(jr['seconds'] - base, 1e-9))} net)"
        ok = [i for i in inputs if "error" not in res.get(i["name"], {"error": 1})]
        nfail = len(inputs) - len(ok)
        tot_n = sum(i["n"] for i in ok)
        tot_t = sum(res[i["name"]]["seconds"] for i in ok)
        thr = fmt_rate(tot_n / tot_t) if tot_t else "–"
        if tool == "taskproc" and ok:
            net = sum(max(res[i["name"]]["seconds"] - base, 1e-9) for i in ok)
            thr += f" ({fmt_rate(tot_n / net)} net)"
        mape_all = statistics.mean(all_err) if all_err else None
        summary[tool] = dict(mape_orig=cells[0], mape_all=mape_all, thr=thr, jthr=jthr)
        L.append(f"| {TOOL_LABEL[tool]} | {cells[0]} | {cells[1]} | {cells[2]} | "
                 f"{'–' if mape_all is None else f'{mape_all:.2f} %'} | "
                 f"{'–' if not worst else f'{worst[0]:+.2f} % ({worst[1]})'} | {still} | {nfail} | {jthr} | {thr} |")
    L.append("")
    tp = summary.get("taskproc")
    if tp and tp["mape_all"] is not None:
        L.append("**taskproc against each peer** (MAPE over all 12 per-file inputs that the peer ran; long-input throughput, "
                 "taskproc end-to-end CLI vs the peer's analysis call alone):")
        L.append("")
        for tool in tools:
            if tool == "taskproc":
                continue
            res = results[tool]
            both = [i for i in inputs if i["group"] in ("orig", "25hz", "15hz")
                    and "error" not in res.get(i["name"], {"error": 1})
                    and "error" not in results["taskproc"].get(i["name"], {"error": 1})]
            if not both:
                L.append(f"- {TOOL_LABEL[tool]}: no common inputs ran")
                continue
            mp = statistics.mean(abs(err_pct(res[i["name"]]["steps"], i["gt"])) for i in both)
            mt = statistics.mean(abs(err_pct(results["taskproc"][i["name"]]["steps"], i["gt"])) for i in both)
            jn = next(i for i in inputs if i["group"] == "joined")
            jp, jt = res.get(jn["name"], {}), results["taskproc"].get(jn["name"], {})
            speed = (f"{jp['seconds'] / jt['seconds']:.1f}× the peer's speed" if "seconds" in jp and "seconds" in jt
                     else "no long-input comparison")
            L.append(f"- vs {TOOL_LABEL[tool]} on its {len(both)} inputs: MAPE {mt:.2f} % vs {mp:.2f} % "
                     f"({'tie' if round(mt, 2) == round(mp, 2) else 'taskproc better' if mt < mp else 'peer better'}); {speed}")
        L.append("")
    L.append("Notes: oak's step count is the sum of its per-second cadence (Hz), so it is fractional. gaitpy's count is "
             "the sum of its per-bout `steps`; with no bout classifier it treats the whole recording as one bout. "
             "pdkit's cadence is steps ÷ the whole recording's duration (its definition). skdh's count is the number "
             "of initial contacts it reports, with its default `gait_pred=True` (whole recording is gait). "
             "The reference numbers in ../shared/spec/walking-tapping.md §0 are on 12 Oxford files (both users); "
             "only the 4 user1 files are in ../shared/data, so MAPEs here are over 4 files per rate."
             " Inputs: the *orig* rows are the gzip CSVs from ../shared/data as they are; the 25 Hz, 15 Hz and joined inputs are uncompressed CSVs written by this script (25/15 Hz: x/y/z linearly interpolated onto a uniform grid over the time-sorted, de-duplicated samples; the taskproc README's accuracy table comes from the test suite's own resampling, so its 25/15 Hz counts can differ from these by a step). Peers get the same samples, converted to g, with Unix-second timestamps (start time from the Oxford file name; the still recording is shifted to 1.5e9 s). skdh's still-phone count can differ from the spec's 15, probably because of different timestamps or settings in the spec's run; both are with the whole recording declared as gait.")
    L.append("")
    return "\n".join(L), summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-build", action="store_true", help="use .build/release/taskproc as it is")
    ap.add_argument("--no-install", action="store_true", help="do not create missing venvs")
    ap.add_argument("--only", default=",".join(TOOLS), help="comma-separated subset of " + ",".join(TOOLS))
    ap.add_argument("--output", default=str(HERE / "WALKING.md"))
    args = ap.parse_args()
    tools = [t for t in TOOLS if t in args.only.split(",")]
    exe = taskproc_binary(not args.no_build) if "taskproc" in tools else None
    results: dict[str, dict] = {}
    base = 0.0
    with tempfile.TemporaryDirectory(prefix="walking-compare-") as td:
        tmp = Path(td)
        log("preparing inputs (original, 25 Hz, 15 Hz, stationary)…")
        inputs = prepare_inputs(tmp)
        for tool in tools:
            if tool == "taskproc":
                log("[taskproc] running…")
                results[tool], base = run_taskproc(exe, inputs, args.repeats)
            else:
                results[tool] = run_peer(tool, inputs, tmp, args.repeats, not args.no_install)
    text, _ = report(inputs, results, tools, args.repeats, base)
    print(text)
    Path(args.output).write_text(text)
    log(f"wrote {args.output}")


if __name__ == "__main__":
    main()
