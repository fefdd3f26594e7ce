import Foundation
import TestSupport
import Testing

/// `taskproc analyze` in every format on every task kind.
///
/// `taskproc analyze` × every `--format` × every task kind, through the built binary: each test reads one measure
/// with a known value out of every format (the same number must come out of JSON, the table, CSV, the ResearchKit,
/// MORK and FHIR exports) and checks each format's shape.
@Suite struct AnalyzeFormatsEndToEndTests {
    /// Every `--format` of `analyze` (`taskproc analyze --help`; `helpListsExactlyTheFormatsCoveredHere` keeps this
    /// list honest).
    static let formats = ["json", "table", "csv", "researchkit", "mork", "fhir"]

    static let morkEnvelope =
        #"{"envelope": {"subject_name": "P-0001", "study_uuid": "S-1", "folder_oid": "SCREENING", "form_oid": "TASK"}}"#

    static let oxfordHand = "oxford-step-counter/user1_hand_1506421989895.csv.gz"

    @Test func helpListsExactlyTheFormatsCoveredHere() throws {
        let help = try E2E.run(["analyze", "--help"])
        #expect(help.status == ExpectedExit.success)
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("(values: " + Self.formats.joined(separator: ", ") + ";"), "\(flat)")
    }

    // MARK: Running and reading

    /// Runs `analyze INPUT --format F`; for `mork` with a config file written into `dir`.
    func analyze(_ input: String, _ format: String, _ extra: [String] = [], in dir: URL) throws -> E2E.Run {
        var arguments = ["analyze", input, "--format", format] + extra
        if format == "mork" {
            let config = dir.path + "/mork.json"
            if !FileManager.default.fileExists(atPath: config) { try E2E.write(Self.morkEnvelope, to: config) }
            arguments += ["--mork-config", config]
        }
        return try E2E.run(arguments)
    }

    /// Where one measure appears in each format.
    struct Measure {
        /// JSON / ResearchKit key (found at any depth) and CSV column.
        var key: String
        /// Regular expression over the table output with one numeric capture group.
        var table: String
        /// Suffix of the MORK item OIDs.
        var mork: String
        /// FHIR `code.coding.code` values, or empty when FHIR has no code for the measure.
        var fhir: Set<String>
    }

    static let stepCount = Measure(
        key: "stepCount", table: #"(?m)^  steps\s+(\d+)$"#, mork: "_STEP_COUNT", fhir: ["55423-8"])
    static let tapCount = Measure(key: "tapCount", table: #"(?m)^  tapCount\s+(\d+)$"#, mork: "_TAP_COUNT", fhir: [])
    static let laeq = Measure(key: "LAeq", table: #"(?m)^  LAeq\s+(-?[0-9.]+) dB"#, mork: "_LAEQ", fhir: ["LAeq"])
    static let energyAverage = Measure(
        key: "energyAverage", table: #"(?m)^  energy average\s+(-?[0-9.]+) dB"#, mork: "_ENERGY_AVERAGE",
        fhir: ["splMeter.energyAverage"])
    static let threshold = Measure(
        key: "calculatedThreshold", table: #"(?m)^  \d+ Hz \(#\d+\)\s+(-?[0-9.]+) dB HL"#,
        mork: "_CALCULATED_THRESHOLD", fhir: Set(AnalyzeAudiometryFormats.loinc.values.flatMap { [$0.left, $0.right] }))

    /// Every value of `key` anywhere in a JSON tree, depth first in document order.
    static func deepValues(_ key: String, in value: Any) -> [Any] {
        if let object = value as? [String: Any] {
            var out: [Any] = []
            if let v = object[key] { out.append(v) }
            for (k, v) in object.sorted(by: { $0.key < $1.key }) where k != key { out += deepValues(key, in: v) }
            return out
        }
        if let array = value as? [Any] { return array.flatMap { deepValues(key, in: $0) } }
        return []
    }

    /// The values of `measure` in an output of `format`, in output order.
    static func values(_ measure: Measure, _ format: String, _ stdout: String) throws -> [Double] {
        switch format {
        case "json", "researchkit":
            return try deepValues(measure.key, in: E2E.json(stdout)).compactMap(E2E.number)
        case "csv":
            let table = try E2E.csvTable(stdout)
            return table.rows.compactMap { $0[measure.key].flatMap(Double.init) }
        case "table":
            let regex = try NSRegularExpression(pattern: measure.table)
            let range = NSRange(stdout.startIndex..., in: stdout)
            return regex.matches(in: stdout, range: range).compactMap { match in
                Range(match.range(at: 1), in: stdout).flatMap { Double(stdout[$0]) }
            }
        case "mork":
            let form = try #require(try E2E.object(stdout)["form_data"] as? [String: Any])
            let fields = try #require(form["field_data"] as? [[String: Any]])
            return fields.filter { ($0["item_oid"] as? String ?? "").hasSuffix(measure.mork) }
                .compactMap { ($0["data_value"] as? String).flatMap(Double.init) }
        default:
            return E2E.observations(try E2E.object(stdout)).filter { o in
                E2E.codings(o).contains { measure.fhir.contains($0.code) }
            }.compactMap(E2E.value)
        }
    }

    /// Checks the shape of an output: a JSON array of results of `kind`; a table; a rectangular CSV with `rows`
    /// rows; ORKStepResults holding `taskproc.<Class>` results; a MORK `form_data` with the configured envelope and
    /// string values; a FHIR collection Bundle of final Observations that passes the independent validator.
    static func checkShape(_ format: String, _ r: E2E.Run, kind: String, resultClass: String, rows: Int, in dir: URL)
        throws
    {
        switch format {
        case "json":
            // An array of results; an audio file's summary is one object (docs/audio.md).
            let results = kind == "audio" ? [try E2E.object(r.stdout)] : try E2E.objects(r.stdout)
            #expect(results.count == rows)
            #expect(results.allSatisfy { $0["kind"] as? String == kind })
        case "table":
            #expect(!r.stdout.isEmpty && !r.stdout.hasPrefix("[") && !r.stdout.hasPrefix("{"))
        case "csv":
            let table = try E2E.csvTable(r.stdout)  // every row as wide as the header
            #expect(table.rows.count == rows)
        case "researchkit":
            let steps = try E2E.objects(r.stdout)
            #expect(!steps.isEmpty)
            for step in steps {
                #expect(step["_class"] as? String == "ORKStepResult")
                #expect(step["identifier"] is String)
                #expect(step.keys.contains("startDate") && step.keys.contains("endDate"))
                let children = try #require(step["results"] as? [[String: Any]])
                #expect(!children.isEmpty)
                for child in children {
                    #expect(child["_class"] as? String == "taskproc.\(resultClass)")
                    #expect(child["taskprocVersion"] is String)
                    #expect(child["kind"] as? String == kind)  // every key of the result kept
                }
            }
        case "mork":
            let form = try #require(try E2E.object(r.stdout)["form_data"] as? [String: Any])
            #expect(form["subject_name"] as? String == "P-0001" && form["form_oid"] as? String == "TASK")
            let fields = try #require(form["field_data"] as? [[String: Any]])
            #expect(!fields.isEmpty)
            for field in fields {
                #expect(Set(field.keys) == ["data_value", "item_oid", "date_time_entered"])
                #expect(field.values.allSatisfy { $0 is String })
            }
            let oids = fields.compactMap { $0["item_oid"] as? String }
            #expect(Set(oids).count == oids.count, "duplicate item OIDs")
        default:
            let bundle = try E2E.object(r.stdout)
            #expect(bundle["resourceType"] as? String == "Bundle" && bundle["type"] as? String == "collection")
            #expect(bundle["timestamp"] is String)
            for o in E2E.observations(bundle) { #expect(o["status"] as? String == "final") }
            let file = dir.path + "/bundle-\(UUID().uuidString.prefix(6)).json"
            try E2E.write(r.stdout, to: file)
            let validation = try E2E.validateFHIR([file])
            #expect(validation.status == 0, "\(validation.output)")
        }
    }

    // MARK: Walking

    /// Oxford hand walk: 326 foot-switch steps at 101.2 steps/min (shared/data README); the walking accuracy
    /// measured for issue 14 is within 4 % (docs/walking.md: 326 detected).
    @Test(arguments: formats) func oxfordWalkStepCountInEveryFormat(_ format: String) throws {
        let dir = try E2E.temporaryDirectory("an-oxford")
        defer { E2E.remove(dir) }
        let r = try analyze(sharedDataPath(Self.oxfordHand), format, in: dir)
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let counts = try Self.values(Self.stepCount, format, r.stdout)
        #expect(counts.count == 1, "\(format): \(counts)")
        for c in counts { #expect(abs(c - 326) <= 0.04 * 326, "\(format): \(c)") }
        try Self.checkShape(format, r, kind: "walking", resultClass: "WalkingResult", rows: 1, in: dir)
        switch format {
        case "csv":
            let row = try #require(try E2E.csvTable(r.stdout).rows.first)
            #expect(abs((Double(row["cadence"] ?? "") ?? 0) - 101.2) <= 1.5)
            #expect(row["signal"] == "accelerometer")
        case "researchkit":
            // A bare CSV carries no dates: null, never invented (docs/exports.md).
            let step = try #require(try E2E.objects(r.stdout).first)
            #expect(step["startDate"] is NSNull && step["endDate"] is NSNull)
        case "fhir":
            let o = try #require(E2E.observations(try E2E.object(r.stdout)).first)
            let quantity = o["valueQuantity"] as? [String: Any]
            #expect(
                quantity?["code"] as? String == "{steps}"
                    && quantity?["system"] as? String == "http://unitsofmeasure.org")
            #expect(o["effectivePeriod"] == nil)
            let category = ((o["category"] as? [[String: Any]])?.first?["coding"] as? [[String: Any]])?.first
            #expect(category?["code"] as? String == "activity")
        default: break
        }
    }

    /// A ResearchKit walking task folder (ORKTaskResult + the accelerometer log it names) of a synthetic 1.8 Hz
    /// walk of 30 s: 54 steps at 108 steps/min by construction, and the step's dates reach every export.
    @Test(arguments: formats) func researchKitWalkingTaskInEveryFormat(_ format: String) throws {
        let dir = try E2E.temporaryDirectory("an-rk-walk")
        defer { E2E.remove(dir) }
        let folder = dir.path + "/task"
        let items = try E2E.json(E2E.mPowerWalk(frequency: 1.8, seconds: 30))
        let log = try JSONSerialization.data(withJSONObject: ["items": items])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try log.write(to: URL(fileURLWithPath: folder + "/accel_walking.outbound.json"))
        try E2E.write(
            """
            {"_class": "ORKTaskResult", "identifier": "walk", "taskRunUUID": "0C2E6B1A-5D0C-4E55-9A53-3E2D4C1B0A99",
             "startDate": "2024-05-03T09:00:00-0400", "endDate": "2024-05-03T09:01:00-0400",
             "results": [{"_class": "ORKStepResult", "identifier": "walking.outbound",
               "startDate": "2024-05-03T09:00:10-0400", "endDate": "2024-05-03T09:00:40-0400",
               "results": [{"_class": "ORKFileResult", "identifier": "accelerometer", "contentType": "application/json",
                 "fileName": "accel_walking.outbound.json",
                 "startDate": "2024-05-03T09:00:10-0400", "endDate": "2024-05-03T09:00:40-0400"}]}]}
            """, to: folder + "/taskResult.json")
        let r = try analyze(folder, format, ["--participant", "P-0001"], in: dir)
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let counts = try Self.values(Self.stepCount, format, r.stdout)
        #expect(counts.count == 1, "\(format): \(counts)")
        for c in counts { #expect(abs(c - 54) <= 1, "\(format): \(c)") }
        try Self.checkShape(format, r, kind: "walking", resultClass: "WalkingResult", rows: 1, in: dir)
        // The step's dates, written by the test above, in ISO 8601 with a colon in the offset.
        let start = "2024-05-03T09:00:10-04:00", end = "2024-05-03T09:00:40-04:00"
        switch format {
        case "json":
            #expect(try E2E.objects(r.stdout).first?["stepIdentifier"] as? String == "walking.outbound")
        case "csv":
            #expect(try E2E.csvTable(r.stdout).rows.first?["stepIdentifier"] == "walking.outbound")
        case "researchkit":
            let step = try #require(try E2E.objects(r.stdout).first)
            #expect(step["identifier"] as? String == "walking.outbound")
            // ResearchKit's own date form: no colon in the offset.
            #expect(step["startDate"] as? String == "2024-05-03T09:00:10-0400")
            #expect(step["endDate"] as? String == "2024-05-03T09:00:40-0400")
            #expect(step["taskRunUUID"] as? String == "0C2E6B1A-5D0C-4E55-9A53-3E2D4C1B0A99")
        case "mork":
            let form = try #require(try E2E.object(r.stdout)["form_data"] as? [String: Any])
            let fields = try #require(form["field_data"] as? [[String: Any]])
            let steps = try #require(fields.first { $0["item_oid"] as? String == "WALKING_OUTBOUND_STEP_COUNT" })
            // docs/exports.md: the step's end, in MORK's form (device-local time, 24-hour, no offset).
            #expect(steps["date_time_entered"] as? String == String(end.prefix(19)))
        case "fhir":
            let o = try #require(E2E.observations(try E2E.object(r.stdout)).first)
            let period = o["effectivePeriod"] as? [String: Any]
            #expect(period?["start"] as? String == start && period?["end"] as? String == end)
            #expect(
                ((o["subject"] as? [String: Any])?["identifier"] as? [String: Any])?["value"] as? String == "P-0001")
        default:
            #expect(r.stdout.contains("walking.outbound"))
        }
    }

    /// mPower walking JSON (a bare array in g): a synthetic 1.6 Hz walk of 25 s has 40 steps; the still phone of
    /// the shared samples has 0 (shared/data README: "no walking → 0 steps").
    @Test(arguments: formats) func mPowerWalksInEveryFormat(_ format: String) throws {
        let dir = try E2E.temporaryDirectory("an-mpower-walk")
        defer { E2E.remove(dir) }
        let walk = dir.path + "/accel_walking_outbound.json"
        try E2E.write(E2E.mPowerWalk(frequency: 1.6, seconds: 25), to: walk)
        for (input, expected) in [
            (walk, 40.0), (sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json"), 0),
        ] {
            let r = try analyze(input, format, in: dir)
            #expect(r.status == ExpectedExit.success, "\(r.stderr)")
            let counts = try Self.values(Self.stepCount, format, r.stdout)
            #expect(counts.count == 1, "\(format): \(counts)")
            for c in counts { #expect(abs(c - expected) <= 1, "\(format) \(input): \(c)") }
            try Self.checkShape(format, r, kind: "walking", resultClass: "WalkingResult", rows: 1, in: dir)
        }
    }

    // MARK: Tapping

    /// Tap counts of the shared tapping samples in every format.
    ///
    /// Tap counts from the shared/data README: the mPower JSON has 166 taps (84 left, 82 right), the mhealthtools
    /// table 181 (90 left, 75 right, 16 none). FHIR has no code for tapping: an empty Bundle and a note on stderr.
    @Test(arguments: formats) func tapCountsInEveryFormat(_ format: String) throws {
        let dir = try E2E.temporaryDirectory("an-tap")
        defer { E2E.remove(dir) }
        for (file, taps, sides) in [
            ("mpower-samples/pdkit_mpower_finger_tapping.json", 166.0, (left: 84, right: 82, none: 0)),
            ("mpower-samples/mhealthtools_tap_data.csv", 181, (left: 90, right: 75, none: 16)),
        ] {
            let r = try analyze(sharedDataPath(file), format, in: dir)
            #expect(r.status == ExpectedExit.success, "\(r.stderr)")
            try Self.checkShape(format, r, kind: "tapping", resultClass: "TappingResult", rows: 1, in: dir)
            let counts = try Self.values(Self.tapCount, format, r.stdout)
            if format == "fhir" {
                // No published code: the local tapping.<key> codes of the report's headlines (docs/exports.md).
                let observations = E2E.observations(try E2E.object(r.stdout))
                func value(_ code: String) -> [Double] {
                    observations.filter { E2E.codings($0).contains { $0.code == code } }.compactMap(E2E.value)
                }
                #expect(value("tapping.leftTaps") == [Double(sides.left)], "\(file)")
                #expect(value("tapping.rightTaps") == [Double(sides.right)], "\(file)")
                #expect(!r.stderr.contains("no FHIR mapping for tapping results"))
                continue
            }
            #expect(counts == [taps], "\(format) \(file)")
            if format == "json" {
                let result = try #require(try E2E.objects(r.stdout).first)
                #expect(result["leftTaps"] as? Int == sides.left)
                #expect(result["rightTaps"] as? Int == sides.right)
                #expect(result["noneTaps"] as? Int == sides.none)
            }
        }
    }

    // MARK: Sound level

    /// The level of a synthesised 1 kHz tone, from physics.
    ///
    /// A synthesised 1 kHz sine of amplitude A = 0.5 has RMS A/√2, so 20·lg(0.5/√2) = −9.031 dBFS; A-weighting is
    /// 0 dB at 1 kHz, so with ResearchKit's iPhone offset (−23.3 dB: L = dBFS − offset + 94, docs/audio.md) LAeq is
    /// 108.269 dB SPL. 16-bit quantisation moves it by < 0.001 dB; the tolerance is 0.01 dB.
    static let toneAmplitude = 0.5
    static var toneDBFS: Double { 20 * log10(toneAmplitude / 2.0.squareRoot()) }
    static var toneLAeqIPhone: Double { toneDBFS + 23.3 + 94 }

    @Test(arguments: formats) func synthesisedToneLevelInEveryFormat(_ format: String) throws {
        let dir = try E2E.temporaryDirectory("an-tone")
        defer { E2E.remove(dir) }
        let wav = dir.path + "/tone.wav"
        let synth = try E2E.run(["synth", wav, "--frequency", "1000", "--amplitude", "0.5", "--duration", "6"])
        #expect(synth.status == ExpectedExit.success, "\(synth.stderr)")
        let r = try analyze(wav, format, ["--sensitivity-offset", "iPhone"], in: dir)
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        try Self.checkShape(format, r, kind: "audio", resultClass: "AudioResult", rows: 1, in: dir)
        let levels = try Self.values(Self.laeq, format, r.stdout)
        #expect(levels.count == 1, "\(format): \(levels)")
        // The table rounds to 0.01 dB.
        let tolerance = format == "table" ? 0.006 : 0.01
        for level in levels { #expect(abs(level - Self.toneLAeqIPhone) < tolerance, "\(format): \(level)") }
        switch format {
        case "json":
            let result = try E2E.object(r.stdout)
            let rms = E2E.number((result["channels"] as? [[String: Any]])?.first?["rmsDBFS"])
            #expect(abs((rms ?? 0) - Self.toneDBFS) < 0.01)
            let level = try #require(result["soundLevel"] as? [String: Any])
            #expect(level["unit"] as? String == "dB SPL")
            // ResearchKit's window series: one value per (⌊10·interval⌋ + 1) buffers of fs/10 frames = 1.1 s, so
            // ⌊6 / 1.1⌋ = 5 windows over 6 s.
            let channel = (level["channels"] as? [[String: Any]])?.first
            #expect((channel?["splMeterSamples"] as? [Any])?.count == 5)
        case "csv":
            let row = try #require(try E2E.csvTable(r.stdout).rows.first)
            #expect(row["levelUnit"] == "dB SPL" && row["sampleRate"] == "48000" && row["frameCount"] == "288000")
        case "fhir":
            let o = try #require(
                E2E.observations(try E2E.object(r.stdout)).first { E2E.codings($0).contains { $0.code == "LAeq" } })
            #expect(E2E.codings(o).contains { $0.code == "HKQuantityTypeIdentifierEnvironmentalAudioExposure" })
            #expect((o["valueQuantity"] as? [String: Any])?["code"] as? String == "dB[SPL]")
            // docs/exports.md: the ten levels of a calibrated recording, one Observation each.
            #expect(E2E.observations(try E2E.object(r.stdout)).count == 10)
        default: break
        }
    }

    /// Uncalibrated levels are dBFS, not sound pressure: FHIR exports none and says why; JSON reports dBFS.
    @Test func uncalibratedLevelsAreNotSoundPressure() throws {
        let dir = try E2E.temporaryDirectory("an-tone-dbfs")
        defer { E2E.remove(dir) }
        let wav = dir.path + "/tone.wav"
        #expect(try E2E.run(["synth", wav, "--amplitude", "0.5", "--duration", "2"]).status == ExpectedExit.success)
        let json = try analyze(wav, "json", in: dir)
        let level = try #require(try E2E.object(json.stdout)["soundLevel"] as? [String: Any])
        #expect(level["unit"] as? String == "dBFS")
        let laeq = E2E.number((level["channels"] as? [[String: Any]])?.first?["LAeq"])
        #expect(abs((laeq ?? 0) - Self.toneDBFS) < 0.01)
        let fhir = try analyze(wav, "fhir", in: dir)
        #expect(fhir.status == ExpectedExit.success)
        #expect(E2E.observations(try E2E.object(fhir.stdout)).isEmpty)
        #expect(fhir.stderr.contains("not calibrated"))
    }

    /// A ResearchKit SPL-meter result (hand-made, values chosen here): energyAverage = 10·lg(mean 10^(Lᵢ/10)),
    /// and five consecutive samples below the default 35 dB(A) pass the rule (docs/audio.md).
    @Test(arguments: formats) func splMeterResultInEveryFormat(_ format: String) throws {
        let dir = try E2E.temporaryDirectory("an-spl")
        defer { E2E.remove(dir) }
        let samples: [Double] = [30, 31, 32, 33, 34, 50]
        let path = dir.path + "/spl.json"
        try E2E.write(
            #"{"_class":"ORKEnvironmentSPLMeterResult","identifier":"splMeter","startDate":"2019-05-27T00:35:06-0700","endDate":"2019-05-27T00:35:16-0700","sensitivityOffset":-23.3,"recordedSPLMeterSamples":[30,31,32,33,34,50]}"#,
            to: path)
        let expected = 10 * log10(samples.map { pow(10, $0 / 10) }.reduce(0, +) / Double(samples.count))
        let r = try analyze(path, format, in: dir)
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        try Self.checkShape(format, r, kind: "splMeter", resultClass: "SplMeterResult", rows: 1, in: dir)
        let values = try Self.values(Self.energyAverage, format, r.stdout)
        if format == "fhir" {
            // ResearchKit's own levels under a local code, in dB, not as calibrated dB[SPL] (docs/exports.md).
            let observation = try #require(E2E.observations(try E2E.object(r.stdout)).first)
            #expect((observation["valueQuantity"] as? [String: Any])?["code"] as? String == "dB")
        }
        #expect(values.count == 1, "\(format): \(values)")
        let tolerance = format == "table" ? 0.005 : 1e-6
        for v in values { #expect(abs(v - expected) < tolerance, "\(format): \(v)") }
        if format == "json" {
            let result = try #require(try E2E.objects(r.stdout).first)
            #expect(result["passed"] as? Bool == true && result["longestRunBelow"] as? Int == 5)
            #expect(result["sampleCount"] as? Int == samples.count)
        }
        if format == "mork" {
            let form = try #require(try E2E.object(r.stdout)["form_data"] as? [String: Any])
            let fields = try #require(form["field_data"] as? [[String: Any]])
            #expect(fields.allSatisfy { $0["date_time_entered"] as? String == "2019-05-27T00:35:16" })
        }
    }

    /// ResearchKit's own serializer sample (`researchkit-samples/ORKEnvironmentSPLMeterResult.json`: no samples,
    /// offset 0) is accepted in every format: 0 samples, no pass/fail.
    @Test(arguments: formats) func researchKitSPLMeterSampleInEveryFormat(_ format: String) throws {
        let dir = try E2E.temporaryDirectory("an-spl-sample")
        defer { E2E.remove(dir) }
        let r = try analyze(sharedDataPath("researchkit-samples/ORKEnvironmentSPLMeterResult.json"), format, in: dir)
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        try Self.checkShape(format, r, kind: "splMeter", resultClass: "SplMeterResult", rows: 1, in: dir)
        if format == "json" {
            let result = try #require(try E2E.objects(r.stdout).first)
            // docs/audio.md: `passed` is null without samples (the key is left out, which JSON readers treat alike).
            #expect(result["sampleCount"] as? Int == 0 && !(result["passed"] is Bool))
        }
        if format == "mork" {
            // MORK item OIDs are `<STEP>_<FEATURE>` (README); the sample's step identifier is "", and an OID should
            // still be an identifier that starts with a letter.
            let form = try #require(try E2E.object(r.stdout)["form_data"] as? [String: Any])
            let oids = (form["field_data"] as? [[String: Any]] ?? []).compactMap { $0["item_oid"] as? String }
            #expect(!oids.isEmpty)
            withKnownIssue("MORK item OIDs of a result with an empty step identifier start with \"_\"") {
                #expect(oids.allSatisfy { $0.first?.isLetter == true }, "\(oids)")
            }
        }
    }

    // MARK: MORK naming

    /// MORK item OIDs of per-channel values are upper snake case.
    ///
    /// README: item OIDs are `<STEP>_<FEATURE>` in upper snake case (`stepCount` → `STEP_COUNT`), and per-channel
    /// values are named by their path. The same feature must get the same words at the top level and per channel.
    @Test func morkPerChannelOIDsAreUpperSnakeCase() throws {
        let dir = try E2E.temporaryDirectory("an-mork-channel")
        defer { E2E.remove(dir) }
        let wav = dir.path + "/tone.wav"
        #expect(try E2E.run(["synth", wav, "--duration", "1"]).status == ExpectedExit.success)
        let r = try analyze(wav, "mork", in: dir)
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let form = try #require(try E2E.object(r.stdout)["form_data"] as? [String: Any])
        let oids = Set((form["field_data"] as? [[String: Any]] ?? []).compactMap { $0["item_oid"] as? String })
        #expect(oids.contains("AUDIO_FRAME_COUNT"))  // top level: frameCount → FRAME_COUNT
        withKnownIssue("per-channel MORK OIDs are not split into words: AUDIO_0_CLIPPEDSAMPLES, AUDIO_0_PEAKDBFS") {
            #expect(oids.contains("AUDIO_0_CLIPPED_SAMPLES"), "\(oids.sorted())")
        }
    }
}
