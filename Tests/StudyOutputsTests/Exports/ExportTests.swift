import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// The export formats (`researchkit`, `mork`, `fhir`) on a real task: a ResearchKit walking task folder with two
/// steps, dates and a device, written to a temporary directory.
@Suite struct ExportTests {
    /// A task folder: `walking.outbound` (accelerometer) and `timed.walk.trial1` (ORKTimedWalkResult, no motion).
    static func taskFolder() throws -> (folder: URL, input: LoadedInput) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-task-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 100, unit: .g, seed: 3)
        let a = walk.acceleration
        let items = walk.timestamp.indices.map {
            "{\"timestamp\":\(walk.timestamp[$0]),\"x\":\(a.x[$0]),\"y\":\(a.y[$0]),\"z\":\(a.z[$0])}"
        }
        try ("{\"items\":[" + items.joined(separator: ",") + "]}").write(
            to: folder.appendingPathComponent("accel.json"), atomically: true, encoding: .utf8)
        let task = """
            {"_class":"ORKTaskResult","identifier":"shortWalk","taskRunUUID":"0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F30",
             "startDate":"2024-05-03T09:00:00-0400","endDate":"2024-05-03T09:03:00-0400",
             "device":{"_class":"ORKDevice","product":"iPhone14,2","platform":"iOS","osVersion":"17.4"},
             "results":[
              {"_class":"ORKStepResult","identifier":"walking.outbound",
               "startDate":"2024-05-03T09:00:10-0400","endDate":"2024-05-03T09:00:30-0400","results":[
                {"_class":"ORKFileResult","identifier":"accelerometer","contentType":"application/json","fileName":"accel.json"}]},
              {"_class":"ORKStepResult","identifier":"timed.walk.trial1",
               "startDate":"2024-05-03T09:01:00-0400","endDate":"2024-05-03T09:01:20-0400","results":[
                {"_class":"ORKTimedWalkResult","identifier":"timed.walk.trial1","distanceInMeters":25,"timeLimit":180,
                 "duration":20}]}
             ]}
            """
        try task.write(to: folder.appendingPathComponent("taskResult.json"), atomically: true, encoding: .utf8)
        return (folder, try AnalysisRegistry.load(path: folder.path))
    }

    static func records(_ input: LoadedInput) throws -> [ExportRecord] {
        try ExportRecord.records(of: ResultList(WalkingProcessor.analyze(input)))
    }

    static let fixedTime = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func contextComesFromTheTaskResult() throws {
        let (folder, input) = try Self.taskFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = ExportContext(input: input, exportedAt: Self.fixedTime)
        #expect(context.taskRunUUID == "0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F30")
        #expect(context.device == "iPhone14,2 iOS 17.4")
        #expect(context.startDate(of: "walking.outbound")?.description == "2024-05-03T09:00:10-04:00")
        #expect(context.endDate(of: "timed.walk.trial1")?.description == "2024-05-03T09:01:20-04:00")
        #expect(context.startDate(of: "unknown.step")?.description == "2024-05-03T09:00:00-04:00")
        let myDataHelps = LoadedInput(
            path: "/x/SurveyData/P-0001/SR-77/walking.outbound/a.json", dialect: .myDataHelps, taskKind: .walking)
        #expect(ExportContext(input: myDataHelps).participant == "P-0001")
        let bridge = LoadedInput(path: "/x/healthCode=HC-9/recordId=R1/accel.json", dialect: .mPower, taskKind: .walking)
        #expect(ExportContext(input: bridge).participant == "HC-9")
        #expect(ExportContext().startDate(of: "walking.outbound") == nil)
    }

    /// `researchkit`: one ORKStepResult per step with the step's own dates; the child carries every key of the
    /// taskproc result unchanged (lossless) under a `taskproc.` class.
    @Test func researchKitStepResultsAreLossless() throws {
        let (folder, input) = try Self.taskFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = try Self.records(input)
        let out = ResearchKitExport.stepResults(records, context: ExportContext(input: input))
        let steps = try #require(out.arrayValue)
        try #require(steps.count == 2)
        let first = try #require(steps[0].objectValue)
        #expect(first["_class"]?.stringValue == "ORKStepResult")
        #expect(first["identifier"]?.stringValue == "walking.outbound")
        // ResearchKit's own date form (issue 18): yyyy-MM-dd'T'HH:mm:ssZ.
        #expect(first["startDate"]?.stringValue == "2024-05-03T09:00:10-0400")
        #expect(first["endDate"]?.stringValue == "2024-05-03T09:00:30-0400")
        #expect(first["taskRunUUID"]?.stringValue == "0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F30")
        let child = try #require(first["results"]?.arrayValue?.first?.objectValue)
        #expect(child["_class"]?.stringValue == "taskproc.WalkingResult")
        for (key, value) in records[0].json.entries {
            #expect(child[key] == value, "\(key) changed")
        }
        let second = try #require(steps[1].objectValue)
        #expect(second["identifier"]?.stringValue == "timed.walk.trial1")
        let trial = try #require(second["results"]?.arrayValue?.first?.objectValue)
        #expect(trial["gaitSpeed"]?.numberValue == 25.0 / 20)
        // The timed walk's own values, as recorded (issue 19).
        #expect(trial["timedWalkDistance"]?.numberValue == 25 && trial["timedWalkDuration"]?.numberValue == 20)
        // Without dates in the input, dates are null rather than invented.
        let bare = ResearchKitExport.stepResults(records, context: ExportContext())
        #expect(bare.arrayValue?.first?.objectValue?["startDate"] == .null)
    }

    /// The step results follow ResearchKit's serialisation schema: our own `ORKESerialization` reader decodes each
    /// one as an `ORKStepResult` with the same identifier and dates, and reports the `taskproc.*` children as
    /// classes it does not know (never as ResearchKit results).
    @Test func researchKitExportDecodesAsResearchKit() throws {
        let (folder, input) = try Self.taskFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = ResearchKitExport.stepResults(try Self.records(input), context: ExportContext(input: input))
        for step in try #require(out.arrayValue) {
            let document = try ResearchKitDecoder.decode(step, file: "export.json")
            let object = try #require(step.objectValue)
            guard case .result(.step(let decoded)) = document.root else {
                Issue.record("not decoded as a step result: \(document.root)")
                continue
            }
            #expect(decoded.identifier == object["identifier"]?.stringValue)
            #expect(decoded.header.startDate?.researchKitText == object["startDate"]?.stringValue)
            #expect(decoded.header.endDate?.researchKitText == object["endDate"]?.stringValue)
            #expect(decoded.results.count == object["results"]?.arrayValue?.count)
            #expect(document.warnings(of: .unknownClass).count == decoded.results.count)
        }
    }

    @Test func morkDefaultOIDs() {
        #expect(MORKExport.defaultOID(step: "walking.outbound", feature: "stepCount") == "WALKING_OUTBOUND_STEP_COUNT")
        #expect(MORKExport.defaultOID(step: "tapping.right", feature: "numberTaps") == "TAPPING_RIGHT_NUMBER_TAPS")
        #expect(MORKExport.defaultOID(step: "spl", feature: "LAeq") == "SPL_LAEQ")
        #expect(MORKExport.defaultOID(step: "dBHL.right", feature: "pta4") == "DBHL_RIGHT_PTA4")
        #expect(ResultEncoding.exact(326) == "326")
        #expect(ResultEncoding.exact(0.1) == "0.1")
    }

    /// `mork`: the envelope from the config file, every value a string, OIDs overridable and excludable, the
    /// entry date the step's end; missing envelope fields are an error that names them.
    @Test func morkPayload() throws {
        let (folder, input) = try Self.taskFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = try Self.records(input)
        let context = ExportContext(input: input, exportedAt: Self.fixedTime)
        #expect(throws: ExportError.self) {
            try MORKExport.payload(records, context: context, configuration: MORKExport.Configuration())
        }
        do {
            _ = try MORKExport.payload(records, context: context, configuration: MORKExport.Configuration())
        } catch let error as ExportError {
            #expect(error.description.contains("subject_name, study_uuid, folder_oid, form_oid"))
        }
        let config = folder.appendingPathComponent("mork.json")
        try """
            {"envelope": {"subject_name": "P-0001", "study_uuid": "S-1", "folder_oid": "SCREENING", "form_oid": "WALK",
                          "site_oid": "SITE01"},
             "itemOIDs": {"walking.outbound.stepCount": "WALK_OUT_STEPS", "symmetry": null}}
            """.write(to: config, atomically: true, encoding: .utf8)
        let configuration = try MORKExport.Configuration(file: config.path)
        let payload = try MORKExport.payload(records, context: context, configuration: configuration)
        let form = try #require(payload.objectValue?["form_data"]?.objectValue)
        #expect(form["subject_name"]?.stringValue == "P-0001")
        #expect(form["site_oid"]?.stringValue == "SITE01")
        // ORKDevice holds a model, not the identifier device_id is (MORKRaveTests reads one from userInfo).
        #expect(form["device_id"]?.stringValue == "")
        #expect(form["rave_url"]?.stringValue == "")
        let fieldValues = try #require(form["field_data"]?.arrayValue)
        let fields = fieldValues.compactMap { $0.objectValue }
        for field in fields {
            #expect(field.keys == ["data_value", "item_oid", "date_time_entered"])
            #expect(field.entries.allSatisfy { $0.value.stringValue != nil })
        }
        let steps = try #require(fields.first { $0["item_oid"]?.stringValue == "WALK_OUT_STEPS" })
        let stepCount = try #require(WalkingProcessor.analyze(input)[0].stepCount)
        #expect(steps["data_value"]?.stringValue == String(stepCount))
        // MORK's form: the step's end in the device's local time (UTC−4 here), 24-hour, no offset.
        #expect(steps["date_time_entered"]?.stringValue == "2024-05-03T09:00:30")
        #expect(!fields.contains { ($0["item_oid"]?.stringValue ?? "").hasSuffix("_SYMMETRY") })
        let speed = try #require(fields.first { $0["item_oid"]?.stringValue == "TIMED_WALK_TRIAL1_GAIT_SPEED" })
        #expect(speed["data_value"]?.stringValue == "1.25")
        // Null values (the trial's unknown step count) are not sent.
        #expect(!fields.contains { $0["item_oid"]?.stringValue == "TIMED_WALK_TRIAL1_STEP_COUNT" })

        try #"{"envelope": {"subject": "x"}}"#.write(to: config, atomically: true, encoding: .utf8)
        #expect(throws: ExportError.self) { try MORKExport.Configuration(file: config.path) }
    }

    /// `fhir`: one step-count Observation with LOINC 55423-8 per step that has a step count; the trial without
    /// motion data has no step count but its recorded distance (25 m), duration (20 s) and gait speed (1.25 m/s) go
    /// out under the local code system `urn:taskproc:score`; ids are deterministic.
    @Test func fhirBundle() throws {
        let (folder, input) = try Self.taskFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = try Self.records(input)
        var context = ExportContext(input: input, exportedAt: Self.fixedTime)
        context.participant = "P-0001"
        let output = FHIRExport.bundle(records, context: context)
        let bundle = try #require(output.bundle.objectValue)
        #expect(bundle["resourceType"]?.stringValue == "Bundle" && bundle["type"]?.stringValue == "collection")
        let entries = try #require(bundle["entry"]?.arrayValue)
        try #require(entries.count == 4)
        #expect(output.skipped.isEmpty)
        var local: [String: Double] = [:]
        for entry in entries.dropFirst() {
            let resource = try #require(entry.objectValue?["resource"]?.objectValue)
            let c = try #require(resource["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue)
            #expect(c["system"]?.stringValue == "urn:taskproc:score")
            local[c["code"]?.stringValue ?? "?"] = resource["valueQuantity"]?.objectValue?["value"]?.numberValue
        }
        #expect(
            local == ["walking.timedWalkDistance": 25, "walking.timedWalkDuration": 20, "walking.gaitSpeed": 1.25])
        let observation = try #require(entries[0].objectValue?["resource"]?.objectValue)
        let coding = try #require(observation["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue)
        #expect(coding["system"]?.stringValue == "http://loinc.org" && coding["code"]?.stringValue == "55423-8")
        let quantity = try #require(observation["valueQuantity"]?.objectValue)
        let stepCount = try #require(WalkingProcessor.analyze(input)[0].stepCount)
        #expect(quantity["value"]?.numberValue == Double(stepCount))
        #expect(quantity["code"]?.stringValue == "{steps}")
        #expect(observation["effectivePeriod"]?.objectValue?["start"]?.stringValue == "2024-05-03T09:00:10-04:00")
        #expect(observation["subject"]?.objectValue?["identifier"]?.objectValue?["value"]?.stringValue == "P-0001")
        let again = FHIRExport.bundle(records, context: context).bundle
        #expect(again == output.bundle)
        let id = try #require(observation["id"]?.stringValue)
        #expect(id.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression) != nil)
    }

    /// The bundle passes an independent FHIR validator (`Tools/validators/fhir_validate.py`: the `fhir.resources`
    /// models plus the required value sets), and the validator rejects a broken bundle (so the check can fail).
    @Test func fhirBundlePassesAnIndependentValidator() throws {
        let (folder, input) = try Self.taskFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var context = ExportContext(input: input, exportedAt: Self.fixedTime)
        context.participant = "P-0001"
        let good = folder.appendingPathComponent("bundle.json")
        try ResultEncoding.json(FHIRExport.bundle(try Self.records(input), context: context).bundle)
            .write(to: good, atomically: true, encoding: .utf8)
        let bad = folder.appendingPathComponent("broken.json")
        try #"{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Observation","status":"done","code":{"text":"x"},"valueQuantity":{"value":"many"}}}]}"#
            .write(to: bad, atomically: true, encoding: .utf8)
        func validate(_ file: URL) throws -> (status: Int32, output: String) {
            try runPythonScript("Tools/validators/fhir_validate.py", [file.path])
        }
        let accepted = try validate(good)
        #expect(accepted.status == 0, "\(accepted.output)")
        let rejected = try validate(bad)
        #expect(rejected.status == 1, "\(rejected.output)")
        #expect(rejected.output.contains("Observation.status 'done'"))
    }
}

/// FHIR and MORK on a dB HL audiometry result: thresholds per ear and frequency with the spec's LOINC codes.
@Suite struct AudiometryExportTests {
    /// The LOINC hearing-threshold codes, transcribed from `shared/spec/ecosystem.md` §5 (left, right). One
    /// published IG swapped left and right, so the table is pinned here code by code.
    @Test func loincTableMatchesTheSpec() {
        let spec: [(Int, String, String)] = [
            (500, "89024-4", "89025-1"), (1000, "89016-0", "89017-8"), (2000, "89018-6", "89019-4"),
            (3000, "89020-2", "89021-0"), (4000, "89022-8", "89023-6"), (6000, "89026-9", "89027-7"),
            (8000, "89028-5", "89029-3"),
        ]
        #expect(AudiometryAnalysis.hearingThresholdCodes.count == spec.count)
        for (hz, left, right) in spec {
            #expect(AudiometryAnalysis.hearingThresholdCodes[hz]?.left == left, "\(hz) Hz left")
            #expect(AudiometryAnalysis.hearingThresholdCodes[hz]?.right == right, "\(hz) Hz right")
        }
        #expect(AudiometryAnalysis.hearingThresholdCodes[250] == nil)
    }

    static let result = """
        {"_class":"ORKdBHLToneAudiometryResult","identifier":"dBHL1.tone.audiometry","headphoneType":"AIRPODSV1",
         "startDate":"2024-05-02T10:20:00+0200","endDate":"2024-05-02T10:22:50+0200","outputVolume":1,
         "tonePlaybackDuration":1,"postStimulusDelay":1,"samples":[
          {"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":1000,"calculatedThreshold":20,"channel":1,"units":[]},
          {"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":4000,"calculatedThreshold":35,"channel":1,"units":[]},
          {"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":250,"calculatedThreshold":10,"channel":1,"units":[]}]}
        """

    @Test func thresholdsBecomeObservations() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dbhl-\(UUID().uuidString).json")
        try Self.result.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let input = try AnalysisRegistry.load(path: file.path)
        let records = try ExportRecord.records(of: ResultList(AudiometryProcessor.analyze(input)))
        let output = FHIRExport.bundle(records, context: ExportContext(input: input))
        let entries = try #require(output.bundle.objectValue?["entry"]?.arrayValue)
        let observations = entries.compactMap { $0.objectValue?["resource"]?.objectValue }
        let byCode = Dictionary(
            uniqueKeysWithValues: observations.compactMap { o -> (String, Double)? in
                guard let code = o["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue?["code"]?.stringValue,
                    let value = o["valueQuantity"]?.objectValue?["value"]?.numberValue
                else { return nil }
                return (code, value)
            })
        // Channel 1 is the right ear: 1000 Hz right = 89017-8, 4000 Hz right = 89023-6.
        #expect(byCode == ["89017-8": 20, "89023-6": 35])
        #expect(output.skipped.contains { $0.contains("250 Hz") })
        #expect(observations.allSatisfy { $0["valueQuantity"]?.objectValue?["code"]?.stringValue == "dB" })
        #expect(observations.first?["effectivePeriod"]?.objectValue?["end"]?.stringValue == "2024-05-02T10:22:50+02:00")
        // MORK sees the same thresholds through the generic flattening.
        let names = records[0].scalars.map(\.name)
        #expect(names.contains("right.1000.calculatedThreshold"))
    }
}

/// FHIR on a calibrated recording: one Observation per level with the acoustics code system and UCUM dB[SPL];
/// an uncalibrated recording gives none.
@Suite struct SoundLevelExportTests {
    @Test func calibratedLevelsBecomeObservations() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tone-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        // A 1 kHz sine at 0.5 full scale: −9.03 dBFS RMS; with a −23.3 dB sensitivity offset (94 dB SPL reads
        // −23.3 dBFS), LAeq = 94 + (−9.03 + 23.3) = 108.27 dB SPL (A-weighting is 0 dB at 1 kHz).
        let rate = 48_000.0
        let samples = (0..<Int(3 * rate)).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / rate) }
        try AudioFileWriter.write([samples], sampleRate: Int(rate), to: file.path, format: .wav24)
        var options = AudioAnalysisOptions()
        options.soundLevel.calibration = SoundCalibration(sensitivityOffset: -23.3, source: "value")
        let summary = try AudioFileAnalyzer.summarize(path: file.path, options: options)
        let records = try ExportRecord.records(of: summary)
        let output = FHIRExport.bundle(records, context: ExportContext())
        let observations = (output.bundle.objectValue?["entry"]?.arrayValue ?? []).compactMap {
            $0.objectValue?["resource"]?.objectValue
        }
        let laeq = try #require(
            observations.first { $0["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue?["code"]?.stringValue == "LAeq" })
        let value = try #require(laeq["valueQuantity"]?.objectValue?["value"]?.numberValue)
        let expected = 94 + 20 * log10(0.5 / 2.0.squareRoot()) + 23.3
        #expect(abs(value - expected) < 0.02, "LAeq \(value), expected \(expected)")
        #expect(laeq["valueQuantity"]?.objectValue?["code"]?.stringValue == "dB[SPL]")
        // One Observation per defined level (undefined ones, e.g. LAFmin under 1.25 s, have none).
        let channel = try #require(records[0].json["soundLevel"]?.objectValue?["channels"]?.arrayValue?.first?.objectValue)
        let defined = AudioRecordingAnalysis.soundLevelCodes.filter { channel[$0.code]?.numberValue != nil }
        #expect(defined.count >= 8)
        #expect(observations.count == defined.count)

        // Uncalibrated: dBFS levels are not sound pressure levels.
        let raw = try AudioFileAnalyzer.summarize(path: file.path)
        let uncalibrated = FHIRExport.bundle(try ExportRecord.records(of: raw), context: ExportContext())
        #expect(uncalibrated.bundle.objectValue?["entry"] == nil)  // FHIR JSON has no empty arrays
        #expect(uncalibrated.skipped.contains { $0.contains("not calibrated") })
    }
}
