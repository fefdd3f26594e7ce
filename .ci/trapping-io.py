#!/usr/bin/env python3
"""No call in Sources that traps on an I/O error (issue 51): a full disk must be an error, never a crash.

Flags `try!`, and swift-corelibs-foundation's FileHandle calls that wrap the throwing API in `try!` and so trap
(SIGILL) on ENOSPC, EIO or a closed pipe: write(_:) (use write(contentsOf:) or Archives' OutputFile),
readDataToEndOfFile(), readData(ofLength:), availableData, seekToEndOfFile(), seek(toFileOffset:), offsetInFile,
synchronizeFile(), truncateFile(atOffset:), closeFile(). Comments are ignored.
Usage: trapping-io.py [Sources] -- exits 1 listing every such call.
"""
import os
import re
import sys

PATTERNS = [
    (re.compile(r"\btry!"), "try!"),
    (re.compile(r"\.readDataToEndOfFile\(\)"), "readDataToEndOfFile()"),
    (re.compile(r"\.readData\(ofLength:"), "readData(ofLength:)"),
    (re.compile(r"\.availableData\b"), "availableData"),
    (re.compile(r"\.seekToEndOfFile\(\)"), "seekToEndOfFile()"),
    (re.compile(r"\.seek\(toFileOffset:"), "seek(toFileOffset:)"),
    (re.compile(r"\.offsetInFile\b"), "offsetInFile"),
    (re.compile(r"\.synchronizeFile\(\)"), "synchronizeFile()"),
    (re.compile(r"\.truncateFile\(atOffset:"), "truncateFile(atOffset:)"),
    (re.compile(r"\.closeFile\(\)"), "closeFile()"),
    # FileHandle.write(_ data: Data): a handle-like receiver and an unlabelled argument.
    (re.compile(r"\b(?:handle|fileHandle|FileHandle\.standard(?:Output|Error))\.write\((?!contentsOf:)"), "FileHandle.write(_:)"),
]


def main(root):
    found = []
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    code = line.split("//", 1)[0]
                    for pattern, what in PATTERNS:
                        if pattern.search(code):
                            found.append(f"  {path}:{number}: {what}: {line.strip()}")
    if found:
        print("Calls that trap on an I/O error (use the throwing API, or Archives' OutputFile/FileSystem):")
        print("\n".join(found))
        return 1
    print(f"trapping-io: no call in {root} traps on an I/O error")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "Sources"))
