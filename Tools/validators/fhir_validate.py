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

Structure rules the models do not check (`structure_problems`): no empty string anywhere (an R4 string has at
least one character); a Coding's `system` is a code system, never a ValueSet URL; UCUM quantities use no
customary US volume unit (`[pt]` is the pint, not a point) and no white space; an extension's `url` is a
StructureDefinition URL (`…/StructureDefinition/…`); every `urn:uuid:` reference resolves to an entry's `fullUrl`;
a transaction's entries each have a `request` with `method` and `url`; a QuestionnaireResponse's `linkId`s are
unique among siblings and no item repeats its parent's.

The package is installed on first use into a virtual environment (default `.build/fhir-venv`, or
$TASKPROC_FHIR_VENV), so the test suite needs only python3 with venv and access to PyPI.
Exit status 0 when every bundle is valid, 1 otherwise (each problem printed), 2 when the validator cannot be set up.
"""
import json
import os
import re
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


UCUM_NOT_POINTS = ("[pt", "[qt", "[gal", "[foz")


def walk(value, path, visit):
    """Calls visit(path, value) for every value of a JSON tree."""
    visit(path, value)
    if isinstance(value, dict):
        for key, item in value.items():
            walk(item, f"{path}.{key}", visit)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            walk(item, f"{path}[{i}]", visit)


def linkid_problems(items, parent, path):
    problems, seen = [], set()
    for i, item in enumerate(items or []):
        link = item.get("linkId")
        if link in seen:
            problems.append(f"{path}.item[{i}]: linkId {link!r} repeats among its siblings")
        seen.add(link)
        if parent is not None and link == parent:
            problems.append(f"{path}.item[{i}]: linkId {link!r} repeats its parent's")
        problems += linkid_problems(item.get("item"), link, f"{path}.item[{i}]")
    return problems


def structure_problems(bundle):
    """The structure rules above, as messages."""
    problems = []
    urls = {e.get("fullUrl") for e in bundle.get("entry", []) if e.get("fullUrl")}

    def visit(path, value):
        if value == "":
            problems.append(f"{path}: empty string (an R4 string cannot be empty)")
        if not isinstance(value, dict):
            return
        system = value.get("system")
        if isinstance(system, str) and "/ValueSet/" in system and "code" in value:
            problems.append(f"{path}: Coding.system {system} is a ValueSet, not a code system")
        if system == "http://unitsofmeasure.org" and isinstance(value.get("code"), str):
            code = value["code"]
            if any(c.isspace() for c in code) or any(bad in code for bad in UCUM_NOT_POINTS):
                problems.append(f"{path}: {code!r} is not the UCUM unit meant (or not UCUM)")
        ref = value.get("reference")
        if isinstance(ref, str) and ref.startswith("urn:uuid:") and ref not in urls:
            problems.append(f"{path}: reference {ref} resolves to no entry of the bundle")

    walk(bundle, "Bundle", visit)

    def extensions(path, value):
        if isinstance(value, dict) and isinstance(value.get("extension"), list):
            for i, ext in enumerate(value["extension"]):
                url = ext.get("url", "") if isinstance(ext, dict) else ""
                # A complex extension's parts are named by a relative url ("title" in C3-PRO's consent section).
                nested = re.search(r"\.extension\[\d+\]$", path) is not None
                if nested and url and ":" not in url and "/" not in url:
                    continue
                if "/StructureDefinition/" not in url:
                    problems.append(f"{path}.extension[{i}]: url {url!r} is not a StructureDefinition URL")

    walk(bundle, "Bundle", extensions)
    for i, entry in enumerate(bundle.get("entry", [])):
        resource = entry.get("resource", {})
        if bundle.get("type") == "transaction":
            request = entry.get("request") or {}
            if not request.get("method") or not request.get("url"):
                problems.append(f"entry[{i}]: a transaction entry needs request.method and request.url")
        if resource.get("resourceType") == "QuestionnaireResponse":
            problems += linkid_problems(resource.get("item"), None, f"entry[{i}].resource")
    return problems


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
        problems += structure_problems(data)
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
