import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs
import StudyOutputs
import TestSupport
import Testing

@Suite struct InputLoaderTests {
    @Test(arguments: [
        ("mpower-samples/pdkit_mpower_finger_tapping.json", InputDialect.mPower, TaskKind.tapping),
        ("mpower-samples/pdkit_mpower_gait_stationary.json", .mPower, .walking),
        ("mpower-samples/mhealthtools_tap_data.csv", .mhealthtools, .tapping),
        ("mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz", .mhealthtools, .walking),
        ("oxford-step-counter/user1_hand_1506421989895.csv.gz", .accelerometerCSV, .walking),
        ("forest-oak/test_data_bout.csv", .accelerometerCSV, .walking),
        ("researchkit-samples/ORKTappingIntervalResult.json", .researchKitResult, .tapping),
        ("researchkit-samples/ORKdBHLToneAudiometryResult.json", .researchKitResult, .dBHLToneAudiometry),
        ("researchkit-samples/ORKEnvironmentSPLMeterResult.json", .researchKitResult, .environmentSPLMeter),
        ("researchkit-samples/ORKTimedWalkResult.json", .researchKitResult, .walking),
    ])
    func sharedSamplesAreRecognised(file: String, dialect: InputDialect, task: TaskKind) throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath(file))
        #expect(input.dialect == dialect)
        #expect(input.taskKind == task)
        #expect(input.errors.isEmpty, "\(input.errors)")
    }

    @Test func sharedSampleContentsMatchTheirGroundTruth() throws {
        // Counts from shared/data/README.md.
        let taps = try AnalysisRegistry.load(path: sharedDataPath("mpower-samples/pdkit_mpower_finger_tapping.json"))
        let t = try #require(taps.tapping.first)
        #expect(t.samples.count == 166)
        #expect(t.samples.filter { $0.button == .left }.count == 84)
        #expect(t.samples.filter { $0.button == .right }.count == 82)

        let table = try AnalysisRegistry.load(path: sharedDataPath("mpower-samples/mhealthtools_tap_data.csv"))
        let tt = try #require(table.tapping.first)
        #expect(tt.samples.count == 181)
        #expect(tt.samples.filter { $0.button == .none }.count == 16)

        let still = try AnalysisRegistry.load(path: sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json"))
        let summary = InputInspection(still)
        let r = try #require(summary.recordings.first)
        #expect(r.samples == 2023)
        #expect(abs((r.samplingRate ?? 0) - 101.1) < 0.2)
        #expect(r.units == "g")

        // Named header columns win over position: forest-oak is timestamp (ms), UTC time, accuracy, x, y, z (g).
        let oak = try #require(InputInspection(try AnalysisRegistry.load(path: sharedDataPath("forest-oak/test_data_bout.csv"))).recordings.first)
        #expect(oak.samples == 98)
        #expect(abs((oak.samplingRate ?? 0) - 10) < 0.1)
        #expect(abs((oak.timeSpan ?? 0) - 9.73) < 0.01)
        #expect(oak.units == "g")

        let pouch = try AnalysisRegistry.load(path: sharedDataPath("oxford-step-counter/user1_neckpouch_1506422851785.csv.gz"))
        let q = try #require(InputInspection(pouch).recordings.first?.quality)
        #expect(q.gaps.count == 2)  // the README's "2 gaps of about 220 ms"
        #expect(q.units?.unit == .metersPerSecondSquared)
        #expect(pouch.problems.contains { $0.severity == .warning && $0.message.contains("repaired") })
    }

    // MARK: Task folders

    /// A walking task result referencing three recorder files, as ResearchKit writes it.
    static func walkingTaskJSON(referencing names: [(identifier: String, file: String)]) -> String {
        let files = names.map { n in
            #"{"_class":"ORKFileResult","identifier":"\#(n.identifier)","contentType":"application/json","fileName":"\#(n.file)","startDate":"2024-05-02T10:11:25+0200","endDate":"2024-05-02T10:11:38+0200"}"#
        }.joined(separator: ",")
        return #"""
            {"_class":"ORKTaskResult","identifier":"shortWalk","taskRunUUID":"FDFCC3EC-01B6-43E7-8200-9B93E2744BB8",
             "startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:12:05+0200",
             "results":[
              {"_class":"ORKStepResult","identifier":"instruction","isPreviousResult":false,"results":[],
               "startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:20+0200"},
              {"_class":"ORKStepResult","identifier":"walking.outbound","isPreviousResult":false,"results":[\#(files)],
               "startDate":"2024-05-02T10:11:25+0200","endDate":"2024-05-02T10:11:38+0200"}]}
            """#
    }

    static func accelerometerLog(count: Int) -> String {
        let items = (0..<count).map { i in
            let t = 100.0 + Double(i) * 0.01
            return #"{"timestamp":\#(t),"x":\#(0.01 * sin(Double(i))),"y":-1.0,"z":0.02}"#
        }
        return #"{"items":["# + items.joined(separator: ",") + "]}"
    }

    @Test func taskFolderMatchesRecorderFilesAnywhereBelowIt() throws {
        let dir = TemporaryDirectory()
        let accel = "accel_5A1C9E2B_7F0D_4C3A_9B51_0E2A6C1D8F44-20240502101138.json"
        let pedometer = "pedometer_11111111_2222_3333_4444_555555555555-20240502101138.json"
        let missing = "deviceMotion_AAAAAAAA_BBBB_CCCC_DDDD_EEEEEEEEEEEE-20240502101138.json"
        try Self.walkingTaskJSON(referencing: [("accelerometer", accel), ("pedometer", pedometer), ("deviceMotion", missing)])
            .write(toFile: dir.path("taskResult.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.path("recorder-1/nested"), withIntermediateDirectories: true)
        try Self.accelerometerLog(count: 500).write(toFile: dir.path("recorder-1/nested/" + accel), atomically: true, encoding: .utf8)
        let steps = #"{"items":[{"startDate":"2024-05-02T10:11:25+0200","endDate":"2024-05-02T10:11:30+0200","numberOfSteps":8,"distance":5.5},{"startDate":"2024-05-02T10:11:25+0200","endDate":"2024-05-02T10:11:35+0200","numberOfSteps":17,"distance":11.9}]}"#
        try steps.write(toFile: dir.path(pedometer), atomically: true, encoding: .utf8)
        try "stray".write(toFile: dir.path("notes.dat"), atomically: true, encoding: .utf8)

        let input = try AnalysisRegistry.load(path: dir.url.path)
        #expect(input.dialect == .researchKitTaskFolder)
        #expect(input.taskKind == .walking)
        #expect(input.recordings.count == 2)
        let a = try #require(input.recordings.first { $0.data.kind == .accelerometer })
        #expect(a.stepIdentifier == "walking.outbound")
        #expect(a.recorderIdentifier == "accelerometer")
        #expect(a.file.hasSuffix("recorder-1/nested/" + accel))
        if case .pedometer(let p) = try #require(input.recordings.first { $0.data.kind == .pedometer }).data {
            #expect(p.finalStepCount == 17)
        } else {
            Issue.record("pedometer recording expected")
        }
        // The missing file is an error naming the step and the file; the stray file a warning.
        let error = try #require(input.errors.first)
        #expect(error.message.contains(missing) && error.message.contains("missing"))
        #expect(error.location?.contains("walking.outbound") == true)
        #expect(input.problems.contains { $0.severity == .warning && $0.file.hasSuffix("notes.dat") })

        let inspection = InputInspection(input)
        #expect(inspection.researchKit?.steps.map(\.identifier) == ["instruction", "walking.outbound"])
        #expect(inspection.researchKit?.taskRunUUID == "FDFCC3EC-01B6-43E7-8200-9B93E2744BB8")
        #expect(inspection.errorCount == 1)
        let json = try ResultEncoding.json(inspection)
        #expect(try JSONDecoder().decode(InputInspection.self, from: Data(json.utf8)) == inspection)
    }

    @Test func folderOfIndependentInputsReportsGoodAndBadParts() throws {
        let dir = TemporaryDirectory()
        try Self.accelerometerLog(count: 200).write(toFile: dir.path("accel_a.json"), atomically: true, encoding: .utf8)
        try #"{"items":[{"timestamp":1,"x":1,"y":0,"z":"#.write(toFile: dir.path("accel_b.json"), atomically: true, encoding: .utf8)
        try "# read me".write(toFile: dir.path("README.md"), atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: dir.url.path)
        #expect(input.dialect == .folder)
        #expect(input.children.count == 3)
        #expect(input.children.first { $0.path.hasSuffix("accel_a.json") }?.recordings.count == 1)
        #expect(input.errors.count == 1)
        #expect(input.errors.first?.file.hasSuffix("accel_b.json") == true)
        #expect(input.children.first { $0.path.hasSuffix("README.md") }?.dialect == .unrecognised)
    }

    @Test func missingPathIsAnError() {
        #expect(throws: InputError.self) { try AnalysisRegistry.load(path: "/no/such/export") }
    }
}

/// The bad-input corpus, end to end through the loader: each malformed input yields an error that
/// names the file, the location where there is one, and what was expected versus found. Nothing crashes.
@Suite struct BadInputCorpusTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var bytes: [UInt8]
        /// A distinctive part of the error's message.
        var mention: String
        /// A part of the error's location, when the error has one.
        var location: String?
        var description: String { name }
    }

    static func text(_ name: String, _ content: String, _ mention: String, at location: String? = nil) -> Case {
        Case(name: name, bytes: Array(content.utf8), mention: mention, location: location)
    }

    static let accelItem = #"{"timestamp":1.0,"x":0.1,"y":0.2,"z":-1.0}"#

    static let cases: [Case] = [
        text("empty.json", "", "empty"),
        text("whitespace.json", "  \n ", "whitespace"),
        text("accel_truncated.json", #"{"items":[\#(accelItem),{"timestamp":2.0,"x":0."#, "truncated", at: "$.items[1]"),
        text("accel_string_value.json", #"{"items":[{"timestamp":1.0,"x":"0.1","y":0,"z":1}]}"#, "expected a number", at: "$.items[0].x"),
        text("accel_null_value.json", #"{"items":[{"timestamp":1.0,"x":null,"y":0,"z":1}]}"#, "found null", at: "$.items[0].x"),
        text("accel_missing_field.json", #"{"items":[\#(accelItem),{"timestamp":2.0,"x":0.1,"z":1}]}"#, "field \"y\"", at: "$.items[1]"),
        text("accel_empty_items.json", #"{"items":[]}"#, "empty items", at: "$.items"),
        text("accel_items_not_array.json", #"{"items":{"x":1}}"#, "expected an array", at: "$.items"),
        text("accel_no_items.json", #"{"samples":[]}"#, "_class"),
        text("accel_overflow.json", #"{"items":[{"timestamp":1.0,"x":1e999,"y":0,"z":1}]}"#, "±1.8e308", at: "$.items[0]"),
        text("accel_item_not_object.json", #"{"items":[1,2,3]}"#, "sample object", at: "$.items[0]"),
        text("accel_trailing_garbage.json", #"{"items":[\#(accelItem)]} xyz"#, "end of document"),
        text("unknown_sample.json", #"{"items":[{"foo":1,"bar":2}]}"#, "recorder sample", at: "$.items[0]"),
        text("deviceMotion_bad_nested.json", #"{"items":[{"timestamp":1,"userAcceleration":[1,2,3],"gravity":{"x":0,"y":0,"z":-1},"rotationRate":{"x":0,"y":0,"z":0},"attitude":{"x":0,"y":0,"z":0,"w":1}}]}"#, "expected an object", at: "userAcceleration"),
        text("pedometer_negative.json", #"{"items":[{"startDate":"2024-05-02T10:11:25+0200","endDate":"2024-05-02T10:11:30+0200","numberOfSteps":-3}]}"#, "numberOfSteps", at: "$.items[0].numberOfSteps"),
        text("pedometer_bad_date.json", #"{"items":[{"startDate":"yesterday","endDate":"2024-05-02T10:11:30+0200","numberOfSteps":3}]}"#, "date", at: "$.items[0].startDate"),
        text("task_missing_class.json", #"{"identifier":"x","results":[{"identifier":"step"}]}"#, "_class"),
        text("task_bad_date.json", #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"FDFCC3EC-01B6-43E7-8200-9B93E2744BB8","startDate":"2024-13-45T99:00:00+0200","results":[]}"#, "date", at: "startDate"),
        text("tapping_bad_button.json", #"{"_class":"ORKTappingIntervalResult","identifier":"tapping.left","samples":[{"_class":"ORKTappingSample","timestamp":0,"duration":0.1,"buttonIdentifier":"middle","location":{"x":1,"y":2}}]}"#, "middle", at: "samples[0]"),
        text("tapping_negative_duration.json", #"{"_class":"ORKTappingIntervalResult","identifier":"tapping.left","samples":[{"_class":"ORKTappingSample","timestamp":0,"duration":-0.1,"buttonIdentifier":"left","location":{"x":1,"y":2}}]}"#, "duration", at: "samples[0].duration"),
        text("dbhl_channel_2.json", #"{"_class":"ORKdBHLToneAudiometryResult","identifier":"d","outputVolume":1,"tonePlaybackDuration":1,"postStimulusDelay":1,"headphoneType":"AIRPODSPROV2","samples":[{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":1000,"calculatedThreshold":10,"channel":2,"units":[]}]}"#, "channel", at: "samples[0].channel"),
        text("mpower_tapping_bad_coordinate.json", #"[{"TapTimeStamp":0,"TapCoordinate":"{89.5; 454}","TappedButtonId":"TappedButtonLeft"}]"#, "TapCoordinate", at: "$[0]"),
        text("mpower_tapping_bad_button.json", #"[{"TapTimeStamp":0,"TapCoordinate":"{89.5, 454}","TappedButtonId":"TappedButtonMiddle"}]"#, "TappedButtonMiddle", at: "$[0]"),
        text("taps_ragged.csv", "t,x,y,buttonid\n0,1,2,TappedButtonLeft\n0.5,1,2\n", "column", at: "line 3"),
        text("taps_bad_number.csv", "t,x,y,buttonid\n0,1,2,TappedButtonLeft\nabc,1,2,TappedButtonRight\n", "abc", at: "line 3"),
        text("taps_unterminated_quote.csv", "t,x,y,buttonid\n0,1,2,\"TappedButtonLeft\n", "quote", at: "line 2"),
        text("accel_single_row.csv", "1000,0.1,0.2,9.8\n", "single data row"),
        text("accel_nan_text.csv", "time,x,y,z\n0,0.1,0.2,9.8\n10,nan,0.2,9.8\n20,0.1,0.2,9.7\n", "nan", at: "line 3"),
        Case(name: "binary.json", bytes: (0..<512).map { UInt8(($0 * 37 + 11) % 256) }, mention: "byte 0x"),
        Case(name: "binary.csv", bytes: [0x00, 0x01, 0x02, 0xFF, 0xFE] + Array(repeating: 0, count: 100), mention: "0x00"),
        Case(name: "truncated.json.gz", bytes: [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03, 0xAB, 0xCD], mention: "gzip"),
        text("recording.m4a", "\0\0\0 ftypM4A \0\0\0\0", "moov atom not found"),  // ffprobe names what is missing
        text("silence.wav", "RIFF", "audio"),
    ]

    @Test(arguments: cases)
    func malformedInputGivesASpecificError(_ c: Case) throws {
        let dir = TemporaryDirectory()
        let path = dir.path(c.name)
        try Data(c.bytes).write(to: URL(fileURLWithPath: path))
        let input = try AnalysisRegistry.load(path: path)
        let error = try #require(input.errors.first, "\(c.name) should produce an error")
        #expect(error.file == path)
        let text = error.description
        #expect(text.localizedCaseInsensitiveContains(c.mention), "\(c.name): \(text) should mention \(c.mention)")
        if let location = c.location {
            #expect(error.location?.contains(location) == true, "\(c.name): location \(error.location ?? "nil") should contain \(location)")
        }
    }

    @Test func corpusIsLargeEnough() {
        #expect(Self.cases.count >= 30)
    }
}

/// Gzip is handled once, for every reader: a compressed recorder log inside a task folder decodes like a plain one.
@Suite struct CompressedInputTests {
    @Test func gzippedRecorderFileInATaskFolderIsRead() throws {
        let dir = TemporaryDirectory()
        let accel = "accel_5A1C9E2B_7F0D_4C3A_9B51_0E2A6C1D8F44-20240502101138.json.gz"
        try InputLoaderTests.walkingTaskJSON(referencing: [("accelerometer", accel)])
            .write(toFile: dir.path("taskResult.json"), atomically: true, encoding: .utf8)
        let plain = dir.path("plain.json")
        try InputLoaderTests.accelerometerLog(count: 300).write(toFile: plain, atomically: true, encoding: .utf8)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-c", plain]
        let out = Pipe()
        gzip.standardOutput = out
        try gzip.run()
        let compressed = out.fileHandleForReading.readDataToEndOfFile()
        gzip.waitUntilExit()
        try compressed.write(to: URL(fileURLWithPath: dir.path(accel)))
        try FileManager.default.removeItem(atPath: plain)

        let input = try AnalysisRegistry.load(path: dir.url.path)
        #expect(input.dialect == .researchKitTaskFolder)
        #expect(input.errors.isEmpty, "\(input.errors)")
        let recording = try #require(input.recordings.first)
        if case .accelerometer(let log) = recording.data { #expect(log.log.timestamp.count == 300) } else {
            Issue.record("accelerometer recording expected")
        }
        // And the decoder itself reads the compressed file directly.
        #expect(try RecorderLogDecoder.decode(path: dir.path(accel)).log.count == 300)
    }
}
