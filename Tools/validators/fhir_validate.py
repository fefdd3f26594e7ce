#!/usr/bin/env python3
"""Validate FHIR Bundles written by `taskproc --format fhir` with an independent, well-known validator.

Usage: fhir_validate.py BUNDLE.json [...]

Uses the `fhir.resources` package (pydantic models generated from the FHIR specification; its R4B models, FHIR
4.3.0, whose Bundle and Observation have the same elements as R4 4.0.1 for everything taskproc writes): unknown
elements, wrong types, missing required elements and malformed dates are rejected. On top, the required value
sets taskproc relies on are checked here (the models do not enforce code bindings): Bundle.type,
Observation.status, QuestionnaireResponse.status, Consent.status and Contract.status, Consent's invariant ppc-1 (a policy or a
policyRule), and Bundle's invariant bdl-7 (fullUrl unique within a bundle; taskproc writes no meta.versionId) with
each resource's id unique too.

The package is installed on first use into a virtual environment (default `.build/fhir-venv`, or
$TASKPROC_FHIR_VENV), so the test suite needs only python3 with venv and access to PyPI.
Exit status 0 when every bundle is valid, 1 otherwise (each problem printed), 2 when the validator cannot be set up.
"""
import json
import os
import subprocess
import sys

from reference_venv import ensure_venv as ensure_venv_with

PACKAGE = "fhir.resources==8.3.0"
OBSERVATION_STATUS = {"registered", "preliminary", "final", "amended", "corrected", "cancelled",
                      "entered-in-error", "unknown"}
QUESTIONNAIRE_RESPONSE_STATUS = {"in-progress", "completed", "amended", "entered-in-error", "stopped"}
CONSENT_STATUS = {"draft", "proposed", "active", "rejected", "inactive", "entered-in-error"}
CONTRACT_STATUS = {"amended", "appended", "cancelled", "disputed", "entered-in-error", "executable", "executed",
                   "negotiable", "offered", "policy", "rejected", "renewed", "revoked", "resolved", "terminated"}
BUNDLE_TYPES = {"document", "message", "transaction", "transaction-response", "batch", "batch-response",
                "history", "searchset", "collection"}


def ensure_venv():
    return os.path.join(ensure_venv_with(PACKAGE, "fhir-venv", "TASKPROC_FHIR_VENV"), "bin", "python")


def validate(paths):
    from fhir.resources.R4B.bundle import Bundle  # noqa: imported inside the venv
    failures = 0
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        problems = []
        try:
            Bundle.model_validate(data)
        except Exception as error:  # pydantic.ValidationError and friends
            problems.append(str(error))
        if data.get("type") not in BUNDLE_TYPES:
            problems.append(f"Bundle.type {data.get('type')!r} is not a FHIR bundle type")
        seen_urls, seen_ids = {}, {}
        for i, entry in enumerate(data.get("entry", [])):
            resource = entry.get("resource", {})
            url, rid = entry.get("fullUrl"), (resource.get("resourceType"), resource.get("id"))
            if url is not None:
                if url in seen_urls:
                    problems.append(f"entry[{i}]: fullUrl {url} repeats entry[{seen_urls[url]}] (invariant bdl-7)")
                seen_urls.setdefault(url, i)
            if rid[1] is not None:
                if rid in seen_ids:
                    problems.append(f"entry[{i}]: {rid[0]}/{rid[1]} repeats entry[{seen_ids[rid]}]")
                seen_ids.setdefault(rid, i)
            kind = resource.get("resourceType")
            allowed = {"Observation": OBSERVATION_STATUS, "QuestionnaireResponse": QUESTIONNAIRE_RESPONSE_STATUS,
                       "Consent": CONSENT_STATUS, "Contract": CONTRACT_STATUS}.get(kind)
            if allowed is not None and resource.get("status") not in allowed:
                problems.append(f"entry[{i}]: {kind}.status {resource.get('status')!r} is not in its value set")
            if kind == "Consent" and not (resource.get("policy") or resource.get("policyRule")):
                problems.append(f"entry[{i}]: Consent needs a policy or policyRule (invariant ppc-1)")
        for p in problems:
            print(f"{path}: {p}")
        failures += bool(problems)
    return failures


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if os.environ.get("TASKPROC_FHIR_IN_VENV") != "1":
        python = ensure_venv()
        env = dict(os.environ, TASKPROC_FHIR_IN_VENV="1")
        sys.exit(subprocess.run([python, os.path.abspath(__file__)] + sys.argv[1:], env=env).returncode)
    sys.exit(1 if validate(sys.argv[1:]) else 0)
