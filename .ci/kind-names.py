#!/usr/bin/env python3
"""Outside each task kind's own folder and the registry, no source file names a kind or switches on one.

A kind is declared in its folder of ActiveTasks (`public static let walking = TaskKind("walking")`), so StudyInputs,
below ActiveTasks, cannot name one at all: the compiler holds it. This check covers the rest — ActiveTasks outside
the kind folders and the registry, and every module above it (StudyOutputs, StudyBatch, taskproc) — and fails on:
  - `TaskKind.<kind>` and a comparison or argument with a kind's value (`== .walking`, `kind: .survey`, `[.tapping`);
  - a string literal that is a kind's name (`"survey"`);
  - a kind's analysis type (`SurveyAnalysis.…`): the registry is the one dispatch.
Comments are skipped, and so is a line after a comment `// kind-names: <why>` (a word that is a kind's name but
means something else, such as inspect's part names); the count of such lines is printed. Usage: kind-names.py [Sources] -- exits 1 listing each place.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "Sources"
kernel = os.path.join(root, "ActiveTasks")
DECL = re.compile(r'public static let (\w+) = TaskKind\("(\w+)"\)')
ANALYSIS = re.compile(r"(?:public\s+)?(?:enum|struct)\s+(\w+)\s*:\s*[^{]*\b(?:TaskAnalysis|ScoredTaskAnalysis)\b")

names, kinds, kind_folders, analyses = set(), set(), set(), set()
for folder, _, files in os.walk(kernel):
    for name in files:
        if not name.endswith(".swift"):
            continue
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        for static, raw in DECL.findall(text):
            names.update({static, raw})
            kinds.add(raw)
            kind_folders.add(folder)
        analyses.update(ANALYSIS.findall(text))
if not names:
    sys.exit(f"kind-names: no TaskKind declarations found under {kernel}")
alt = "|".join(sorted(names, key=len, reverse=True))
patterns = [
    re.compile(r"\bTaskKind\.(?:%s)\b" % alt),
    re.compile(r"(?:==|!=|kind:|\[|\(|,)\s*\.(?:%s)\b(?!\s*\()" % alt),
    re.compile(r'"(?:%s)"' % alt),
    re.compile(r"\b(?:%s)\.\w" % "|".join(sorted(analyses))) if analyses else None,
]
patterns = [p for p in patterns if p]

checked = [os.path.join(root, m) for m in ("ActiveTasks", "StudyOutputs", "StudyBatch", "taskproc")]
allowed_files = {os.path.join(kernel, "AnalysisRegistry.swift")}
found, exempt = [], []
for top in checked:
    for folder, _, files in os.walk(top):
        if any(folder == k or folder.startswith(k + os.sep) for k in kind_folders):
            continue
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not name.endswith(".swift") or path in allowed_files:
                continue
            previous = ""
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                code = line.split("//", 1)[0]
                if any(p.search(code) for p in patterns):
                    if previous.strip().startswith("// kind-names:"):
                        exempt.append(f"{path}:{number}")
                    else:
                        found.append(f"{path}:{number}: {line.strip()}")
                previous = line
if found:
    print("a task kind named outside its folder and the registry:")
    print("\n".join(found))
    sys.exit(1)
print(f"kind-names: {len(kinds)} kinds, none named outside their folders and the registry "
      f"({len(exempt)} lines marked `kind-names:`)")
