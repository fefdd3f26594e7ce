#!/usr/bin/env python3
"""No Int(...) of an unchecked Double in Sources (issue 16): `Int(x)` traps when x is NaN, ±inf or out of range.

Finds every unlabelled integer conversion -- Int(...), Int32(...), UInt64(...), ... -- whose argument looks
floating-point: it calls .rounded/.squareRoot/log/exp/pow/sin/cos/floor/ceil, Double(/Float(, holds a float literal,
divides, or names a variable the same file declares as Double/Float/TimeInterval. Each must be
  - written with a checked form instead: Int(exactly:), Int.clamped(_:to:) (SensorSignal), a guard the script
    cannot see being no excuse; or
  - listed in .ci/int-of-double-allow.txt as `path | call text | why it cannot trap`.
Labelled forms (exactly:, truncatingIfNeeded:, clamping:, bitPattern:) are never flagged.
Usage: int-of-double.py [Sources] -- exits 1 listing new cases, and stale allow-list lines.
"""
import os
import re
import sys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INTEGER = r"(?:Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64)"
CALL = re.compile(r"(?<![\w.])(" + INTEGER + r")\(")
FLOATY = re.compile(
    r"\.rounded\b|\.squareRoot\(|\b(?:log|log2|log10|exp|pow|sin|cos|tan|floor|ceil|trunc|round)\(|"
    r"\b(?:Double|Float|CGFloat|Float80|TimeInterval)\(|\d\.\d|\d[eE][-+]?\d|/|\.infinity|\.pi\b"
)
DECL = re.compile(r"\b(?:let|var)\s+(\w+)\s*:\s*(?:Double|Float|TimeInterval|CGFloat)\b|"
                  r"\b(\w+)\s*:\s*(?:Double|Float|TimeInterval)\b\s*[,)=]|"
                  r"\b(?:let|var)\s+(\w+)\s*=\s*-?\d+\.\d")


def argument(text, start):
    """The text between the parenthesis opened at `start` and its match."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return text[start + 1:]


def strip_comments(line):
    # Good enough for this code base: no `//` inside string literals on conversion lines.
    cut = line.find("//")
    return line if cut < 0 else line[:cut]


def findings(root):
    out = []
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                lines = [strip_comments(l) for l in f.read().split("\n")]
            text = "\n".join(lines)
            doubles = set()
            for m in DECL.finditer(text):
                doubles.update(g for g in m.groups() if g)
            # Names assigned a floating expression, and names used as floating-point values (x.rounded(), x.isFinite).
            for m in re.finditer(r"\b(?:let|var)\s+(\w+)\s*=\s*([^\n]*)", text):
                if FLOATY.search(m.group(2)):
                    doubles.add(m.group(1))
            for m in re.finditer(r"\b([a-z_]\w*)\.(?:rounded|isFinite|isNaN|isInfinite|squareRoot)\b", text):
                doubles.add(m.group(1))
            for m in CALL.finditer(text):
                arg = argument(text, m.end() - 1)
                if re.match(r"\s*\w+\s*:", arg):  # labelled: exactly:, truncatingIfNeeded:, clamping:, ...
                    continue
                words = set(re.findall(r"(?<![.\w])([A-Za-z_]\w*)(?![\w(])", arg))
                if FLOATY.search(arg) or (words & doubles):
                    line = text.count("\n", 0, m.start()) + 1
                    call = m.group(1) + "(" + " ".join(arg.split()) + ")"
                    out.append((os.path.relpath(path, REPOSITORY), line, call))
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "Sources"
    here = os.path.dirname(os.path.abspath(__file__))
    allowed = {}
    with open(os.path.join(here, "int-of-double-allow.txt"), encoding="utf-8") as f:
        for raw in f:
            if not raw.strip() or raw.startswith("#"):
                continue
            parts = [p.strip() for p in raw.split(" | ")]
            if len(parts) != 3 or not parts[2]:
                print(f"int-of-double-allow.txt: malformed line (need `path | call | reason`): {raw.rstrip()}")
                return 1
            allowed[(parts[0], parts[1])] = parts[2]
    found = findings(root)
    used = set()
    bad = []
    for path, line, call in found:
        key = (path, call)
        if key in allowed:
            used.add(key)
        else:
            bad.append(f"{path}:{line}: {call}")
    scanned = os.path.relpath(os.path.abspath(root), REPOSITORY)
    stale = [f"{p} | {c}" for (p, c) in allowed if (p, c) not in used and (p + "/").startswith(scanned + "/")]
    if bad:
        print("Integer conversions of a possibly unchecked Double (use Int(exactly:) or Int.clamped(_:to:), or add "
              "`path | call | why it cannot trap` to .ci/int-of-double-allow.txt):")
        print("\n".join("  " + b for b in bad))
    if stale:
        print("Stale lines in .ci/int-of-double-allow.txt (no such conversion any more):")
        print("\n".join("  " + s for s in stale))
    if bad or stale:
        return 1
    print(f"int-of-double: {len(found)} conversion(s), all allow-listed with a reason")
    return 0


if __name__ == "__main__":
    sys.exit(main())
