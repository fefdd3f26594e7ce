#!/usr/bin/env python3
"""Validate the Kubernetes Indexed Job manifest of docs/batch.md against the Kubernetes Job schema.

Usage: k8s_validate.py [DOCS_BATCH_MD]

kubectl is not packaged by Debian 12, so the manifest is checked with `kubernetes-validate` (PyPI; the OpenAPI
schemas of each Kubernetes release, bundled), in strict mode (unknown fields are errors), against Kubernetes 1.30.
The package is installed into a venv under .build/ on first use ($TASKPROC_K8S_VENV overrides the location).

Checks, exit status 1 on any failure (each printed):
- docs/batch.md holds exactly one ```yaml block after the line "Kubernetes Indexed Job";
- it validates as a batch/v1 Job, and it is an Indexed Job whose completions equal its `--shard K/N` count;
- the same manifest with an unknown field in the pod spec does NOT validate (so the check can fail).
Exit status 2 when the validator cannot be set up.
"""
import os
import re
import subprocess
import sys
import tempfile

from reference_venv import ensure_venv as ensure_venv_with

PACKAGE = "kubernetes-validate==1.37.0"
KUBERNETES = "1.30.0"


def ensure_venv():
    return os.path.join(ensure_venv_with(PACKAGE, "k8s-venv", "TASKPROC_K8S_VENV"), "bin", "kubernetes-validate")


def manifest(doc):
    text = open(doc, encoding="utf-8").read()
    start = text.find("Kubernetes Indexed Job")
    if start < 0:
        return None, "no 'Kubernetes Indexed Job' in " + doc
    blocks = re.findall(r"^```yaml\n(.*?)^```$", text[start:], re.S | re.M)
    if not blocks:
        return None, "no ```yaml block after 'Kubernetes Indexed Job'"
    return blocks[0], None


def validate(tool, yaml_text):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(yaml_text)
    r = subprocess.run([tool, "--strict", "-k", KUBERNETES, f.name], capture_output=True, text=True)
    os.unlink(f.name)
    return r.returncode, (r.stdout + r.stderr).strip()


def main():
    doc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "batch.md")
    yaml_text, problem = manifest(doc)
    if problem:
        print(problem)
        return 1
    tool = ensure_venv()
    failures = []
    status, output = validate(tool, yaml_text)
    if status != 0:
        failures.append("the manifest does not validate: " + output)
    if "completionMode: Indexed" not in yaml_text:
        failures.append("not an Indexed Job")
    completions = re.search(r"completions:\s*(\d+)", yaml_text)
    shards = re.search(r"--shard \$K/(\d+)", yaml_text)
    if not completions or not shards or completions.group(1) != shards.group(1):
        failures.append("completions and the --shard count differ")
    broken = yaml_text.replace("restartPolicy: OnFailure", "restartPolicy: OnFailure\n      bogusField: 1", 1)
    status, output = validate(tool, broken)
    if status == 0:
        failures.append("a manifest with an unknown field validated: the check cannot fail")
    for f in failures:
        print(f)
    if not failures:
        print(f"Kubernetes Job manifest of {os.path.relpath(doc)} valid against Kubernetes {KUBERNETES} (strict)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
