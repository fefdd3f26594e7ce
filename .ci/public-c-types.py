#!/usr/bin/env python3
"""Fails if a public or open declaration under the given folders mentions a C handle or C type.

House style: the C libraries stay behind SensorSignal/Interop; public API speaks Swift only. The compiler already
refuses C-module types in public declarations (`internal import`), but not `OpaquePointer`, the standard library
type every C handle (SNDFILE*, fftw_plan) is imported as. A line grep misses signatures that span lines, so this
reads each declaration from its access keyword to its body (`{`), default value (`=`) or the end of its line at
bracket depth 0.
"""
import re
import sys
from pathlib import Path

C_TYPES = re.compile(r"\b(OpaquePointer|SF_INFO|SNDFILE|sf_count_t|SF_VIRTUAL_IO|fftwf?_\w+|z_stream\w*|gzFile)\b")
START = re.compile(r"(?<![\w.])(public|open)\s+(?!import\b)")


def strip(text: str) -> str:
    """Blanks comments and string literals, keeping line breaks so line numbers stay right."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def declarations(text: str):
    """(line, signature) of every public/open declaration."""
    for m in START.finditer(text):
        depth, j = 0, m.start()
        while j < len(text):
            c = text[j]
            if text.startswith(("<<", ">>", "<=", ">="), j):  # operators, not generic brackets
                j += 2
                continue
            if c in "(<[":
                depth += 1
            elif c in ")>]":
                depth -= 1 if not (c == ">" and text[j - 1] == "-") else 0
            elif depth <= 0 and (c in "{=" or c == "\n" and not re.match(r"\s*(->|throws|where|[)\]:,.])", text[j + 1:j + 40])):
                break
            j += 1
        yield text.count("\n", 0, m.start()) + 1, text[m.start():j]


def main(roots):
    found = []
    for root in roots:
        for path in sorted(Path(root).rglob("*.swift")):
            for line, signature in declarations(strip(path.read_text(encoding="utf-8"))):
                if C_TYPES.search(signature):
                    found.append(f"{path}:{line}: {' '.join(signature.split())[:160]}")
    if found:
        print("Public declarations that mention a C handle or C type (keep them internal to the Interop layer):")
        print("\n".join(found))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources"]))
