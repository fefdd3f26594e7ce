#!/usr/bin/env python3
"""Writes raw seed inputs for every fuzz target (docs/fuzzing.md, "Seeds").

    python3 Fuzz/make-seeds.py OUT [--shared ../shared/data] [--taskproc .build/release/taskproc]

Seeds come from the test fixtures (Tests/Fixtures, the malformed-input cases included) and the
shared real data, shrunk to a few KiB (arrays cut to their first items, tables to their first rows), plus tiny
audio files made with ffmpeg and taskproc's own results for the export and report targets. They are not committed:
`libFuzzer -merge=1` keeps the ones that add coverage in Fuzz/Corpus/<target>/.
"""
import argparse, glob, gzip, io, json, os, random, subprocess, sys, tempfile, zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "Tests/Fixtures")


def shrink(value, items=12):
    if isinstance(value, list):
        return [shrink(v, items) for v in value[:items]]
    if isinstance(value, dict):
        return {k: shrink(v, items) for k, v in value.items()}
    return value


def json_seed(path, items=12):
    raw = open(path, "rb").read()
    try:
        return json.dumps(shrink(json.loads(raw), items), separators=(",", ":")).encode()
    except Exception:
        return raw[:4096]  # malformed fixtures stay malformed


def head(path, lines=30):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return b"".join(f.readline() for _ in range(lines))


class Seeds:
    def __init__(self, out):
        self.out, self.count = out, {}

    def add(self, target, data):
        d = os.path.join(self.out, target)
        os.makedirs(d, exist_ok=True)
        n = self.count.get(target, 0)
        self.count[target] = n + 1
        open(os.path.join(d, "seed-%03d" % n), "wb").write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shared", default=os.path.join(ROOT, "../shared/data"))
    ap.add_argument("--taskproc", default=os.path.join(ROOT, ".build/release/taskproc"))
    a = ap.parse_args()
    s = Seeds(a.out)
    rng = random.Random(16)
    shared = a.shared

    # JSON and decimal parsers.
    jsons = sorted(glob.glob(FIX + "/**/*.json", recursive=True)) + sorted(glob.glob(shared + "/researchkit-samples/*.json"))
    jsons += [shared + "/mpower-samples/pdkit_mpower_finger_tapping.json", shared + "/mpower-samples/pdkit_mpower_gait_stationary.json",
              shared + "/audiometry/reference-audiograms-300.json"]
    for p in jsons:
        if os.path.exists(p):
            s.add("FuzzJSON", json_seed(p, 4))
    for t in [b"{}", b"[]", b'"\\ud800"', b"[" * 300, b'{"a":1e400}', b"\xef\xbb\xbf[1,2]", b"-0.0e-0", b'{"a":"\x00"}']:
        s.add("FuzzJSON", t)
    for t in ["0", "-0", "1.5", "-1.5e-3", "1e308", "1e309", "4.9e-324", "2.4703282292062327e-324",
              "2.2250738585072011e-308", "123456789012345678901234567890", "9007199254740993", "0.1", ".5", "1.",
              "-", "+1", "1e", "1e+", "00012", "1,5", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
              "0." + "0" * 400 + "1", "1" + "0" * 30 + "e-30"]:
        s.add("FuzzDecimal", t.encode())

    # Readers behind the recogniser (first byte: the file-name index of the target).
    for p in sorted(glob.glob(FIX + "/researchkit/*.json") + glob.glob(FIX + "/audiometry/*.json")) + sorted(glob.glob(shared + "/researchkit-samples/*.json")):
        s.add("FuzzResearchKit", b"\x00" + json_seed(p))
    s.add("FuzzResearchKit", b"\x01" + json_seed(FIX + "/tapping/task-folder/taskResult.json") + b"\x00"
          + json_seed(FIX + "/tapping/task-folder/accel_tapping_right.json"))
    rec_names = ["accelerometer", "deviceMotion", "pedometer", "location", "touch", "HKQuantityTypeIdentifierHeartRate"]
    for i, name in enumerate(rec_names):
        for p in glob.glob(FIX + "/recorders/%s.json" % name) + glob.glob(FIX + "/mydatahelps/**/%s.json" % name.capitalize(), recursive=True):
            s.add("FuzzRecorderLog", bytes([i]) + json_seed(p))
    s.add("FuzzRecorderLog", b"\x00" + json_seed(FIX + "/tapping/task-folder/accel_tapping_right.json"))
    s.add("FuzzRecorderLog", b"\x01" + json_seed(FIX + "/mpower/deviceMotion_walking_return.json.items"))
    s.add("FuzzRecorderLog", b"\x00" + json_seed(shared + "/mpower-samples/pdkit_mpower_gait_stationary.json", 40))
    mp = {0: "accel_walking_outbound.json.items-7c1d2e3f-0a4b-4c5d-8e9f-0123456789ab.tmp", 1: "deviceMotion_walking_return.json.items",
          2: "pedometer_walking_outbound.json.items", 4: "tapping_results.json", 5: "tapping_left.json.TappingSamples"}
    for i, name in mp.items():
        s.add("FuzzMPower", bytes([i]) + json_seed(FIX + "/mpower/" + name))
    s.add("FuzzMPower", b"\x04" + json_seed(shared + "/mpower-samples/pdkit_mpower_finger_tapping.json", 30))
    s.add("FuzzMPower", b"\x00" + json_seed(shared + "/mpower-samples/pdkit_mpower_gait_stationary.json", 60))
    mdh = FIX + "/mydatahelps/SurveyData/P-0001/SR-77/walking.outbound/"
    for i, name in enumerate(["Accelerometer.json", "DeviceMotion.json", "Pedometer.json"]):
        s.add("FuzzMyDataHelps", bytes([i]) + json_seed(mdh + name))
    s.add("FuzzMyDataHelps", b"\x03" + head(FIX + "/mydatahelps/SurveyTappingIntervalResults.csv", 5))
    s.add("FuzzMyDataHelps", b"\x04" + head(FIX + "/mydatahelps/SurveyToneAudiometryResults.csv", 5))
    survey = FIX + "/mydatahelps-survey/"
    for i, name in enumerate(["SurveyQuestionResults.csv", "SurveyConsentSignatureResults.csv"], start=5):
        s.add("FuzzMyDataHelps", bytes([i]) + head(survey + name, 9))
    s.add("FuzzMyDataHelps", b"\x07" + open(survey + "SurveyResults.json", "rb").read())
    s.add("FuzzMyDataHelps", b"\x08" + open(survey + "survey-answers-api.json", "rb").read())
    csvs = sorted(glob.glob(FIX + "/csv/*.csv") + glob.glob(FIX + "/tapping/*.csv"))
    csvs += [shared + "/mpower-samples/mhealthtools_tap_data.csv", shared + "/mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz",
             shared + "/forest-oak/test_data_bout.csv"] + sorted(glob.glob(shared + "/oxford-step-counter/*.gz"))[:1]
    csvs += sorted(glob.glob(shared + "/weallwalk/**/*.csv", recursive=True))[:2] + sorted(glob.glob(shared + "/mobilise-d-lab/**/*.csv*", recursive=True))[:1]
    for p in csvs:
        if os.path.exists(p):
            s.add("FuzzCSV", (b"\x03" if "tap" in os.path.basename(p) else b"\x00") + head(p, 40))
    gaitpy = shared + "/gaitpy-demo/demo_data.csv.gz"
    if os.path.exists(gaitpy):
        s.add("FuzzCSV", b"\x00" + head(gaitpy, 130))

    # Archives.
    small = [("walking/accelerometer.json", json_seed(FIX + "/recorders/pedometer.json")),
             ("tap_table.csv", head(FIX + "/csv/tap_table.csv", 12)),
             ("result.json", json_seed(FIX + "/researchkit/spl-meter.json"))]
    for members in [small[:1], small, [("a/../../evil.json", b"{}")], [("dir/", b""), ("dir/x.csv", b"t,x,y,buttonid\n1,2,3,TappedButtonLeft\n")]]:
        for method in [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]:
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", method) as z:
                for name, data in members:
                    z.writestr(name, data)
            s.add("FuzzZip", b"\x00" + buf.getvalue())
            s.add("FuzzZip", b"\x01" + buf.getvalue())
    for i, (name, data) in enumerate(small):
        g = gzip.compress(data, mtime=0)
        s.add("FuzzGzip", b"\x00" + g)
        s.add("FuzzGzip", bytes([128 + [1, 0, 0][i]]) + g)
    s.add("FuzzGzip", b"\x00" + gzip.compress(b"a", mtime=0) + gzip.compress(b"b", mtime=0))
    s.add("FuzzGzip", b"\x80" + gzip.compress(head(shared + "/oxford-step-counter/user1_hand_1506421989895.csv.gz", 20), mtime=0))

    # Audio: tiny files of every container libsndfile reads (first byte: the extension index of FuzzAudio).
    exts = ["wav", "flac", "ogg", "aiff", "caf", "au", "w64", "rf64", "opus", "snd", "aifc"]
    codecs = {"wav": ["-c:a", "pcm_s16le"], "flac": [], "ogg": ["-c:a", "libvorbis"], "aiff": [], "caf": ["-c:a", "pcm_s16le"],
              "au": [], "w64": [], "rf64": ["-f", "wav", "-rf64", "always"], "opus": ["-c:a", "libopus"]}
    with tempfile.TemporaryDirectory() as tmp:
        for i, ext in enumerate(exts[:9]):
            out = os.path.join(tmp, "a." + ext)
            rate = "48000" if ext in ("opus",) else "8000"
            cmd = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=%s:duration=0.02" % rate] + codecs[ext] + [out]
            if subprocess.run(cmd).returncode == 0:
                s.add("FuzzAudio", bytes([i]) + open(out, "rb").read())
        out = os.path.join(tmp, "f.wav")
        if subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=sample_rate=8000:duration=0.01", "-ac", "2", "-c:a", "pcm_f32le", out]).returncode == 0:
            s.add("FuzzAudio", b"\x00" + open(out, "rb").read())
        # What ffprobe prints, for the handoff boundary.
        m4a = os.path.join(tmp, "a.m4a")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=sample_rate=44100:duration=0.1", "-c:a", "aac", m4a])
        for f in [m4a, os.path.join(tmp, "a.flac"), os.path.join(tmp, "a.ogg")]:
            r = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                                "stream=codec_name,sample_rate,channels,bits_per_raw_sample,duration:format=format_name",
                                "-of", "default=noprint_wrappers=1", f], capture_output=True)
            s.add("FuzzFFprobe", r.stdout)
    s.add("FuzzFFprobe", b"!\x00a.m4a: Invalid data found when processing input\n")
    s.add("FuzzFFprobe", b"codec_name=alac\nsample_rate=48000\nchannels=2\nbits_per_raw_sample=24\nduration=N/A\nformat_name=mov,mp4,m4a\n")

    # Processors: structured inputs are built from any bytes; a few random seeds start them off.
    for target in ["FuzzWalking", "FuzzTapping", "FuzzSoundLevel", "FuzzSPLMeter", "FuzzAudiometry"]:
        for n in [16, 64, 256, 1024]:
            s.add(target, bytes(rng.randrange(256) for _ in range(n)))

    # Exporters and report: taskproc's own results (JSON text, then NUL and bytes for hostile numbers).
    inputs = [FIX + "/mpower/deviceMotion_walking_return.json.items", shared + "/mpower-samples/mhealthtools_tap_data.csv",
              FIX + "/audiometry/dbhl-task.json", FIX + "/audiometry/legacy-tone-audiometry.json",
              FIX + "/researchkit/spl-meter.json", FIX + "/researchkit/timed-walk-task.json", FIX + "/tapping/task-folder",
              shared + "/mpower-samples/pdkit_mpower_gait_stationary.json"]
    with tempfile.TemporaryDirectory() as tmp:
        wav = os.path.join(tmp, "tone.wav")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=8000:duration=2", wav])
        inputs.append(wav)
        for p in inputs:
            r = subprocess.run([a.taskproc, "analyze", p, "--format", "json"], capture_output=True)
            if r.returncode != 0 or not r.stdout.strip():
                print("no result for", p, r.stderr.decode()[:200], file=sys.stderr)
                continue
            doc = shrink(json.loads(r.stdout), 16)
            text = json.dumps(doc, separators=(",", ":")).encode()
            hostile = bytes(rng.randrange(256) for _ in range(24))
            results = doc if isinstance(doc, list) else [doc]
            line = json.dumps({"source": p.split("/")[-1], "kind": results[0].get("kind"), "status": "ok", "results": results},
                              separators=(",", ":")).encode()
            for target in ["FuzzExport", "FuzzReport"]:
                s.add(target, text)
                s.add(target, text + b"\x00" + hostile)
            s.add("FuzzReport", line + b"\n" + b'{"source":"x.json","status":"error","reason":"<b>bad</b>"}\n')
    for t, n in sorted(s.count.items()):
        print("%-16s %3d seeds" % (t, n))


if __name__ == "__main__":
    main()
