#!/usr/bin/env python3
"""Generate a synthetic study export for `taskproc batch` tests and throughput measurements.

The export mixes every dialect a study team meets, with join keys in the paths:

  researchkit/healthCode=HC…/recordId=R…/   ResearchKit walking task folder (ORKTaskResult JSON + accelerometer log)
  mpower/healthCode=HC…/recordId=R…/        mPower accelerometer column file (bare JSON array)
  mydatahelps/SurveyData/P…/SR…/walking.outbound/Accelerometer.json   MyDataHelps step folder
  csv/walk_….csv                            generic accelerometer CSV (header time_ms,ax,ay,az; g)
  tapping/tap_….csv                         mhealthtools tap table (t,x,y,buttonid)
  audio/rec_….wav                           16-bit PCM WAV, 440 Hz tone
  archives/part_….zip                       some of the above, zipped (deflate)
  README.md, notes/*.png                    files that are not inputs (skipped)

A fraction of records is deliberately broken (truncated JSON, empty file, non-numeric CSV, corrupt WAV header,
task folder whose recorder file is missing). The manifest (written beside the export, never inside it) lists each
record's source relative to the export root (`archives/part_3.zip!/…` inside archives), its kind and whether it
was broken, so a test can check that every record reaches results.jsonl or errors.jsonl.

Usage: make_export.py OUT_DIR [--records N] [--seed S] [--broken F] [--zipped F] [--seconds T] [--rate HZ]
Deterministic for a given seed. Only the Python standard library.
"""
import argparse
import json
import math
import os
import random
import struct
import uuid
import zipfile

KINDS = [("researchkit", 0.30), ("mpower", 0.20), ("mydatahelps", 0.15), ("csv", 0.10), ("tapping", 0.10), ("audio", 0.15)]


def walk_samples(rng, seconds, rate):
    """Synthetic walk: gravity on -y plus a 1.8 Hz step rhythm and noise, in g."""
    n = max(2, int(seconds * rate))
    cadence = rng.uniform(1.6, 2.0)
    t0 = rng.uniform(100, 1000)
    out = []
    for i in range(n):
        t = i / rate
        s = 0.25 * math.sin(2 * math.pi * cadence * t)
        out.append((round(t0 + t, 4), round(0.02 * rng.gauss(0, 1), 4), round(-1 + s + 0.02 * rng.gauss(0, 1), 4),
                    round(0.1 * s + 0.02 * rng.gauss(0, 1), 4)))
    return out


def items(samples):
    return [{"timestamp": t, "x": x, "y": y, "z": z} for t, x, y, z in samples]


def task_result(run_uuid, file_name):
    return {
        "_class": "ORKTaskResult", "identifier": "walk", "taskRunUUID": run_uuid,
        "startDate": "2024-05-03T09:00:00-0400", "endDate": "2024-05-03T09:01:00-0400",
        "results": [{
            "_class": "ORKStepResult", "identifier": "walking.outbound", "isPreviousResult": False,
            "startDate": "2024-05-03T09:00:10-0400", "endDate": "2024-05-03T09:00:40-0400",
            "results": [{
                "_class": "ORKFileResult", "identifier": "accelerometer", "contentType": "application/json",
                "fileName": file_name, "startDate": "2024-05-03T09:00:10-0400", "endDate": "2024-05-03T09:00:40-0400",
            }],
        }],
    }


def wav_bytes(rng, seconds=0.25, rate=8000):
    n = int(seconds * rate)
    amp = rng.uniform(0.1, 0.8)
    frames = b"".join(struct.pack("<h", int(32767 * amp * math.sin(2 * math.pi * 440 * i / rate))) for i in range(n))
    header = b"RIFF" + struct.pack("<I", 36 + len(frames)) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16) + b"data" + struct.pack("<I", len(frames))
    return header + frames


def make_record(i, kind, broken, rng, args):
    """Files of one record as {relative path: bytes}, and the record's relative source."""
    hc = "HC%03d" % (i % 50)
    rid = str(uuid.UUID(int=rng.getrandbits(128)))
    samples = walk_samples(rng, args.seconds, args.rate)
    if kind == "researchkit":
        folder = "researchkit/healthCode=%s/recordId=%s" % (hc, rid)
        name = "accel_walking.outbound_%s.json" % str(uuid.UUID(int=rng.getrandbits(128))).upper()
        run = str(uuid.UUID(int=rng.getrandbits(128))).upper()
        files = {folder + "/taskResult.json": json.dumps(task_result(run, name)).encode()}
        log = json.dumps({"items": items(samples)}).encode()
        if broken == "missing":
            files[folder + "/unrelated.json"] = b'{"items": []}'
        else:
            files[folder + "/" + name] = log[: len(log) // 2] if broken == "truncated" else log
        return files, folder
    if kind == "mpower":
        path = "mpower/healthCode=%s/recordId=%s/accel_walking_outbound.json.items-%s.tmp" % (hc, rid, rid)
        data = json.dumps(items(samples)).encode()
        return {path: b"" if broken else data}, path
    if kind == "mydatahelps":
        folder = "mydatahelps/SurveyData/P%04d/SR%06d/walking.outbound" % (i % 200, i)
        data = json.dumps({"items": items(samples)}).encode()
        return {folder + "/Accelerometer.json": data[: len(data) // 3] if broken else data}, folder
    if kind == "csv":
        path = "csv/walk_%06d.csv" % i
        t0 = 1_700_000_000_000
        lines = ["time_ms,ax,ay,az"] + ["%d,%s,%s,%s" % (t0 + int((t - samples[0][0]) * 1000), x, y, z) for t, x, y, z in samples]
        if broken:
            lines[len(lines) // 2] = "oops,not,a,number"
        return {path: ("\n".join(lines) + "\n").encode()}, path
    if kind == "tapping":
        path = "tapping/tap_%06d.csv" % i
        rows = ['"t","x","y","buttonid"']
        t = 0.0
        for k in range(40):
            t += rng.uniform(0.1, 0.3)
            left = k % 2 == 0
            rows.append('%.3f,%.1f,%.1f,"%s"' % (t, 100 if left else 270, 430, "TappedButtonLeft" if left else "TappedButtonRight"))
        data = ("\n".join(rows) + "\n").encode()
        return {path: data[:10] if broken else data}, path
    path = "audio/rec_%06d.wav" % i
    data = wav_bytes(rng)
    return {path: b"RIFF\x00\x00\x00\x00WAVEjunk" + data[44:200] if broken else data}, path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--records", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--broken", type=float, default=0.1, help="fraction of records deliberately broken")
    p.add_argument("--zipped", type=float, default=0.2, help="fraction of records placed inside .zip archives")
    p.add_argument("--per-zip", type=int, default=25)
    p.add_argument("--seconds", type=float, default=2.0, help="length of each motion log, s")
    p.add_argument("--rate", type=float, default=50.0, help="motion sampling rate, Hz")
    args = p.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=False)
    manifest = []
    zipped = []
    weights = [w for _, w in KINDS]
    for i in range(args.records):
        kind = rng.choices([k for k, _ in KINDS], weights)[0]
        broken = None
        if rng.random() < args.broken:
            broken = "missing" if kind == "researchkit" and rng.random() < 0.5 else "truncated"
        files, source = make_record(i, kind, broken, rng, args)
        if rng.random() < args.zipped:
            zipped.append((files, source, kind, broken))
            continue
        for rel, data in files.items():
            path = os.path.join(args.out, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        manifest.append({"source": source, "kind": kind, "broken": broken})
    for z in range(0, len(zipped), args.per_zip):
        name = "archives/part_%04d.zip" % (z // args.per_zip)
        os.makedirs(os.path.join(args.out, "archives"), exist_ok=True)
        with zipfile.ZipFile(os.path.join(args.out, name), "w", zipfile.ZIP_DEFLATED) as archive:
            for files, source, kind, broken in zipped[z:z + args.per_zip]:
                for rel, data in files.items():
                    archive.writestr(rel, data)
                manifest.append({"source": name + "!/" + source, "kind": kind, "broken": broken})
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write("Synthetic export generated by make_export.py (seed %d).\n" % args.seed)
    os.makedirs(os.path.join(args.out, "notes"), exist_ok=True)
    with open(os.path.join(args.out, "notes", "figure.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
    manifest.sort(key=lambda r: r["source"].encode())
    with open(args.out.rstrip("/") + ".manifest.json", "w") as f:
        json.dump({"records": manifest, "skipped": ["README.md", "notes/figure.png"]}, f, indent=1)


if __name__ == "__main__":
    main()
