#!/usr/bin/env python3
"""Targeted mutation testing for taskproc: does a plausible bug make a test fail?

Reads the committed list `Tests/Mutants/mutants.tsv` (one mutation a line: id, file, test filters, pattern,
replacement, note). For each mutation it copies the working tree to `.build-mutants/tree` (once, then only the
files that changed), replaces the one occurrence of `pattern` in `file` with `replacement`, builds the tests
incrementally, runs the tests the line names (`swift test --filter …`) and restores the file. A mutation is

  killed      the named tests failed (or timed out)           — good
  SURVIVED    the named tests passed with the bug in place     — a hole in the tests
  equivalent  it survived, and its note starts "equivalent:"   — documented as not a bug
  invalid     the pattern is not found exactly once, or the mutated code does not compile — fix the list

Before the mutations it runs every named filter on the unmutated tree: a filter that fails or matches no test
stops the run, so "killed" always means "killed by the bug".

Usage:
  python3 Tests/Mutants/mutants.py                 # every mutation (make mutants)
  python3 Tests/Mutants/mutants.py --only M07,M12  # some of them
  python3 Tests/Mutants/mutants.py --list          # print the list, run nothing
  python3 Tests/Mutants/mutants.py --check         # every pattern found exactly once? (no build)

Exit status: 0 when every mutation is killed or documented as equivalent, 1 otherwise, 2 on a setup error.
The working tree itself is never modified.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LIST = REPO / "Tests" / "Mutants" / "mutants.tsv"
WORK = REPO / ".build-mutants"
TREE = WORK / "tree"
SWIFT = os.environ.get("SWIFT", "swift")


@dataclasses.dataclass
class Mutation:
    ident: str
    file: str
    filters: list[str]
    pattern: str
    replacement: str
    note: str
    line: int

    @property
    def equivalent(self) -> bool:
        return self.note.lower().startswith("equivalent:")


def unescape(text: str) -> str:
    """The list writes a tab as \\t and a backslash as \\\\ (patterns never need a real newline)."""
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "\\": "\\"}.get(m.group(1), "\\" + m.group(1)), text)


def read_list(path: Path) -> list[Mutation]:
    mutations: list[Mutation] = []
    seen: set[str] = set()
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) != 6:
            sys.exit(f"{path.name}:{number}: expected 6 tab-separated fields, found {len(fields)}")
        ident, file, filters, pattern, replacement, note = fields
        if ident in seen:
            sys.exit(f"{path.name}:{number}: duplicate id {ident}")
        seen.add(ident)
        if not note.strip():
            sys.exit(f"{path.name}:{number}: {ident} has no note (say what bug it plants)")
        mutations.append(
            Mutation(ident, file, filters.split(), unescape(pattern), unescape(replacement), note.strip(), number))
    return mutations


def tracked_files() -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p]


def digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def sync_tree() -> None:
    """Mirror the working tree (tracked and untracked, not ignored) into TREE, copying only what changed."""
    TREE.mkdir(parents=True, exist_ok=True)
    # The tests find the shared data as ../shared beside the repository root: give the copy the same neighbour.
    shared = REPO.parent / "shared"
    link = WORK / "shared"
    if shared.exists() and not link.exists():
        link.symlink_to(shared, target_is_directory=True)
    wanted = set()
    for rel in tracked_files():
        src = REPO / rel
        if not src.is_file():
            continue
        wanted.add(rel)
        dst = TREE / rel
        if dst.is_file() and dst.stat().st_size == src.stat().st_size and digest(dst) == digest(src):
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    for path in TREE.rglob("*"):
        rel = path.relative_to(TREE).as_posix()
        if rel.startswith(".build") or not path.is_file():
            continue
        if rel not in wanted:
            path.unlink()


def run(args: list[str], timeout: float) -> tuple[int | None, str]:
    """Runs a command in TREE; returns (exit status or None on time-out, combined output)."""
    try:
        done = subprocess.run(args, cwd=TREE, capture_output=True, text=True, timeout=timeout)
        return done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        out = (expired.stdout or b"") + (expired.stderr or b"")
        return None, out.decode(errors="replace") if isinstance(out, bytes) else str(out)


def build(timeout: float) -> tuple[bool, str]:
    status, out = run([SWIFT, "build", "--build-tests"], timeout)
    return status == 0, out


TESTS_RAN = re.compile(r"Test run with (\d+) tests?")
XCTESTS_RAN = re.compile(r"Executed (\d+) tests?")


def test(filters: list[str], timeout: float) -> tuple[int | None, int, str]:
    args = [SWIFT, "test", "--skip-build"]
    for f in filters:
        args += ["--filter", f]
    status, out = run(args, timeout)
    count = sum(int(m) for m in TESTS_RAN.findall(out)) + sum(int(m) for m in XCTESTS_RAN.findall(out))
    return status, count, out


def tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated mutation ids")
    parser.add_argument("--list", action="store_true", help="print the mutations and exit")
    parser.add_argument("--check", action="store_true",
                        help="check that every pattern occurs exactly once in the working tree, build nothing")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per test run (default 300)")
    parser.add_argument("--skip-baseline", action="store_true", help="do not check the filters unmutated first")
    options = parser.parse_args()

    mutations = read_list(LIST)
    if options.only:
        wanted = {s.strip() for s in options.only.split(",") if s.strip()}
        unknown = wanted - {m.ident for m in mutations}
        if unknown:
            print(f"unknown mutation id(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        mutations = [m for m in mutations if m.ident in wanted]
    if options.list:
        for m in mutations:
            print(f"{m.ident}\t{m.file}\t{m.pattern!r} -> {m.replacement!r}\t[{' '.join(m.filters)}]\t{m.note}")
        print(f"{len(mutations)} mutations")
        return 0

    if options.check:
        bad = 0
        for m in mutations:
            path = REPO / m.file
            found = path.read_text(encoding="utf-8").count(m.pattern) if path.is_file() else -1
            if found != 1:
                bad += 1
                where = "no such file" if found < 0 else f"pattern found {found} times"
                print(f"{LIST.name}:{m.line}: {m.ident} {m.file}: {where}: {m.pattern!r}")
        print(f"{len(mutations)} mutations, {bad} with a pattern that is not found exactly once")
        return 1 if bad else 0

    started = time.monotonic()
    print(f"mutants: syncing the working tree into {TREE.relative_to(REPO)}", flush=True)
    sync_tree()
    ok, out = build(1800)
    if not ok:
        print("the unmutated tree does not build:\n" + tail(out), file=sys.stderr)
        return 2

    # Every filter must match tests and pass on the unmutated tree, or a "kill" would mean nothing.
    if not options.skip_baseline:
        filters = sorted({f for m in mutations for f in m.filters})
        print(f"mutants: baseline run of {len(filters)} filters", flush=True)
        status, count, out = test(filters, options.timeout * 2)
        if status != 0:
            print("the unmutated tree fails its tests:\n" + tail(out, 40), file=sys.stderr)
            return 2
        status, listing = run([SWIFT, "test", "list", "--skip-build"], options.timeout)
        identifiers = listing.splitlines() if status == 0 else []
        for f in filters:
            if not any(re.search(f, identifier) for identifier in identifiers):
                print(f"filter {f!r} matches no test", file=sys.stderr)
                return 2

    results: list[tuple[Mutation, str, str]] = []
    for m in mutations:
        path = TREE / m.file
        t0 = time.monotonic()
        if not path.is_file():
            results.append((m, "invalid", f"no file {m.file}"))
        else:
            original = path.read_text(encoding="utf-8")
            occurrences = original.count(m.pattern)
            if occurrences != 1:
                results.append((m, "invalid", f"pattern found {occurrences} times (needs exactly 1)"))
            else:
                try:
                    path.write_text(original.replace(m.pattern, m.replacement), encoding="utf-8")
                    ok, out = build(1800)
                    if not ok:
                        errors = [line for line in out.splitlines() if "error:" in line][:3]
                        results.append((m, "invalid", "does not compile: " + " | ".join(errors)))
                    else:
                        status, count, out = test(m.filters, options.timeout)
                        if status is None:
                            results.append((m, "killed", f"time-out after {options.timeout:.0f} s"))
                        elif status != 0:
                            failed = re.findall(r"✘ Test (\S+?)\(", out)
                            results.append((m, "killed", "failed: " + ", ".join(sorted(set(failed))[:4])))
                        elif m.equivalent:
                            results.append((m, "equivalent", m.note))
                        else:
                            results.append((m, "SURVIVED", f"{count} tests passed"))
                finally:
                    path.write_text(original, encoding="utf-8")
        m_, verdict, detail = results[-1]
        print(f"{m.ident:5} {verdict:10} {time.monotonic() - t0:5.0f} s  {m.file}: {detail}", flush=True)

    # Leave the copy's build matching the unmutated sources for the next run.
    build(1800)

    counts = {v: sum(1 for _, verdict, _ in results if verdict == v)
              for v in ("killed", "SURVIVED", "equivalent", "invalid")}
    scored = counts["killed"] + counts["SURVIVED"]
    score = 100.0 * counts["killed"] / scored if scored else 100.0
    print()
    print(f"mutants: {len(results)} run in {(time.monotonic() - started) / 60:.1f} min — "
          f"{counts['killed']} killed, {counts['SURVIVED']} survived, {counts['equivalent']} equivalent, "
          f"{counts['invalid']} invalid; score {score:.1f} % of non-equivalent mutants killed")
    for m, verdict, detail in results:
        if verdict in ("SURVIVED", "invalid"):
            print(f"  {verdict}: {m.ident} {m.file}: {m.pattern!r} -> {m.replacement!r} ({m.note}) — {detail}")
    return 0 if counts["SURVIVED"] == 0 and counts["invalid"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
