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
  every-task/<task>/taskResult.json (+ logs) with --every-task: one ResearchKit run of every active task taskproc
                                            analyses (walking with its rest step, tremor, tapping, dB HL and legacy
                                            tone audiometry, SPL meter, timed walk, the scored tasks incl. the 3D-model selection, a survey with
                                            a consent signature), never broken; manifest kind "every-task:<task>"

A fraction of records is deliberately broken (truncated JSON, empty file, non-numeric CSV, corrupt WAV header,
task folder whose recorder file is missing). The manifest (written beside the export, never inside it) lists each
record's source relative to the export root (`archives/part_3.zip!/…` inside archives), its kind and whether it
was broken, so a test can check that every record reaches results.jsonl or errors.jsonl.

Usage: make_export.py OUT_DIR [--records N] [--seed S] [--broken F] [--zipped F] [--seconds T] [--rate HZ]
                           [--every-task]

Walks last 10-30 s unless --seconds says otherwise; ResearchKit walking runs start on one of 56 days from
2024-04-01 (local time, -04:00) and belong to 50 participants (healthCode=HC000…HC049).
Deterministic for a given seed. Only the Python standard library.
"""
import argparse
import datetime
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


def record_start(i):
    """The local start of record i's task run: one of 56 days from 2024-04-01, between 08:00 and 19:00, at -04:00
    (deterministic in i, so a participant's runs spread over eight weeks)."""
    day = datetime.date(2024, 4, 1) + datetime.timedelta(days=(i * 13) % 56)
    return datetime.datetime(day.year, day.month, day.day, 8 + i % 12, (i * 7) % 60, 0)


def stamp(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + "-0400"


def task_result(run_uuid, file_name, start, seconds):
    step_start = start + datetime.timedelta(seconds=10)
    step_end = step_start + datetime.timedelta(seconds=math.ceil(seconds))
    end = step_end + datetime.timedelta(seconds=5)
    return {
        "_class": "ORKTaskResult", "identifier": "walk", "taskRunUUID": run_uuid,
        "startDate": stamp(start), "endDate": stamp(end),
        "results": [{
            "_class": "ORKStepResult", "identifier": "walking.outbound", "isPreviousResult": False,
            "startDate": stamp(step_start), "endDate": stamp(step_end),
            "results": [{
                "_class": "ORKFileResult", "identifier": "accelerometer", "contentType": "application/json",
                "fileName": file_name, "startDate": stamp(step_start), "endDate": stamp(step_end),
            }],
        }],
    }


def walk_seconds(i, args):
    """--seconds when given, else 10-30 s as ResearchKit's walking steps last (deterministic in i)."""
    return args.seconds if args.seconds is not None else 10 + (i * 7919 % 2001) / 100


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
    seconds = walk_seconds(i, args)
    # the samples have their own generator, so the records drawn after this one do not depend on its length
    samples = walk_samples(random.Random(rng.getrandbits(64)), seconds, args.rate)
    if kind == "researchkit":
        folder = "researchkit/healthCode=%s/recordId=%s" % (hc, rid)
        name = "accel_walking.outbound_%s.json" % str(uuid.UUID(int=rng.getrandbits(128))).upper()
        run = str(uuid.UUID(int=rng.getrandbits(128))).upper()
        files = {folder + "/taskResult.json": json.dumps(task_result(run, name, record_start(i), seconds)).encode()}
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


RK_DATE = "2024-05-03T09:00:00-0400"


def rk_task(identifier, rng, steps):
    """An ORKTaskResult with one ORKStepResult per (step identifier, results)."""
    return {
        "_class": "ORKTaskResult", "identifier": identifier,
        "taskRunUUID": str(uuid.UUID(int=rng.getrandbits(128))).upper(), "startDate": RK_DATE, "endDate": RK_DATE,
        "results": [{"_class": "ORKStepResult", "identifier": step, "isPreviousResult": False, "startDate": RK_DATE,
                     "endDate": RK_DATE, "results": results} for step, results in steps],
    }


def rk_file(identifier, name):
    return {"_class": "ORKFileResult", "identifier": identifier, "contentType": "application/json", "fileName": name,
            "startDate": RK_DATE, "endDate": RK_DATE}


def device_motion_items(rng, seconds, rate, t0=0.0, tremor_hz=None):
    """CoreMotion device-motion samples: still, or with a tremor oscillation (g and rad/s)."""
    out = []
    for i in range(max(2, int(seconds * rate))):
        t = i / rate
        wobble = 0.05 * math.sin(2 * math.pi * tremor_hz * t) if tremor_hz else 0.0
        out.append({
            "timestamp": round(t0 + t, 4),
            "userAcceleration": {"x": round(wobble + 0.003 * rng.gauss(0, 1), 5),
                                 "y": round(0.5 * wobble + 0.003 * rng.gauss(0, 1), 5),
                                 "z": round(0.003 * rng.gauss(0, 1), 5)},
            "gravity": {"x": 0.0, "y": -1.0, "z": 0.0},
            "rotationRate": {"x": round(4 * wobble + 0.01 * rng.gauss(0, 1), 5),
                             "y": round(0.01 * rng.gauss(0, 1), 5), "z": round(0.01 * rng.gauss(0, 1), 5)},
            "attitude": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0},
        })
    return out


def every_task_records(rng, args):
    """One never-broken ResearchKit run of every active task taskproc analyses: [(files, source, kind)]."""
    records = []

    def add(name, task, extra=None):
        folder = "every-task/" + name
        files = {folder + "/taskResult.json": json.dumps(task, indent=1).encode()}
        for rel, data in (extra or {}).items():
            files[folder + "/" + rel] = data
        records.append((files, folder, "every-task:" + name))

    def log(items_):
        return json.dumps({"items": items_}).encode()

    walk = walk_samples(rng, max(args.seconds or 20.0, 10.0), args.rate)
    add("walking", rk_task("walk", rng, [
        ("walking.outbound", [rk_file("accelerometer", "accel_outbound.json")]),
        ("walking.rest", [rk_file("deviceMotion", "deviceMotion_rest.json")]),
    ]), {"accel_outbound.json": log(items(walk)),
         "deviceMotion_rest.json": log(device_motion_items(rng, 10, args.rate))})
    add("tremor", rk_task("tremor", rng, [
        ("tremor.handInLap.right", [rk_file("deviceMotion", "deviceMotion_handInLap.json")]),
    ]), {"deviceMotion_handInLap.json": log(device_motion_items(rng, 10, 100, tremor_hz=5.0))})
    samples, t = [], 0.0
    for k in range(30):
        t += rng.uniform(0.15, 0.3)
        left = k % 2 == 0
        samples.append({"_class": "ORKTappingSample", "timestamp": round(t, 3), "duration": 0.08,
                        "buttonIdentifier": "left" if left else "right",
                        "location": {"x": 100.0 if left else 270.0, "y": 430.0}})
    add("tapping", rk_task("tappingTask", rng, [("tapping.right", [{
        "_class": "ORKTappingIntervalResult", "identifier": "tapping.right", "startDate": RK_DATE, "endDate": RK_DATE,
        "stepViewSize": {"h": 667, "w": 375}, "buttonRect1": {"origin": {"x": 50, "y": 400}, "size": {"h": 100, "w": 100}},
        "buttonRect2": {"origin": {"x": 225, "y": 400}, "size": {"h": 100, "w": 100}},
        "samples": samples}])]))
    units = [{"_class": "ORKdBHLToneAudiometryUnit", "dBHLValue": v, "startOfUnitTimeStamp": 2.0 * k,
              "preStimulusDelay": 1.0, "userTapTimeStamp": 2.0 * k + 1.5 if heard else 0,
              "timeoutTimeStamp": 0 if heard else 2.0 * k + 2}
             for k, (v, heard) in enumerate([(30, True), (20, True), (10, False), (15, True), (10, False), (15, True)])]
    add("dbhl-audiometry", rk_task("dBHLToneAudiometry", rng, [("dBHL1.tone.audiometry", [{
        "_class": "ORKdBHLToneAudiometryResult", "identifier": "dBHL1.tone.audiometry", "startDate": RK_DATE,
        "endDate": RK_DATE, "headphoneType": "AIRPODSPROV2", "outputVolume": 0.8125, "tonePlaybackDuration": 1,
        "postStimulusDelay": 1, "samples": [{"_class": "ORKdBHLToneAudiometryFrequencySample", "frequency": f,
                                             "channel": c, "calculatedThreshold": 15, "units": units}
                                            for c in (0, 1) for f in (1000, 2000, 4000, 500)]}])]))
    add("tone-audiometry", rk_task("toneAudiometry", rng, [("tone.audiometry", [{
        "_class": "ORKToneAudiometryResult", "identifier": "tone.audiometry", "startDate": RK_DATE, "endDate": RK_DATE,
        "outputVolume": 0.5, "samples": [{"_class": "ORKToneAudiometrySample", "frequency": f, "channel": 0,
                                          "channelSelected": 0, "amplitude": 0.01} for f in (500, 1000, 2000)]}])]))
    add("spl-meter", rk_task("splMeter", rng, [("splMeter", [{
        "_class": "ORKEnvironmentSPLMeterResult", "identifier": "splMeter", "startDate": RK_DATE, "endDate": RK_DATE,
        "sensitivityOffset": -23.3, "recordedSPLMeterSamples": [round(40 + 5 * rng.random(), 2) for _ in range(12)]}])]))
    add("timed-walk", rk_task("timedWalk", rng, [("timed.walk.trial1", [
        rk_file("accelerometer", "accel_trial1.json"),
        {"_class": "ORKTimedWalkResult", "identifier": "timed.walk.trial1", "startDate": RK_DATE, "endDate": RK_DATE,
         "distanceInMeters": 7.62, "timeLimit": 180, "duration": 9.8}])]),
        {"accel_trial1.json": log(items(walk))})
    add("range-of-motion", rk_task("kneeRangeOfMotion", rng, [("knee.range.of.motion", [{
        "_class": "ORKRangeOfMotionResult", "identifier": "knee.range.of.motion", "start": 87.5, "finish": 12.25,
        "minimum": 10.5, "maximum": 88, "range": 77.5}])]))
    add("stroop", rk_task("stroop", rng, [("stroop", [
        {"_class": "ORKStroopResult", "identifier": "stroop", "startTime": 10.0 * k, "endTime": 10.0 * k + 0.8,
         "color": c, "text": t_, "colorSelected": c} for k, (c, t_) in enumerate([("RED", "RED"), ("BLUE", "GREEN")])])]))
    add("trail-making", rk_task("trailmaking", rng, [("trailmaking", [{
        "_class": "ORKTrailmakingResult", "identifier": "trailmaking", "numberOfErrors": 0,
        "taps": [{"timestamp": 1.0 + k, "index": k, "incorrect": False} for k in range(13)]}])]))
    add("psat", rk_task("psat", rng, [("psat", [{
        "_class": "ORKPSATResult", "identifier": "psat", "presentationMode": 1, "interStimulusInterval": 3,
        "stimulusDuration": 0, "length": 3, "totalCorrect": 2, "totalDyad": 1, "totalTime": 4.5, "initialDigit": 3,
        "samples": [{"_class": "ORKPSATSample", "digit": d, "answer": a, "correct": ok, "time": 1.5}
                    for d, a, ok in [(5, 8, True), (2, 7, True), (4, 5, False)]]}])]))
    add("spatial-span", rk_task("spatialSpanMemory", rng, [("cognitive.memory.spatialspan", [{
        "_class": "ORKSpatialSpanMemoryResult", "identifier": "cognitive.memory.spatialspan", "score": 20,
        "numberOfGames": 2, "numberOfFailures": 1, "gameRecords": [
            {"_class": "ORKSpatialSpanMemoryGameRecord", "seed": 7, "sequence": [0, 1, 2], "gameSize": 9,
             "gameStatus": status, "score": 10, "touchSamples": [], "targetRects": []}
            for status in ("success", "failure")]}])]))
    add("tower-of-hanoi", rk_task("towerOfHanoi", rng, [("towerOfHanoi", [{
        "_class": "ORKTowerOfHanoiResult", "identifier": "towerOfHanoi", "puzzleWasSolved": True,
        "moves": [{"_class": "ORKTowerOfHanoiMove", "timestamp": 1.5 * k, "donorTowerIndex": 0,
                   "recipientTowerIndex": 2} for k in range(7)]}])]))
    add("hole-peg", rk_task("holePegTest", rng, [("hole.peg.test.dominant.place", [{
        "_class": "ORKHolePegTestResult", "identifier": "hole.peg.test.dominant.place", "movingDirection": 1,
        "dominantHandTested": True, "numberOfPegs": 9, "threshold": 0.2, "rotated": False, "totalSuccesses": 9,
        "totalFailures": 0, "totalTime": 22.5, "totalDistance": 1800.0,
        "samples": [{"_class": "ORKHolePegTestSample", "time": 2.5, "distance": 200.0} for _ in range(9)]}])]))
    add("accuracy-stroop", rk_task("accuracyStroop", rng, [("accuracy.stroop.1", [{
        "_class": "ORKAccuracyStroopResult", "identifier": "accuracy.stroop.1", "startTime": 0, "endTime": 0,
        "color": "ORANGE", "colorSelected": "ORANGE", "didSelectCorrectColor": True, "timeTakenToSelect": 1.25,
        "distanceToClosestCenter": 12.5}])]))
    attempts, extra = [], {}
    for k in range(3):
        name = "deviceMotion_attempt%d.json" % (k + 1)
        stimulus = 10.0 * (k + 1)
        extra[name] = log(device_motion_items(rng, 0.5 + 0.1 * k, 50, t0=stimulus - 0.2))
        attempts.append({"_class": "ORKReactionTimeResult", "identifier": "reactionTime", "timestamp": stimulus,
                         "fileResults": [rk_file("deviceMotion", name)]})
    add("reaction-time", rk_task("reactionTime", rng, [("reactionTime", attempts)]), extra)
    add("normalized-reaction-time", rk_task("normalizedReactionTime", rng, [("reactionTime", [
        {"_class": "ORKNormalizedReactionTimeResult", "identifier": "reactionTime", "currentInterval": 2 + k,
         "stimulusStartDate": "2024-05-03T09:00:%02d.000-0400" % (10 * k + 10),
         "timerStartDate": "2024-05-03T09:00:%02d.250-0400" % (10 * k + 10),
         "reactionDate": "2024-05-03T09:00:%02d.600-0400" % (10 * k + 10),
         "timerEndDate": "2024-05-03T09:00:%02d.600-0400" % (10 * k + 10)} for k in range(3)])]))
    words = ["Today", "is", "a", "sunny", "day"]
    segments, at = [], 0
    for k, w in enumerate(words):
        segments.append({"substring": w, "substringRange": {"location": at, "length": len(w)},
                         "timestamp": 0.5 + 0.4 * k, "duration": 0.3, "confidence": 0.9, "alternativeSubstrings": []})
        at += len(w) + 1
    add("speech-recognition", rk_task("speechRecognition", rng, [("speech.recognition", [{
        "_class": "ORKSpeechRecognitionResult", "identifier": "speech.recognition",
        "transcription": {"formattedString": " ".join(words) + ".", "segments": segments}}])]))
    add("speech-in-noise", rk_task("speechInNoise", rng, [
        ("speech.in.noise1", [{"_class": "ORKSpeechInNoiseResult", "identifier": "speech.in.noise1",
                               "targetSentence": "The actor tried three green pictures", "filename": "Sentence1.wav"}]),
        ("speech.in.noise2", [{"_class": "ORKSpeechRecognitionResult", "identifier": "speech.in.noise2",
                               "transcription": {"formattedString": "The actor tried three green pictures.",
                                                 "segments": []}}]),
    ]))
    add("amsler-grid", rk_task("amslerGrid", rng, [
        ("amsler.grid.left", [{"_class": "ORKAmslerGridResult", "identifier": "amsler.grid.left", "eyeSide": 1}]),
        ("amsler.grid.right", []),
    ]))
    add("model-selection", rk_task("threeDModel", rng, [("usdz.model", [{
        "_class": "ORKUSDZModelManagerResult", "identifier": "usdz.model", "startDate": RK_DATE, "endDate": RK_DATE,
        "identifiersOfSelectedObjects": ["knee", "hip"], "identifierOfObjectSelectedAtClose": "hip"}])]))
    add("survey", rk_task("survey", rng, [
        ("consent", [{"_class": "ORKConsentSignatureResult", "identifier": "participant", "consented": True,
                      "signature": {"_class": "ORKConsentSignature", "identifier": "participant",
                                    "givenName": "Ada", "familyName": "Lovelace", "requiresName": True,
                                    "requiresSignatureImage": False}}]),
        ("mood", [{"_class": "ORKScaleQuestionResult", "identifier": "mood", "questionType": 2,
                   "scaleAnswer": 7, "startDate": RK_DATE, "endDate": RK_DATE}]),
        ("medication", [{"_class": "ORKBooleanQuestionResult", "identifier": "medication", "questionType": 1,
                         "booleanAnswer": 1, "startDate": RK_DATE, "endDate": RK_DATE}]),
    ]))
    return records


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--records", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--broken", type=float, default=0.1, help="fraction of records deliberately broken")
    p.add_argument("--zipped", type=float, default=0.2, help="fraction of records placed inside .zip archives")
    p.add_argument("--per-zip", type=int, default=25)
    p.add_argument("--seconds", type=float, default=None,
                   help="length of each motion log, s (default: 10-30 s, as ResearchKit's walking steps)")
    p.add_argument("--rate", type=float, default=50.0, help="motion sampling rate, Hz")
    p.add_argument("--every-task", action="store_true",
                   help="add every-task/: one run of every active task taskproc analyses")
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
    if args.every_task:
        for files, source, kind in every_task_records(random.Random(args.seed + 1), args):
            for rel, data in files.items():
                path = os.path.join(args.out, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(data)
            manifest.append({"source": source, "kind": kind, "broken": None})
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
