#!/usr/bin/env python3
"""Side-by-side timing of taskproc against the libraries it is measured by.

One run, on the same inputs, with the same timing discipline on every side:

  * real FFT (r2c)      taskproc RealFFT  vs  FFTW's own C execute (fftw_bench.c, same planning flag,
                        ESTIMATE and MEASURE)  vs  numpy.fft.rfft (one call, and batched for information)
  * IIR filtering       taskproc sosfilt / sosfiltfilt  vs  scipy.signal.sosfilt / sosfiltfilt
  * Welch PSD           taskproc Welch  vs  scipy.signal.welch
  * WAV decoding        taskproc SoundFile  vs  libsndfile's own C sf_readf_* (sndfile_bench.c)
                        vs  python-soundfile
  * recorder-log JSON   taskproc RecorderLogDecoder.decode(path:)  vs  Python's json.load(open(f)) (and
                        orjson, for information) on 60 000-item ResearchKit logs written by
                        make_recorder_logs.py; plus each side's peak memory in a fresh process

Usage (from anywhere; the paths are resolved from this file):

    python3 Tools/peers/compare.py            # full run, writes Tools/peers/RESULTS.md
    python3 Tools/peers/compare.py --quick    # fewer samples and one round, for a smoke test
    python3 Tools/peers/compare.py --sections recorder   # one section only (prints, writes no file)

Requirements: a C compiler, libfftw3-dev and libsndfile1-dev (the Makefile's `make deps` installs
them), the Swift toolchain, and Python 3 with numpy, scipy and soundfile (orjson is optional: its rows
are information only). If soundfile (or numpy or scipy) cannot be imported, the script creates
Tools/peers/.venv (with the system's site packages visible), installs requirements.txt there
with pip, and re-runs itself inside it.

Timing (identical in Timing.swift, timing.h and here): warm up for --warmup-ms, choose the number
of calls per sample so that a sample lasts at least --sample-ms, take --samples samples and keep
the median per-call time. The whole measurement is repeated --rounds times, each round running
every harness once, and the fastest round's median is reported (the machine is shared; the best
round is the one least disturbed by other work). Only the operation is timed: never process start,
input loading, planning or filter design, except in the recorder-log rows, where json.load reads its
file and so taskproc's decode(path:) is timed with its file read too. By default the clock is the
thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which excludes time the thread spent descheduled by other
processes; --clock wall uses CLOCK_MONOTONIC instead. Every operation is single-threaded on every side.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BENCHMARKS = REPO / "Benchmarks"  # the benchmark package, which holds CompareHarness
VENV = HERE / ".venv"
REQUIREMENTS = HERE / "requirements.txt"


# --------------------------------------------------------------------------------------------
# Requirements: import numpy, scipy and soundfile, or re-run inside a venv that has them.
# --------------------------------------------------------------------------------------------

def _ensure_python_requirements() -> None:
    try:
        import numpy  # noqa: F401
        import scipy.signal  # noqa: F401
        import soundfile  # noqa: F401
        return
    except ImportError as error:
        missing = error.name or str(error)
    venv_python = VENV / "bin" / "python3"
    if os.environ.get("TASKPROC_COMPARE_IN_VENV"):
        sys.exit(
            f"compare.py: '{missing}' is still missing inside {VENV}.\n"
            f"Install the requirements by hand:  {venv_python} -m pip install -r {REQUIREMENTS}"
        )
    ready = venv_python.exists() and subprocess.run(
        [str(venv_python), "-c", "import numpy, scipy.signal, soundfile"], capture_output=True).returncode == 0
    if not ready:
        print(f"compare.py: Python module '{missing}' is missing; setting up {VENV} "
              f"(system site packages visible) and installing {REQUIREMENTS.name} ...", file=sys.stderr)
    try:
        if not venv_python.exists():
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(VENV)], check=True)
        if not ready:
            subprocess.run([str(venv_python), "-m", "pip", "install", "--quiet", "-r", str(REQUIREMENTS)],
                           check=True)
    except (subprocess.CalledProcessError, OSError) as failure:
        sys.exit(
            f"compare.py: could not prepare the virtual environment ({failure}).\n"
            f"Install the requirements yourself, e.g.  python3 -m pip install -r {REQUIREMENTS}\n"
            f"(numpy, scipy and soundfile from PyPI), then run this script again."
        )
    env = dict(os.environ, TASKPROC_COMPARE_IN_VENV="1")
    os.execve(str(venv_python), [str(venv_python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


_ensure_python_requirements()

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.signal as signal  # noqa: E402
import soundfile  # noqa: E402

import make_recorder_logs  # noqa: E402  (beside this file)

try:
    import orjson  # information-only peer of the recorder-log rows
except ImportError:
    orjson = None


# --------------------------------------------------------------------------------------------
# Parameters shared by every side
# --------------------------------------------------------------------------------------------

SAMPLE_RATE = 48_000
SIGNAL_LENGTH = 1 << 20          # "1 M samples" for filters and Welch
FFT_SIZES = [256, 1024, 4096, 16384, 65536]
FFT_EFFORTS = ["estimate", "measure"]
BUTTERWORTH = [(4, 1000.0), (8, 1000.0)]  # (order, low-pass cut-off Hz): 2 and 4 sections
WELCH_SEGMENTS = [1024, 4096]    # nperseg; Hann window, 50 % overlap, constant detrend, density
WAV_SECONDS = 60
STREAM_BLOCK = 65_536
SEED = 20_240_601
RECORDER_ITEMS = make_recorder_logs.ITEMS  # 60 000 items = 10 minutes at 100 Hz
SECTIONS = ["fft", "filters", "welch", "wav", "recorder"]


@dataclass
class Timing:
    samples: int = 31
    sample_ms: float = 2.0
    warmup_ms: float = 100.0
    clock: str = "thread"

    def harness_args(self) -> list[str]:
        return ["--samples", str(self.samples), "--sample-ms", str(self.sample_ms),
                "--warmup-ms", str(self.warmup_ms)]

    def clock_ns(self):
        return time.thread_time_ns if self.clock == "thread" else time.perf_counter_ns


def measure(op: str, body, timing: Timing, check: float | None = None, divide: int = 1) -> dict:
    """The shared discipline (see the module docstring); `body(n)` performs the operation n times.
    `divide` reports the time per sub-operation (a batch of `divide` transforms counts as that many)."""
    clock = timing.clock_ns()

    def timed(calls: int) -> float:
        start = clock()
        body(calls)
        return float(clock() - start)

    warmup_ns = timing.warmup_ms * 1e6
    batch, total, calls, per_call = 1, 0.0, 0, 0.0
    while True:
        t = timed(batch)
        total += t
        calls += batch
        per_call = t / batch
        if total >= warmup_ns and calls >= 2:
            break
        if t < warmup_ns / 4:
            batch *= 2
    inner = max(1, int(-(-timing.sample_ms * 1e6 // max(per_call, 1.0))))
    per = sorted(timed(inner) / inner / divide for _ in range(timing.samples))
    n = len(per)
    median = per[n // 2] if n % 2 else (per[n // 2 - 1] + per[n // 2]) / 2
    return {"op": op, "ns": median, "min_ns": per[0], "samples": n, "inner": inner, "check": check}


# --------------------------------------------------------------------------------------------
# Inputs: written once, read by all three sides
# --------------------------------------------------------------------------------------------

@dataclass
class Inputs:
    directory: Path
    x64: np.ndarray = field(repr=False)
    x32: np.ndarray = field(repr=False)
    sos: dict[int, np.ndarray] = field(repr=False)
    # (path, numeric values per item) of every recorder log, make_recorder_logs.py order
    recorder_logs: list[tuple[Path, int]] = field(default_factory=list)

    @property
    def f64(self) -> Path: return self.directory / "signal.f64"
    @property
    def f32(self) -> Path: return self.directory / "signal.f32"
    def sos_path(self, order: int) -> Path: return self.directory / f"butter{order}.sos.f64"
    @property
    def mono(self) -> Path: return self.directory / "noise-60s-48k-mono-pcm16.wav"
    @property
    def stereo(self) -> Path: return self.directory / "noise-60s-48k-stereo-pcm16.wav"


def _write_wav(path: Path, channels: int, rng: np.random.Generator) -> None:
    frames = SAMPLE_RATE * WAV_SECONDS
    pcm = np.clip(np.round(rng.uniform(-0.5, 0.5, (frames, channels)) * 32767), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(pcm.tobytes())


def make_inputs(directory: Path) -> Inputs:
    rng = np.random.default_rng(SEED)
    x64 = rng.uniform(-1.0, 1.0, SIGNAL_LENGTH)
    x32 = x64.astype(np.float32)
    inputs = Inputs(directory, x64, x32, {})
    x64.astype("<f8").tofile(inputs.f64)
    x32.astype("<f4").tofile(inputs.f32)
    for order, cutoff in BUTTERWORTH:
        sos = signal.butter(order, cutoff, btype="lowpass", output="sos", fs=SAMPLE_RATE)
        inputs.sos[order] = sos
        sos.astype("<f8").tofile(inputs.sos_path(order))  # rows of b0 b1 b2 a0 a1 a2
    _write_wav(inputs.mono, 1, rng)
    _write_wav(inputs.stereo, 2, rng)
    inputs.recorder_logs = make_recorder_logs.write_recorder_logs(directory / "recorder", RECORDER_ITEMS)
    return inputs


# --------------------------------------------------------------------------------------------
# The Python side
# --------------------------------------------------------------------------------------------

def _abs_sum(values: np.ndarray) -> float:
    if np.iscomplexobj(values):
        return float(np.abs(values.real).sum(dtype=np.float64) + np.abs(values.imag).sum(dtype=np.float64))
    return float(np.abs(values).sum(dtype=np.float64))


def python_numpy_fft(inputs: Inputs, timing: Timing) -> list[dict]:
    results = []
    rfft = np.fft.rfft
    for n in FFT_SIZES:
        for name, source in (("f32", inputs.x32), ("f64", inputs.x64)):
            x = np.ascontiguousarray(source[:n])

            def one_call(calls: int, x=x) -> None:
                for _ in range(calls):
                    rfft(x)

            results.append(measure(f"fft/{name}/{n}", one_call, timing, check=_abs_sum(rfft(x))))
            rows = SIGNAL_LENGTH // n
            batch = np.ascontiguousarray(source[: rows * n].reshape(rows, n))

            def batched(calls: int, batch=batch) -> None:
                for _ in range(calls):
                    rfft(batch, axis=-1)

            results.append(measure(f"fft-batch/{name}/{n}", batched, timing, divide=rows,
                                   check=_abs_sum(rfft(batch[0]))))
    return results


def python_scipy(inputs: Inputs, timing: Timing) -> list[dict]:
    results = []
    x = inputs.x64
    for order, _ in BUTTERWORTH:
        sos = inputs.sos[order]
        sections = len(sos)

        def run_sosfilt(calls: int, sos=sos) -> None:
            for _ in range(calls):
                signal.sosfilt(sos, x)

        def run_sosfiltfilt(calls: int, sos=sos) -> None:
            for _ in range(calls):
                signal.sosfiltfilt(sos, x)

        results.append(measure(f"sosfilt/f64/{sections}", run_sosfilt, timing,
                               check=_abs_sum(signal.sosfilt(sos, x))))
        results.append(measure(f"sosfiltfilt/f64/{sections}", run_sosfiltfilt, timing,
                               check=_abs_sum(signal.sosfiltfilt(sos, x))))
    for nperseg in WELCH_SEGMENTS:
        def run_welch(calls: int, nperseg=nperseg) -> None:
            for _ in range(calls):
                signal.welch(x, fs=SAMPLE_RATE, nperseg=nperseg)

        _, psd = signal.welch(x, fs=SAMPLE_RATE, nperseg=nperseg)
        results.append(measure(f"welch/f64/{nperseg}", run_welch, timing, check=_abs_sum(psd)))
    return results


def python_soundfile(inputs: Inputs, timing: Timing) -> list[dict]:
    results = []
    for layout, path in (("mono", inputs.mono), ("stereo", inputs.stereo)):
        for dtype, name in (("float32", "f32"), ("float64", "f64")):
            def read(calls: int, path=path, dtype=dtype) -> None:
                for _ in range(calls):
                    soundfile.read(str(path), dtype=dtype)

            data, _ = soundfile.read(str(path), dtype=dtype)
            results.append(measure(f"wav/{layout}/read/{name}", read, timing, check=_abs_sum(data)))
        channels = soundfile.info(str(path)).channels
        buffer = np.empty((STREAM_BLOCK, channels), dtype=np.float32)

        def stream(calls: int, path=path, buffer=buffer) -> None:
            for _ in range(calls):
                with soundfile.SoundFile(str(path)) as f:
                    while len(f.read(STREAM_BLOCK, dtype="float32", out=buffer)) == STREAM_BLOCK:
                        pass

        total = 0.0
        with soundfile.SoundFile(str(path)) as f:
            while True:
                block = f.read(STREAM_BLOCK, dtype="float32", out=buffer)
                total += _abs_sum(block)
                if len(block) < STREAM_BLOCK:
                    break
        results.append(measure(f"wav/{layout}/stream/f32", stream, timing, check=total))
    return results


def _recorder_check(document) -> float:
    """Σ over the columns (key paths) of Σ|v| ÷ max|v| over every item: the same value taskproc's
    harness computes over its decoded columns, so no column (Unix timestamps) drowns the others."""
    items = document["items"] if isinstance(document, dict) else document
    sums: dict[str, float] = {}
    peaks: dict[str, float] = {}

    def walk(obj: dict, prefix: str) -> None:
        for key, value in obj.items():
            if isinstance(value, dict):
                walk(value, prefix + key + ".")
            else:
                name, v = prefix + key, abs(float(value))
                sums[name] = sums.get(name, 0.0) + v
                if v > peaks.get(name, 0.0):
                    peaks[name] = v

    for item in items:
        walk(item, "")
    return sum(sums[name] / peaks[name] for name in sums if peaks.get(name, 0.0) > 0)


_recorder_checks: dict[tuple[str, Path], float] = {}


def python_json(inputs: Inputs, timing: Timing) -> dict[str, list[dict]]:
    """json.load(open(f)) (and orjson.loads(open(f, 'rb').read()) when installed) per recorder log:
    reading the file is part of the operation, as it is for taskproc's decode(path:)."""
    results: dict[str, list[dict]] = {"json": [], "orjson": []}
    for path, _ in inputs.recorder_logs:
        def load(calls: int, path=path) -> None:
            for _ in range(calls):
                with open(path) as f:
                    json.load(f)

        if ("json", path) not in _recorder_checks:
            with open(path) as f:
                _recorder_checks["json", path] = _recorder_check(json.load(f))
        results["json"].append(measure(f"recorder/{path.name}", load, timing, check=_recorder_checks["json", path]))
        if orjson is None:
            continue

        def load_orjson(calls: int, path=path) -> None:
            for _ in range(calls):
                with open(path, "rb") as f:
                    orjson.loads(f.read())

        if ("orjson", path) not in _recorder_checks:
            with open(path, "rb") as f:
                _recorder_checks["orjson", path] = _recorder_check(orjson.loads(f.read()))
        results["orjson"].append(measure(f"recorder/{path.name}", load_orjson, timing,
                                         check=_recorder_checks["orjson", path]))
    return results


# --------------------------------------------------------------------------------------------
# Peak memory of one decode, each in a fresh process
# --------------------------------------------------------------------------------------------

# Each child decodes (or, for the baseline, only starts), then prints VmHWM (peak resident set), RssAnon
# and RssFile from /proc/self/status while the decoded document is still alive.
_PY_STATUS = ("import json as _j\n"
              "_m = {l.split(':')[0]: int(l.split()[1]) for l in open('/proc/self/status')\n"
              "      if l.split(':')[0] in ('VmHWM', 'RssAnon', 'RssFile')}\n"
              "print(_j.dumps(_m))\n")
_PY_CHILDREN = {
    "json": ("import json, sys\n", "with open(sys.argv[1]) as f:\n    document = json.load(f)\n"),
    "orjson": ("import orjson, sys\n", "with open(sys.argv[1], 'rb') as f:\n    document = orjson.loads(f.read())\n"),
}


def _child_memory(cmd: list[str]) -> dict:
    """Runs `cmd` once and returns the figures (KiB) it printed. The peak is the child's own VmHWM, not
    wait4's ru_maxrss: Linux carries a parent's maxrss over fork and exec into the child's, so every
    child of this (large) Python process would report this process's peak instead of its own."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"memory probe failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()}")
    return json.loads(proc.stdout)


def recorder_memory(inputs: Inputs, harness: Path, log, repeats: int = 3) -> list[dict]:
    """Per recorder log and decoder: peak RSS of a fresh process that decodes the file once, the same
    process's peak without decoding (baseline), and the anonymous memory it holds after decoding.
    The smallest of `repeats` readings is kept (they differ by a few hundred KiB at most)."""
    decoders = {"taskproc": lambda path, decode: [str(harness), "recorder-once", "--file", str(path),
                                                   "--decode", "1" if decode else "0"]}
    for name, (imports, body) in _PY_CHILDREN.items():
        if name == "orjson" and orjson is None:
            continue
        decoders[name] = (lambda path, decode, imports=imports, body=body:
                          [sys.executable, "-c", imports + (body if decode else "") + _PY_STATUS, str(path)])
    rows = []
    for path, values in inputs.recorder_logs:
        log(f"  memory: {path.name}")
        for decoder, command in decoders.items():
            def least(decode: bool) -> dict:
                readings = [_child_memory(command(path, decode)) for _ in range(repeats)]
                return {key: min(r.get(key, 0) for r in readings) for key in ("VmHWM", "RssAnon", "RssFile")}
            rows.append({"file": path.name, "bytes": path.stat().st_size, "items": RECORDER_ITEMS,
                         "values": values, "decoder": decoder, "decoded": least(True), "baseline": least(False)})
    return rows


def recorder_generators_agree(inputs: Inputs, harness: Path, work: Path) -> list[str]:
    """Names of the logs whose Swift (RecorderLogFixtures, what the ordo-one suite decodes) and Python
    (make_recorder_logs.py, what this comparison decodes) versions differ; empty when all are identical."""
    swift_dir = work / "recorder-swift"
    swift_dir.mkdir(exist_ok=True)
    _run([str(harness), "recorder-generate", "--directory", str(swift_dir), "--items", str(RECORDER_ITEMS)],
         "CompareHarness recorder-generate")
    return [path.name for path, _ in inputs.recorder_logs
            if not (swift_dir / path.name).exists() or (swift_dir / path.name).read_bytes() != path.read_bytes()]


# --------------------------------------------------------------------------------------------
# Native harnesses
# --------------------------------------------------------------------------------------------

def _run(cmd: list[str], what: str, cwd: Path | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()}")
    return proc.stdout


def build_c(work: Path) -> dict[str, Path]:
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        sys.exit(f"compare.py: no C compiler ({cc}); install gcc or set CC")
    built = {}
    for name, libraries in (("fftw_bench", ["-lfftw3", "-lfftw3f"]), ("sndfile_bench", ["-lsndfile"])):
        out = work / name
        try:
            _run([cc, "-O2", "-o", str(out), str(HERE / f"{name}.c"), *libraries, "-lm"], f"compiling {name}.c")
        except RuntimeError as error:
            sys.exit(f"compare.py: {error}\n(needs libfftw3-dev and libsndfile1-dev: `make deps` installs them)")
        built[name] = out
    return built


def build_swift_harness(skip: bool) -> Path:
    swift = os.environ.get("SWIFT", "swift")
    if not skip:
        print("Building CompareHarness (release) ...", file=sys.stderr)
        _run([swift, "build", "-c", "release", "--product", "CompareHarness", "--package-path", str(BENCHMARKS)],
             "swift build")
    bin_dir = _run([swift, "build", "-c", "release", "--show-bin-path", "--package-path", str(BENCHMARKS)],
                   "swift build --show-bin-path").strip()
    harness = Path(bin_dir) / "CompareHarness"
    if not harness.exists():
        sys.exit(f"compare.py: {harness} does not exist; build it or drop --skip-build")
    return harness


def _harness_results(stdout: str, prefix: str = "") -> tuple[list[dict], dict]:
    document = json.loads(stdout)
    results = document.pop("results")
    for r in results:
        r["op"] = prefix + r["op"]
    return results, document


def _unsupported(stderr: str) -> bool:
    return "unknown operation" in stderr


def run_round(inputs: Inputs, timing: Timing, c_bins: dict[str, Path], harness: Path, facts: dict,
              log, sections: list[str]) -> dict[str, list[dict]]:
    """One measurement of every operation of `sections` on every side. Returns {side: [measurement, ...]}."""
    sides: dict[str, list[dict]] = {"taskproc": [], "fftw": [], "libsndfile": [], "numpy": [],
                                    "scipy": [], "python-soundfile": [], "json": [], "orjson": []}
    t = timing.harness_args()
    clock = ["--clock", timing.clock]
    sizes = [str(n) for n in FFT_SIZES]

    for effort in FFT_EFFORTS if "fft" in sections else []:
        log(f"  FFT {effort}: FFTW C")
        out = _run([str(c_bins["fftw_bench"]), str(inputs.f64), str(inputs.f32), effort,
                    str(timing.samples), str(timing.sample_ms), str(timing.warmup_ms), timing.clock, *sizes],
                   "fftw_bench")
        results, meta = _harness_results(out, f"{effort}/")
        sides["fftw"] += results
        facts["fftw"] = meta.get("version")
        log(f"  FFT {effort}: taskproc")
        out = _run([str(harness), "fft", "--input-f64", str(inputs.f64), "--input-f32", str(inputs.f32),
                    "--sizes", ",".join(sizes), "--effort", effort, *t, *clock], "CompareHarness fft")
        sides["taskproc"] += _harness_results(out, f"{effort}/")[0]

    if "wav" in sections:
        log("  WAV: libsndfile C")
        out = _run([str(c_bins["sndfile_bench"]), str(timing.samples), str(timing.sample_ms), str(timing.warmup_ms),
                    timing.clock, str(STREAM_BLOCK), str(inputs.mono), str(inputs.stereo)], "sndfile_bench")
        results, meta = _harness_results(out)
        sides["libsndfile"] += results
        facts["libsndfile"] = meta.get("version")
        log("  WAV: taskproc")
        out = _run([str(harness), "wav", "--mono", str(inputs.mono), "--stereo", str(inputs.stereo),
                    "--block", str(STREAM_BLOCK), *t, *clock], "CompareHarness wav")
        sides["taskproc"] += _harness_results(out)[0]

    # Operations whose taskproc API may not exist yet: the harness says "unknown operation".
    optional = [
        ("filters", ["sosfilt", "--input", str(inputs.f64),
                     "--sos", ",".join(str(inputs.sos_path(order)) for order, _ in BUTTERWORTH)]),
        ("welch", ["welch", "--input", str(inputs.f64), "--sample-rate", str(SAMPLE_RATE),
                   "--segments", ",".join(str(s) for s in WELCH_SEGMENTS)]),
        ("recorder", ["recorder", "--files", ",".join(str(path) for path, _ in inputs.recorder_logs)]),
    ]
    for what, arguments in optional:
        if what not in sections:
            continue
        log(f"  {what}: taskproc")
        proc = subprocess.run([str(harness), *arguments, *t, *clock], capture_output=True, text=True)
        if proc.returncode == 0:
            sides["taskproc"] += _harness_results(proc.stdout)[0]
        elif _unsupported(proc.stderr):
            facts.setdefault("missing", set()).add(what)
        else:
            raise RuntimeError(f"CompareHarness {what} failed:\n{proc.stderr.strip()}")

    if "fft" in sections:
        log("  numpy FFT")
        sides["numpy"] += python_numpy_fft(inputs, timing)
    if "filters" in sections or "welch" in sections:
        log("  scipy filters and Welch")
        sides["scipy"] += python_scipy(inputs, timing)
    if "wav" in sections:
        log("  python-soundfile")
        sides["python-soundfile"] += python_soundfile(inputs, timing)
    if "recorder" in sections:
        log("  json.load" + (" and orjson" if orjson is not None else " (orjson not installed)"))
        for side, results in python_json(inputs, timing).items():
            sides[side] += results
    return sides


def best_of(rounds: list[dict[str, list[dict]]]) -> dict[str, dict[str, dict]]:
    """Per side and operation, the round with the fastest median."""
    best: dict[str, dict[str, dict]] = {}
    for sides in rounds:
        for side, results in sides.items():
            for r in results:
                current = best.setdefault(side, {}).get(r["op"])
                if current is None or r["ns"] < current["ns"]:
                    best[side][r["op"]] = r
    return best


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------

@dataclass
class Row:
    operation: str
    taskproc_op: str
    peer: str
    peer_op: str
    target: str = ""
    max_ratio: float | None = None  # target met when taskproc time / peer time <= this
    note: str = ""


def _rows() -> list[tuple[str, str, list[Row]]]:
    """(section, title, rows) of every table."""
    fft_fftw, fft_numpy = [], []
    for n in FFT_SIZES:
        for precision in ("f32", "f64"):
            for effort in FFT_EFFORTS:
                fft_fftw.append(Row(
                    f"rfft N={n} {precision}, {effort.upper()}", f"{effort}/fft/{precision}/{n}",
                    f"FFTW C fftw_execute ({effort.upper()})", f"{effort}/fft/{precision}/{n}",
                    "≤ 1.10× FFTW", 1.10))
    for n in FFT_SIZES:
        for precision in ("f32", "f64"):
            at_4096 = n == 4096 and precision == "f64"
            fft_numpy.append(Row(
                f"rfft N={n} {precision}: forward(_:) (copying, ESTIMATE) vs one rfft call",
                f"estimate/fft-copy/{precision}/{n}", "numpy.fft.rfft, one call", f"fft/{precision}/{n}",
                "≥ 2× faster" if at_4096 else "", 0.5 if at_4096 else None))
            fft_numpy.append(Row(
                f"rfft N={n} {precision}: executeForward (zero-copy, ESTIMATE) vs one rfft call",
                f"estimate/fft/{precision}/{n}", "numpy.fft.rfft, one call", f"fft/{precision}/{n}",
                "≥ 2× faster" if at_4096 else "", 0.5 if at_4096 else None))
            fft_numpy.append(Row(
                f"rfft N={n} {precision}: executeForward (ESTIMATE) vs batched rfft, per transform",
                f"estimate/fft/{precision}/{n}", "numpy.fft.rfft, batched (information)",
                f"fft-batch/{precision}/{n}"))
    filters = []
    for order, cutoff in BUTTERWORTH:
        sections = order // 2
        what = f"{order}th-order Butterworth low-pass {cutoff:g} Hz ({sections} sections), 2^20 f64"
        filters.append(Row(f"sosfilt, {what}", f"sosfilt/f64/{sections}", "scipy.signal.sosfilt",
                           f"sosfilt/f64/{sections}", "≥ 2× faster", 0.5))
        filters.append(Row(f"sosfiltfilt, {what}", f"sosfiltfilt/f64/{sections}", "scipy.signal.sosfiltfilt",
                           f"sosfiltfilt/f64/{sections}"))
    welch = [Row(f"Welch PSD, 2^20 f64, nperseg={s}, Hann, 50 % overlap", f"welch/f64/{s}", "scipy.signal.welch",
                 f"welch/f64/{s}") for s in WELCH_SEGMENTS]
    wav = []
    for layout in ("mono", "stereo"):
        file = f"60 s 48 kHz {layout} PCM16 WAV"
        for precision in ("f32", "f64"):
            wav.append(Row(f"decode {file} → {precision} (whole file, new arrays)", f"wav/{layout}/read/{precision}",
                           "libsndfile C sf_readf_" + ("float" if precision == "f32" else "double"),
                           f"wav/{layout}/read/{precision}",
                           "≥ 90 % of C speed" if layout == "mono" else "", 1 / 0.9 if layout == "mono" else None,
                           "taskproc also de-interleaves" if layout == "stereo" else ""))
            wav.append(Row(f"decode {file} → {precision} (whole file, new arrays)", f"wav/{layout}/read/{precision}",
                           "python-soundfile read", f"wav/{layout}/read/{precision}"))
        wav.append(Row(f"stream {file} → f32 in {STREAM_BLOCK}-frame blocks", f"wav/{layout}/stream/f32",
                       "libsndfile C sf_readf_float loop", f"wav/{layout}/stream/f32", "", None,
                       "taskproc also de-interleaves" if layout == "stereo" else ""))
        wav.append(Row(f"stream {file} → f32 in {STREAM_BLOCK}-frame blocks", f"wav/{layout}/stream/f32",
                       "python-soundfile read(out=)", f"wav/{layout}/stream/f32"))
    recorder = []
    for name, what in _recorder_files():
        op = f"recorder/{name}"
        recorder.append(Row(f"decode {what} (`{name}`)", op, "Python json.load(open(f))", op,
                            "≥ 3× faster", 1 / 3))
        recorder.append(Row(f"decode {what} (`{name}`)", op, "orjson.loads(open(f, 'rb').read()) (information)", op))
    return [("fft", "Real FFT: taskproc `RealFFT.executeForward()` vs FFTW's own execute (same planning flag)", fft_fftw),
            ("fft", "Real FFT: taskproc vs numpy", fft_numpy),
            ("filters", "IIR filtering vs scipy", filters),
            ("welch", "Welch PSD vs scipy", welch),
            ("wav", "WAV decoding vs libsndfile (C) and python-soundfile", wav),
            ("recorder", "Recorder-log JSON decoding vs Python's json.load (and orjson)", recorder)]


def _recorder_files() -> list[tuple[str, str]]:
    """(file name, description) of every recorder log, in make_recorder_logs.py order."""
    descriptions = ["60 000-item accelerometer log, `{\"items\":[…]}`",
                    "60 000-item device-motion log, `{\"items\":[…]}`",
                    "60 000-item accelerometer log, mPower bare array"]
    return list(zip(make_recorder_logs.file_names(RECORDER_ITEMS), descriptions))


def _side_for(peer: str) -> str:
    if peer.startswith("Python json"):
        return "json"
    if peer.startswith("orjson"):
        return "orjson"
    if peer.startswith("FFTW"):
        return "fftw"
    if peer.startswith("numpy"):
        return "numpy"
    if peer.startswith("scipy"):
        return "scipy"
    if peer.startswith("libsndfile"):
        return "libsndfile"
    return "python-soundfile"


def _format_ns(ns: float) -> str:
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.3g} µs" if ns < 1e5 else f"{ns / 1e3:.0f} µs"
    return f"{ns / 1e6:.3g} ms" if ns < 1e8 else f"{ns / 1e6:.0f} ms"


def _agree(a: float | None, b: float | None, op: str) -> str:
    if a is None or b is None:
        return ""
    tolerance = 1e-4 if "/f32/" in op or op.endswith("/f32") else 1e-8
    return "" if abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-30) else " ⚠ outputs differ"


def render(best: dict[str, dict[str, dict]], sections: list[str],
           memory: list[dict] | None = None) -> tuple[str, list[str]]:
    lines, verdicts = [], []
    taskproc = best.get("taskproc", {})
    for section, title, rows in _rows():
        if section not in sections:
            continue
        lines += [f"### {title}", "",
                  "| Operation | Peer | taskproc | Peer time | taskproc ÷ peer | Speed-up | Target | Met |",
                  "|---|---|---:|---:|---:|---:|---|---|"]
        for row in rows:
            mine = taskproc.get(row.taskproc_op)
            theirs = best.get(_side_for(row.peer), {}).get(row.peer_op)
            if mine is None or theirs is None:
                missing = "taskproc API not available" if mine is None else "peer not measured"
                lines.append(f"| {row.operation} | {row.peer} | — | — | — | — | {row.target} | {missing} |")
                continue
            ratio = mine["ns"] / theirs["ns"]
            met = ""
            if row.max_ratio is not None:
                met = "yes" if ratio <= row.max_ratio else "**no**"
                verdicts.append(f"{row.operation} vs {row.peer}: taskproc ÷ peer = {ratio:.2f} "
                                f"(target {row.target}) → {'met' if met == 'yes' else 'NOT met'}")
            note = _agree(mine.get("check"), theirs.get("check"), row.taskproc_op)
            if row.note:
                note += f" ({row.note})"
            lines.append(f"| {row.operation}{note} | {row.peer} | {_format_ns(mine['ns'])} | "
                         f"{_format_ns(theirs['ns'])} | {ratio:.2f} | {1 / ratio:.2f}× | {row.target} | {met} |")
        lines.append("")
        if section == "recorder" and memory:
            lines += render_memory(memory)
    return "\n".join(lines), verdicts


def _mb(kib: float) -> str:
    return f"{kib * 1024 / 1e6:.1f} MB"


def render_memory(memory: list[dict]) -> list[str]:
    lines = [
        "#### Peak memory of one decode (fresh process each)", "",
        "*Samples kept* is items × values × 8 bytes, the `[Double]` columns taskproc returns. *Peak RSS* is the "
        "resident-set high-water mark (`VmHWM`, read by the process itself from /proc/self/status) of a fresh "
        "process that decodes the file once; *Δ peak* subtracts the same "
        "program's peak when it starts and exits without decoding (taskproc: `CompareHarness recorder-once "
        "--decode 0`; Python: the interpreter with `json` or `orjson` imported). *Δ anonymous held* is the "
        "growth of `RssAnon` (heap, not file pages) measured while the decoded result is still alive. "
        "taskproc maps the file (`Data(contentsOf:options: .mappedIfSafe)`), so its peak includes the file's "
        "pages once (clean, file-backed, unmapped when the decode returns); json.load reads the file into a "
        "`str` and orjson into `bytes` before parsing, so *(Δ peak − size) ÷ samples kept* is each decoder's "
        "peak beyond one copy of the file, in units of the samples kept.", "",
        "| File | Size | Samples kept | Decoder | Peak RSS | Δ peak | (Δ peak − size) ÷ samples kept | "
        "Δ anonymous held | Δ anonymous ÷ samples kept |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    labels = {"taskproc": "taskproc `decode(path:)`", "json": "Python `json.load`", "orjson": "`orjson.loads`"}
    for row in memory:
        kept = row["items"] * row["values"] * 8
        peak = row["decoded"]["VmHWM"]
        delta_peak = peak - row["baseline"]["VmHWM"]
        delta_anon = row["decoded"]["RssAnon"] - row["baseline"]["RssAnon"]
        lines.append(
            f"| `{row['file']}` | {row['bytes'] / 1e6:.1f} MB | {kept / 1e6:.1f} MB ({row['items']:,} × "
            f"{row['values']} × 8) | {labels.get(row['decoder'], row['decoder'])} | {_mb(peak)} | "
            f"{_mb(delta_peak)} | {(delta_peak * 1024 - row['bytes']) / kept:.1f}× | {_mb(delta_anon)} | "
            f"{delta_anon * 1024 / kept:.1f}× |")
    return lines + [""]


def _json_c_scanner() -> bool:
    import json.scanner
    return json.scanner.c_make_scanner is not None


def machine_facts(timing: Timing, rounds: int, facts: dict, swift: str) -> list[str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        swift_version = subprocess.run([swift, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        swift_version = "unknown"
    try:
        cc_version = subprocess.run([os.environ.get("CC", "cc"), "--version"], capture_output=True,
                                    text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        cc_version = "unknown"
    load = " / ".join(f"{v:.2f}" for v in os.getloadavg())
    return [
        f"- Date: {_dt.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- CPU: {cpu}, {os.cpu_count()} logical cores; kernel {platform.release()}",
        f"- Load average when the run ended (1/5/15 min): {load} (the machine is shared)",
        f"- Swift: {swift_version} (CompareHarness, `-c release`)",
        f"- C: {cc_version}, `-O2`; FFTW {facts.get('fftw', '?')}; {facts.get('libsndfile', '?')}",
        f"- Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
        f"soundfile {soundfile.__version__} (bundling libsndfile {soundfile.__libsndfile_version__}), "
        f"json (standard library, C scanner {'on' if _json_c_scanner() else 'off'}), "
        f"orjson {orjson.__version__ if orjson is not None else 'not installed'}",
        f"- Timing: {'thread CPU time' if timing.clock == 'thread' else 'wall clock (CLOCK_MONOTONIC)'}; "
        f"median of {timing.samples} samples of ≥ {timing.sample_ms:g} ms after {timing.warmup_ms:g} ms "
        f"of warm-up; best of {rounds} round(s)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="repeat everything; keep each side's best median")
    parser.add_argument("--samples", type=int, default=31)
    parser.add_argument("--sample-ms", type=float, default=2.0)
    parser.add_argument("--warmup-ms", type=float, default=100.0)
    parser.add_argument("--clock", choices=["thread", "wall"], default="thread")
    parser.add_argument("--quick", action="store_true", help="1 round, 9 samples: a smoke test")
    parser.add_argument("--skip-build", action="store_true", help="use the CompareHarness already built")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help="comma-separated subset of %(default)s; a subset prints its sections and writes "
                             "RESULTS.md only if --output names it")
    parser.add_argument("--output", type=Path, default=None,
                        help=f"Markdown report (default: {HERE / 'RESULTS.md'} for a run of every section); "
                             "'-' for none")
    parser.add_argument("--json", type=Path, help="also write every raw measurement here")
    args = parser.parse_args()
    timing = Timing(args.samples, args.sample_ms, args.warmup_ms, args.clock)
    rounds = args.rounds
    if args.quick:
        timing.samples, timing.warmup_ms, rounds = 9, 30.0, 1
    sections = [name.strip() for name in args.sections.split(",") if name.strip()]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    if args.output is None:
        args.output = HERE / "RESULTS.md" if set(sections) == set(SECTIONS) else Path("-")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    swift = os.environ.get("SWIFT", "swift")
    harness = build_swift_harness(args.skip_build)
    facts: dict = {}
    with tempfile.TemporaryDirectory(prefix="taskproc-compare-") as tmp:
        work = Path(tmp)
        c_bins = build_c(work)
        log(f"Writing inputs to {work} ...")
        inputs = make_inputs(work)
        all_rounds = []
        for r in range(rounds):
            log(f"Round {r + 1}/{rounds}")
            all_rounds.append(run_round(inputs, timing, c_bins, harness, facts, log, sections))
        memory = None
        if "recorder" in sections and "recorder" not in facts.get("missing", set()):
            log("Recorder logs: peak memory of one decode per fresh process")
            memory = recorder_memory(inputs, harness, log)
            facts["recorder_generators_differ"] = recorder_generators_agree(inputs, harness, work)
    best = best_of(all_rounds)
    table, verdicts = render(best, sections, memory)
    facts_lines = machine_facts(timing, rounds, facts, swift)
    missing = sorted(facts.get("missing", []))
    differ = facts.get("recorder_generators_differ")
    generators = [] if differ is None else [
        "- Recorder logs: make_recorder_logs.py and the Swift RecorderLogFixtures (decoded by the ordo-one "
        "suite RecorderLogBenchmarks) wrote " + ("byte-identical files" if not differ else
                                                 f"**different** files: {', '.join(differ)}")]
    command = "python3 Tools/peers/compare.py" + (f" --sections {','.join(sections)}"
                                                         if set(sections) != set(SECTIONS) else "")
    report = "\n".join([
        "# taskproc vs FFTW, libsndfile, numpy, scipy and Python's json",
        "",
        f"Generated by `{command}` (see Tools/peers/README.md). Times are per "
        "operation; *taskproc ÷ peer* below 1 means taskproc is faster. Every side reads the same input "
        "files (2^20 uniform-noise samples, scipy-designed Butterworth SOS, generated 60 s WAVs, "
        "60 000-item ResearchKit recorder logs from make_recorder_logs.py).",
        "",
        *facts_lines,
        *generators,
        *([f"- Not measured (taskproc API not available to the harness yet): {', '.join(missing)}"] if missing else []),
        "",
        table,
        "#### Targets",
        "",
        *[f"- {v}" for v in verdicts],
        "",
    ])
    print(report)
    if str(args.output) != "-":
        args.output.write_text(report)
        log(f"Wrote {args.output}")
    if args.json:
        args.json.write_text(json.dumps({"facts": {k: v for k, v in facts.items() if k != "missing"},
                                         "rounds": all_rounds, "recorder_memory": memory}, indent=1))


if __name__ == "__main__":
    main()
