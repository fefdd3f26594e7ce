#!/usr/bin/env python3
"""The pipeline stages import only the stages below them (house style: the compiler keeps the flow one way).

    SensorSignal, Archives  <  StudyInputs  <  ActiveTasks  <  StudyOutputs  <  StudyBatch  <  taskproc

Package.swift's dependencies already stop a module from importing one it does not depend on; this check also stops
Package.swift from gaining an upward dependency. Every module under Sources/ must have a rule here: a new module
fails the check until it is placed. Usage: stage-imports.py [Sources] -- exits 1 listing each upward import.
"""
import os
import re
import sys

# The project modules each module may import (C shims are checked by .ci/run's import_leaks).
ALLOWED = {
    "CFFTW": set(),
    "CSndfile": set(),
    "CZlib": set(),
    "SensorSignal": {"CFFTW", "CSndfile"},
    "Archives": {"CZlib"},
    "StudyInputs": {"SensorSignal", "Archives"},
    "ActiveTasks": {"StudyInputs", "SensorSignal", "Archives"},
    "StudyOutputs": {"ActiveTasks", "StudyInputs", "SensorSignal", "Archives"},
    "StudyBatch": {"StudyOutputs", "ActiveTasks", "StudyInputs", "SensorSignal", "Archives"},
    "taskproc": {"StudyBatch", "StudyOutputs", "ActiveTasks", "StudyInputs", "SensorSignal", "Archives"},
}
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:\w+\s+)?(\w+)",
                    re.M)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "Sources"
    modules = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    project = set(modules)
    problems = [f"{root}/{m}: a module with no rule in .ci/stage-imports.py; add one" for m in modules if m not in ALLOWED]
    for module in modules:
        for folder, _, files in os.walk(os.path.join(root, module)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for imported in IMPORT.findall(text):
                    if imported in project and imported != module and imported not in ALLOWED.get(module, set()):
                        problems.append(f"{path}: {module} imports {imported}, a stage above it or beside it")
    for line in problems:
        print(line)
    if problems:
        return 1
    print(f"stage-imports: {len(modules)} modules, every import points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
