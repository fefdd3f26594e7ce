#!/usr/bin/env python3
"""Fault soak for `taskproc batch` and `merge`: inject the faults a cluster or a laptop produces, at random moments,
and check that every run either finishes with the uninterrupted outputs or stops with a specific error and then
resumes to them byte for byte.

Faults x phases (issue 51): {SIGKILL, SIGTERM, SIGINT, a full disk (ENOSPC), a read-only output (EROFS), no
permission on the output (EACCES), a second concurrent writer} x {discovery, analysis, output writing (CSV,
SQLite, export), merge}. The phase a fault hit is read from the run itself (journal lines, run.json's
"analysed"), not assumed from the timing.

Needs root for the disk faults (a tmpfs per trial, a read-only bind mount) and setpriv for EACCES; without root
those faults are skipped and said so.

Usage: fault_soak.py [--binary PATH] [--records N] [--kills N] [--faults N] [--seed S] [--work DIR] [--json OUT]
The figures it prints are the ones docs/batch.md quotes ("Faults, measured").
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))


def outputs(folder):
    """Every text output's bytes and every SQLite table but run_log (the one place with timestamps)."""
    found = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith((".jsonl", ".csv", ".partial")) and os.path.isfile(path):
            with open(path, "rb") as f:
                found[name] = f.read()
    database = os.path.join(folder, "taskproc.sqlite")
    if os.path.exists(database):
        connection = sqlite3.connect(database)
        names = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in sorted(n for n in names if n != "run_log"):
            found["sqlite:" + table] = repr(connection.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall())
        connection.close()
    return found


def run(binary, args, **kw):
    return subprocess.run([binary] + args, capture_output=True, text=True, **kw)


def phase_of(out, started_output):
    """What the run was doing: from run.json and the journal."""
    work = os.path.join(out, ".taskproc-batch")
    try:
        with open(os.path.join(work, "run.json")) as f:
            state = json.load(f)
        if state.get("complete"):
            return "finished"
        if state.get("analysed"):
            return "outputs"
    except (OSError, ValueError):
        return "start"
    try:
        lines = sum(1 for _ in open(os.path.join(work, "journal.jsonl"), "rb"))
    except OSError:
        lines = 0
    return "analysis" if lines > 0 else "discovery"


class Soak:
    def __init__(self, a):
        self.a = a
        self.rng = random.Random(a.seed)
        self.work = a.work or tempfile.mkdtemp(prefix="taskproc-soak-")
        self.binary = a.binary
        self.trials = []  # dicts: fault, phase, outcome, detail
        self.root = os.geteuid() == 0

    def record(self, fault, phase, outcome, detail=""):
        self.trials.append({"fault": fault, "phase": phase, "outcome": outcome, "detail": detail[:300]})
        mark = "ok " if outcome in ("identical", "refused+identical", "stopped+resumed") else "BAD"
        print(f"  {mark} {fault:<14} {phase:<10} {outcome}  {detail[:120]}", flush=True)

    def prepare(self):
        self.export = os.path.join(self.work, "export")
        if not os.path.isdir(self.export):
            subprocess.run(
                [sys.executable, os.path.join(HERE, "make_export.py"), self.export, "--records", str(self.a.records),
                 "--seed", str(self.a.seed), "--zipped", "0.4", "--seconds", "10"], check=True, capture_output=True)
        self.reference = os.path.join(self.work, "reference")
        shutil.rmtree(self.reference, ignore_errors=True)
        t0 = time.time()
        r = run(self.binary, ["batch", self.export, "--out", self.reference, "--no-progress", "--format", "researchkit"])
        self.seconds = time.time() - t0
        assert r.returncode in (0, 2), r.stderr
        self.status = r.returncode
        self.expected = outputs(self.reference)
        for k in (1, 2):
            shard = os.path.join(self.work, f"shard{k}")
            shutil.rmtree(shard, ignore_errors=True)
            r = run(self.binary, ["batch", self.export, "--out", shard, "--shard", f"{k}/2", "--no-progress",
                                  "--format", "researchkit"])
            assert r.returncode in (0, 2), r.stderr
        print(f"export: {self.a.records} records; an uninterrupted run takes {self.seconds:.2f} s", flush=True)

    def finish(self, out, fault, phase, first):
        """Resume until complete (at most 5 sessions), then compare."""
        for _ in range(5):
            r = run(self.binary, ["batch", "--resume", "--out", out, "--no-progress"])
            if r.returncode == 66 and ("stopped before it started" in r.stderr or phase == "start"):
                # Killed before run.json existed: what the error says to do, start it again.
                r = run(self.binary, ["batch", self.export, "--out", out, "--no-progress", "--format", "researchkit"])
            if r.returncode in (0, 2):
                break
        else:
            self.record(fault, phase, "resume failed", r.stderr.strip())
            return
        got = outputs(out)
        if got == self.expected:
            self.record(fault, phase, first)
        else:
            differ = sorted(k for k in set(got) | set(self.expected) if got.get(k) != self.expected.get(k))
            self.record(fault, phase, "DIFFERENT", "differ: " + ", ".join(differ[:5]))

    def signal_trial(self, sig, name, index):
        out = os.path.join(self.work, f"{name}-{index}")
        shutil.rmtree(out, ignore_errors=True)
        process = subprocess.Popen(
            [self.binary, "batch", self.export, "--out", out, "--no-progress", "--format", "researchkit"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(self.rng.uniform(0, self.seconds * 1.05))
        phase = phase_of(out, False)
        if process.poll() is None:
            process.send_signal(sig)
        _, err = process.communicate()
        if process.returncode in (0, 2):
            phase = "finished"
        self.finish(out, name, phase, "identical" if phase == "finished" else "stopped+resumed")
        shutil.rmtree(out, ignore_errors=True)

    def merge_kill(self, index):
        out = os.path.join(self.work, f"merge-{index}")
        shutil.rmtree(out, ignore_errors=True)
        shards = [os.path.join(self.work, "shard1"), os.path.join(self.work, "shard2")]
        process = subprocess.Popen([self.binary, "merge"] + shards + ["--output", out],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(self.rng.uniform(0, self.seconds * 0.4))
        killed = process.poll() is None
        if killed:
            process.send_signal(signal.SIGKILL)
        process.communicate()
        r = run(self.binary, ["merge"] + shards + ["--output", out, "--force"])
        same = r.returncode == 0 and outputs(out) == self.expected
        self.record("SIGKILL", "merge", ("stopped+resumed" if killed else "identical") if same else "DIFFERENT",
                    r.stderr.strip())
        shutil.rmtree(out, ignore_errors=True)

    def second_writer(self, index):
        out = os.path.join(self.work, f"second-{index}")
        shutil.rmtree(out, ignore_errors=True)
        first = subprocess.Popen(
            [self.binary, "batch", self.export, "--out", out, "--no-progress", "--format", "researchkit", "--jobs", "1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(self.rng.uniform(0.05, self.seconds * 0.9))
        phase = phase_of(out, False)
        mode = self.rng.choice([["--force"], ["--resume"], ["merge"]])
        if mode == ["merge"]:
            second = run(self.binary, ["merge", os.path.join(self.work, "shard1"), os.path.join(self.work, "shard2"),
                                       "--output", out])
        elif mode == ["--resume"]:
            second = run(self.binary, ["batch", "--resume", "--out", out, "--no-progress"])
        else:
            second = run(self.binary, ["batch", self.export, "--out", out, "--no-progress", "--force", "--format", "researchkit"])
        first.communicate()
        running = first.returncode in (0, 2)
        refused = second.returncode == 73 and "another taskproc is writing here" in second.stderr
        if not running:
            self.record("second writer", phase, "first run failed", first.stderr or "")
        elif phase != "finished" and not refused and second.returncode not in (0, 2, 65):
            self.record("second writer", phase, "unexpected", f"exit {second.returncode}: {second.stderr.strip()}")
        else:
            self.finish(out, "second writer", phase, "refused+identical" if refused else "identical")
        shutil.rmtree(out, ignore_errors=True)

    def mount(self, path, options):
        os.makedirs(path, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path], check=True)

    def full_disk(self, index):
        disk = os.path.join(self.work, f"disk-{index}")
        needed = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(self.reference) for f in fs)
        size = max(16384, int(needed * self.rng.uniform(0.02, 1.1)))
        self.mount(disk, f"size={size}")
        needed = max(needed, 1 << 20)
        try:
            out = os.path.join(disk, "out")
            r = run(self.binary, ["batch", self.export, "--out", out, "--no-progress", "--format", "researchkit"])
            phase = phase_of(out, False) if r.returncode == 74 else "finished"
            if r.returncode not in (0, 2, 74) or "NSCocoaErrorDomain" in r.stderr or "Fatal error" in r.stderr:
                self.record("ENOSPC", phase, "unexpected", f"exit {r.returncode}: {r.stderr.strip()}")
                return
            subprocess.run(["mount", "-o", f"remount,size={needed * 3}", disk], check=True)
            self.finish(out, "ENOSPC", phase, "identical" if r.returncode != 74 else "stopped+resumed")
        finally:
            subprocess.run(["umount", "-l", disk])

    def read_only(self, index):
        """The output is on a read-only filesystem: refused at once (73) naming the reason; once it is writable, the
        run gives the uninterrupted outputs. (A filesystem cannot turn read-only under open files: remount says
        busy; a disk that fails mid-run is the ENOSPC trial.)"""
        disk = os.path.join(self.work, f"ro-{index}")
        self.mount(disk, "size=64m,ro")
        try:
            out = os.path.join(disk, "out")
            r = run(self.binary, ["batch", self.export, "--out", out, "--no-progress", "--format", "researchkit"])
            if r.returncode != 73 or "Read-only file system" not in r.stderr:
                self.record("EROFS", "start", "unexpected", f"exit {r.returncode}: {r.stderr.strip()}")
                return
            subprocess.run(["mount", "-o", "remount,rw", disk], check=True)
            r = run(self.binary, ["batch", self.export, "--out", out, "--no-progress", "--format", "researchkit"])
            same = r.returncode == self.status and outputs(out) == self.expected
            self.record("EROFS", "start", "refused+identical" if same else "DIFFERENT", r.stderr.strip())
        finally:
            subprocess.run(["umount", "-l", disk])

    def no_permission(self, index):
        """As nobody: the output folder loses its write permission at a random moment (EACCES)."""
        out = os.path.join(self.work, f"eacces-{index}")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        os.chown(out, 65534, 65534)
        process = subprocess.Popen(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", self.binary, "batch", self.export,
             "--out", out, "--no-progress", "--format", "researchkit"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(self.rng.uniform(0, self.seconds))
        phase = phase_of(out, False)
        for d, dirs, _ in os.walk(out):
            for name in dirs + ["."]:
                os.chmod(os.path.join(d, name), 0o555)
        _, err = process.communicate()
        for d, dirs, _ in os.walk(out):
            for name in dirs + ["."]:
                os.chmod(os.path.join(d, name), 0o755)
        if process.returncode in (0, 2):
            phase = "finished"
        elif process.returncode not in (73, 74) or "NSCocoaErrorDomain" in err or "Fatal error" in err:
            self.record("EACCES", phase, "unexpected", f"exit {process.returncode}: {err.strip()}")
            return
        self.finish(out, "EACCES", phase, "identical" if phase == "finished" else "stopped+resumed")
        shutil.rmtree(out, ignore_errors=True)

    def main(self):
        self.prepare()
        print(f"{self.a.kills} random kills (SIGKILL), {self.a.faults} of each other fault", flush=True)
        for i in range(self.a.kills):
            self.signal_trial(signal.SIGKILL, "SIGKILL", i)
        for i in range(self.a.faults):
            self.signal_trial(signal.SIGTERM, "SIGTERM", i)
            self.signal_trial(signal.SIGINT, "SIGINT", i)
            self.merge_kill(i)
            self.second_writer(i)
            if self.root:
                self.full_disk(i)
                self.read_only(i)
                if shutil.which("setpriv") and self.nobody_can_run():
                    self.no_permission(i)
        if not self.root:
            print("not root: ENOSPC, EROFS and EACCES trials skipped", flush=True)
        return self.report()

    def nobody_can_run(self):
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", self.binary, "--version"],
                           capture_output=True)
        return r.returncode == 0 and os.access(self.export, os.R_OK)

    def report(self):
        good = ("identical", "refused+identical", "stopped+resumed")
        bad = [t for t in self.trials if t["outcome"] not in good]
        table = {}
        for t in self.trials:
            table.setdefault((t["fault"], t["phase"]), []).append(t["outcome"])
        print("\n| fault | phase | trials | finished identical | stopped, resumed identical | refused, identical | other |")
        print("|---|---|---|---|---|---|---|")
        for (fault, phase), outcomes in sorted(table.items()):
            print(f"| {fault} | {phase} | {len(outcomes)} | {outcomes.count('identical')} | "
                  f"{outcomes.count('stopped+resumed')} | {outcomes.count('refused+identical')} | "
                  f"{sum(o not in good for o in outcomes)} |")
        print(f"\n{len(self.trials)} faults injected, {len(self.trials) - len(bad)} ended in the uninterrupted "
              f"outputs; {len(bad)} did not", flush=True)
        if self.a.json:
            with open(self.a.json, "w") as f:
                json.dump({"records": self.a.records, "seconds": self.seconds, "trials": self.trials}, f, indent=1)
        return 1 if bad else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(REPOSITORY, ".build", "release", "taskproc"))
    parser.add_argument("--records", type=int, default=400)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--faults", type=int, default=5)
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--work")
    parser.add_argument("--json")
    sys.exit(Soak(parser.parse_args()).main())
