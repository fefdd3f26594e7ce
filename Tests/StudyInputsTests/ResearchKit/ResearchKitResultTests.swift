import Foundation
import StudyInputs
import TestSupport
import Testing

/// Path of a hand-made fixture in `Tests/Fixtures/researchkit/`.
private func researchKitFixture(_ name: String) -> String { fixturePath("researchkit/" + name) }

/// A short name for the case of a decoded root, such as `result.tappingInterval`, `dBHLToneAudiometryStep`.
private func caseLabel(_ object: ResearchKitObject) -> String {
    switch object {
    case .result(let r):
        switch r {
        case .task: "result.task"
        case .step: "result.step"
        case .file: "result.file"
        case .tappingInterval: "result.tappingInterval"
        case .dBHLToneAudiometry: "result.dBHLToneAudiometry"
        case .toneAudiometry: "result.toneAudiometry"
        case .environmentSPLMeter: "result.environmentSPLMeter"
        case .timedWalk: "result.timedWalk"
        case .rangeOfMotion: "result.rangeOfMotion"
        case .question: "result.question"
        case .consentSignature: "result.consentSignature"
        case .familyHistory: "result.familyHistory"
        case .unknown: "result.unknown"
        }
    case .device: "device"
    case .tappingSample: "tappingSample"
    case .toneAudiometrySample: "toneAudiometrySample"
    case .dBHLToneAudiometryFrequencySample: "dBHLToneAudiometryFrequencySample"
    case .dBHLToneAudiometryUnit: "dBHLToneAudiometryUnit"
    case .activeStep: "activeStep"
    case .tappingIntervalStep: "tappingIntervalStep"
    case .walkingTaskStep: "walkingTaskStep"
    case .timedWalkStep: "timedWalkStep"
    case .dBHLToneAudiometryStep: "dBHLToneAudiometryStep"
    case .environmentSPLMeterStep: "environmentSPLMeterStep"
    case .recorderConfiguration: "recorderConfiguration"
    }
}

/// Decodes JSON text given inline.
private func decode(_ json: String, file: String = "inline.json") throws(InputError) -> ResearchKitDocument {
    try ResearchKitDecoder.decode(Data(json.utf8), file: file)
}

/// An input that must be rejected, and how.
struct BadResearchKitInput: Sendable, CustomStringConvertible {
    /// What is wrong, for the test name.
    var name: String
    /// The file's text.
    var json: String
    /// The error kind.
    var kind: InputError.Kind
    /// The JSON path (for syntax errors, the prefix before the line and column).
    var path: String
    /// A distinctive part of the error's one-line description.
    var message: String

    var description: String { name }
}

@Suite struct ResearchKitResultTests {
    // MARK: ResearchKit's own sample files

    static let samples: [(file: String, label: String)] = [
        ("ORKDevice.json", "device"),
        ("ORKEnvironmentSPLMeterResult.json", "result.environmentSPLMeter"),
        ("ORKEnvironmentSPLMeterStep.json", "environmentSPLMeterStep"),
        ("ORKFileResult.json", "result.file"),
        ("ORKRangeOfMotionResult.json", "result.rangeOfMotion"),
        ("ORKStepResult.json", "result.step"),
        ("ORKTappingIntervalResult.json", "result.tappingInterval"),
        ("ORKTappingIntervalStep.json", "tappingIntervalStep"),
        ("ORKTappingSample.json", "tappingSample"),
        ("ORKTaskResult.json", "result.task"),
        ("ORKTimedWalkResult.json", "result.timedWalk"),
        ("ORKToneAudiometryResult.json", "result.toneAudiometry"),
        ("ORKToneAudiometrySample.json", "toneAudiometrySample"),
        ("ORKWalkingTaskStep.json", "walkingTaskStep"),
        ("ORKdBHLToneAudiometryFrequencySample.json", "dBHLToneAudiometryFrequencySample"),
        ("ORKdBHLToneAudiometryResult.json", "result.dBHLToneAudiometry"),
        ("ORKdBHLToneAudiometryStep.json", "dBHLToneAudiometryStep"),
        ("ORKdBHLToneAudiometryUnit.json", "dBHLToneAudiometryUnit"),
    ]

    @Test(arguments: samples)
    func everyResearchKitSampleDecodesToItsCase(file: String, label: String) throws {
        let doc = try ResearchKitDecoder.decode(path: sharedDataPath("researchkit-samples/\(file)"))
        #expect(caseLabel(doc.root) == label)
        #expect(doc.root.className == String(file.dropLast(5)))
        // Placeholder values are accepted silently, except the legacy volume of 123 (see below).
        let expectedWarnings = file == "ORKToneAudiometryResult.json" ? 1 : 0
        #expect(doc.warnings.count == expectedWarnings, "\(doc.warnings)")
    }

    @Test func theSampleListCoversEverySampleFile() throws {
        let dir = sharedDataPath("researchkit-samples")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Self.samples.map(\.file)))
    }

    @Test func sampleValuesArePlaceholdersReadFaithfully() throws {
        let task = try #require(
            try ResearchKitDecoder.decode(path: sharedDataPath("researchkit-samples/ORKTaskResult.json")).taskResult)
        #expect(task.taskRunUUID?.uuidString == "FDFCC3EC-01B6-43E7-8200-9B93E2744BB8")
        #expect(task.device == ResearchKit.Device(product: "", osVersion: "", osBuild: "", platform: ""))
        #expect(task.header.startDate == ResultDate("2019-05-27T00:35:06-0700"))
        #expect(task.header.userInfo == JSONObject([]))
        #expect(task.results.isEmpty)

        let legacy = try ResearchKitDecoder.decode(
            path: sharedDataPath("researchkit-samples/ORKToneAudiometryResult.json"))
        #expect(legacy.result?.toneAudiometry?.outputVolume == nil)
        let warning = try #require(legacy.warnings.first)
        #expect(warning.kind == .implausibleValue)
        #expect(warning.path == "$.outputVolume")

        let step = try ResearchKitDecoder.decode(
            path: sharedDataPath("researchkit-samples/ORKdBHLToneAudiometryStep.json"))
        guard case .dBHLToneAudiometryStep(let s) = step.root else { Issue.record("not a dBHL step"); return }
        #expect(s.initialdBHLValue == 30)
        #expect(s.dBHLStepDownSize == 10)
        #expect(s.dBHLStepUpSizeFirstMiss == 20)
        #expect(s.dBHLMinimumThreshold == -10)
        #expect(s.maxNumberOfTransitionsPerFrequency == 15)
        #expect(s.frequencyList == [])
        #expect(s.activeStep.stepDuration == 0)
        #expect(s.activeStep.raw["shouldTintImages"] == .bool(true))

        let spl = try ResearchKitDecoder.decode(
            path: sharedDataPath("researchkit-samples/ORKEnvironmentSPLMeterStep.json"))
        guard case .environmentSPLMeterStep(let m) = spl.root else { Issue.record("not an SPL step"); return }
        #expect(m.thresholdValue == 35)
        #expect(m.samplingInterval == 1)
        #expect(m.requiredContiguousSamples == 5)
    }

    // MARK: Hand-made fixtures in the documented shapes

    @Test func wholeTappingTaskResult() throws {
        let doc = try ResearchKitDecoder.decode(path: researchKitFixture("tapping-task.json"))
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
        let task = try #require(doc.taskResult)
        #expect(task.identifier == "tappingTask")
        #expect(task.taskRunUUID == UUID(uuidString: "FDFCC3EC-01B6-43E7-8200-9B93E2744BB8"))
        #expect(task.device?.product == "iPhone15,2")
        #expect(task.device?.osVersion == "17.4.1")
        #expect(task.stepResults.map(\.identifier) == ["instruction", "tapping.right", "conclusion"])
        #expect(task.resultsByStep.map(\.results.count) == [0, 2, 0])
        #expect(task.stepResults[1].files.map(\.identifier) == ["accelerometer"])
        let start = try #require(task.header.startDate)
        #expect(start.utcOffset == 7200)
        #expect(start.timeIntervalSince1970 == 1_714_637_460)
        #expect(task.header.duration == 65)

        let files = task.fileResults
        #expect(files.count == 1)
        #expect(files.first?.stepIdentifier == "tapping.right")
        #expect(files.first?.result.identifier == "accelerometer")
        #expect(files.first?.result.fileName == "accel_5A1C9E2B_7F0D_4C3A_9B51_0E2A6C1D8F44-20240502101138.json")
        #expect(files.first?.result.contentType == "application/json")
        #expect(files.first?.result.recorderFrequency == 100)

        let tapping = task.tappingResults
        #expect(tapping.map(\.stepIdentifier) == ["tapping.right"])
        let result = try #require(tapping.first?.result)
        #expect(result.samples.map(\.button) == [.left, .right, .none])
        #expect(result.samples.map(\.timestamp) == [0, 0.2211, 0.4012])
        #expect(result.samples.map(\.duration) == [0.0833, 0.0712, 0])
        #expect(result.samples[1].location == ViewPoint(x: 287, y: 640.5))

        let recording = result.recording
        #expect(recording.stepIdentifier == "tapping.right")
        #expect(recording.viewSize == ViewSize(width: 390, height: 844))
        #expect(
            recording.leftButton == ViewRect(origin: ViewPoint(x: 50, y: 600), size: ViewSize(width: 100, height: 100)))
        #expect(recording.rightButton?.origin == ViewPoint(x: 240, y: 600))
        // Left and right taps land in their buttons; the "none" tap in neither.
        #expect(recording.leftButton?.contains(result.samples[0].location) == true)
        #expect(recording.rightButton?.contains(result.samples[1].location) == true)
        #expect(recording.leftButton?.contains(result.samples[2].location) == false)
        #expect(recording.rightButton?.contains(result.samples[2].location) == false)
        #expect(recording.endDate?.timeIntervalSince1970 == 1_714_637_498)
    }

    @Test func dBHLResultWithStaircaseAndNoThresholdSentinel() throws {
        let doc = try ResearchKitDecoder.decode(path: researchKitFixture("dbhl-result.json"))
        let r = try #require(doc.result?.dBHLToneAudiometry)
        #expect(r.identifier == "dBHL1.tone.audiometry")
        #expect(r.outputVolume == 0.8125)
        #expect(r.tonePlaybackDuration == 1)
        #expect(r.postStimulusDelay == 1)
        #expect(r.headphoneType == "AIRPODSPROV2")
        #expect(r.samples.map(\.frequency) == [1000, 8000])
        #expect(r.samples.map(\.channel) == [.right, .right])

        // 1000 Hz: the staircase 30+ 20+ 10− 15+ 5− 10− 15+ converges on 15 dB HL.
        let k = r.samples[0]
        #expect(k.calculatedThreshold == 15)
        #expect(k.units.map(\.dBHLValue) == [30, 20, 10, 15, 5, 10, 15])
        #expect(k.units.map(\.wasTapped) == [true, true, false, true, false, false, true])
        #expect(k.units.allSatisfy { $0.wasTapped != $0.timedOut })
        #expect(!k.units.contains { $0.isFalseAlarm })
        // Each presentation is scheduled when the previous one ended (tap or timeout).
        for (previous, next) in zip(k.units, k.units.dropFirst()) {
            #expect(next.startOfUnitTimeStamp == max(previous.userTapTimeStamp, previous.timeoutTimeStamp))
        }

        // 8000 Hz: DBL_MAX means "no threshold", read as nil with a warning naming the path.
        #expect(r.samples[1].calculatedThreshold == nil)
        #expect(r.samples[1].units.last?.wasAborted == true)
        #expect(doc.warnings.count == 1)
        let w = try #require(doc.warnings.first)
        #expect(w.kind == .sentinel)
        #expect(w.path == "$.samples[1].calculatedThreshold")
        #expect(w.message.contains("no threshold found"))
    }

    @Test func environmentSPLMeterResult() throws {
        let doc = try ResearchKitDecoder.decode(path: researchKitFixture("spl-meter.json"))
        let r = try #require(doc.result?.environmentSPLMeter)
        #expect(doc.warnings.isEmpty)
        #expect(r.identifier == "splMeter")
        #expect(r.sensitivityOffset == -23.3)
        #expect(r.recordedSPLMeterSamples == [52.31, 47.9, 41.2, 40.8, 39.95, 40.1, 41.03])
        #expect(r.header.duration == 12)
    }

    @Test func timedWalkTaskWithAndWithoutTimeLimit() throws {
        let doc = try ResearchKitDecoder.decode(path: researchKitFixture("timed-walk-task.json"))
        let task = try #require(doc.taskResult)
        let walks = task.stepItems.compactMap { item in item.result.timedWalk.map { (item.stepIdentifier, $0) } }
        #expect(walks.map(\.0) == ["timed.walk.trial1", "timed.walk.trial2"])
        #expect(walks[0].1.distanceInMeters == 100)
        #expect(walks[0].1.timeLimit == 180)
        #expect(walks[0].1.duration == 41.3)
        #expect(walks[1].1.timeLimit == nil)
        #expect(walks[1].1.duration == 44.9)
        #expect(ResearchKitResult.task(task).timedWalkResults.count == 2)
        #expect(task.fileResults.map(\.result.identifier) == ["pedometer"])
        #expect(task.header.startDate?.utcOffset == -14_400)
        #expect(doc.warnings.map(\.kind) == [.sentinel])
        #expect(doc.warnings.first?.path == "$.results[1].results[0].timeLimit")
        #expect(doc.warnings.first?.message.contains("no time limit") == true)
    }

    @Test func rangeOfMotionResult() throws {
        let doc = try ResearchKitDecoder.decode(path: researchKitFixture("range-of-motion.json"))
        let r = try #require(doc.result?.rangeOfMotion)
        #expect(doc.warnings.isEmpty)
        #expect(r.identifier == "knee.range.of.motion")
        #expect([r.start, r.finish, r.minimum, r.maximum, r.range] == [85.2, 12.4, 10.9, 88.0, 77.1])
        #expect(r.header.startDate?.utcOffset == 3600)
        #expect(doc.result?.rangeOfMotionResults.first?.stepIdentifier == "knee.range.of.motion")
    }

    @Test func legacyToneAudiometryResult() throws {
        let doc = try ResearchKitDecoder.decode(path: researchKitFixture("tone-audiometry-legacy.json"))
        let r = try #require(doc.result?.toneAudiometry)
        #expect(doc.warnings.isEmpty)
        #expect(r.outputVolume == 0.5)
        #expect(
            r.samples == [
                ToneAudiometrySample(frequency: 8000, channel: 0, channelSelected: 0, amplitude: 0.0041),
                ToneAudiometrySample(frequency: 250, channel: 1, channelSelected: -1, amplitude: 0.03),
            ])
    }

    @Test func decodedResultsSurviveACodableRoundTrip() throws {
        for name in ["tapping-task.json", "dbhl-result.json", "timed-walk-task.json", "tone-audiometry-legacy.json"] {
            let doc = try ResearchKitDecoder.decode(path: researchKitFixture(name))
            let data = try JSONEncoder().encode(doc)
            #expect(try JSONDecoder().decode(ResearchKitDocument.self, from: data) == doc, "\(name)")
        }
    }

    // MARK: Warnings

    @Test func unknownClassIsKeptAndReportedNotAnError() throws {
        let doc = try decode(
            #"""
            {"_class":"ORKStepResult","identifier":"question","results":[
              {"_class":"ORKVideoInstructionStepResult","identifier":"q1","playbackCompleted":true,"startDate":"2024-05-02T10:00:00Z"},
              {"_class":"ORKFileResult","identifier":"audio","fileName":"audio_1.m4a"}]}
            """#)
        let step = try #require(doc.result?.step)
        guard case .unknown(let className, let header, let raw) = step.results[0] else {
            Issue.record("expected .unknown")
            return
        }
        #expect(className == "ORKVideoInstructionStepResult")
        #expect(header.identifier == "q1")
        #expect(header.startDate?.timeIntervalSince1970 == 1_714_644_000)
        #expect(raw["playbackCompleted"] == .bool(true))
        #expect(doc.warnings.count == 1)
        #expect(doc.warnings.first?.kind == .unknownClass)
        #expect(doc.warnings.first?.path == "$.results[0]")
        #expect(doc.warnings.first?.message.contains("ORKVideoInstructionStepResult") == true)
        // The walker still sees both children under the step's identifier.
        #expect(doc.result?.stepItems.map(\.stepIdentifier) == ["question", "question"])
        #expect(doc.result?.fileResults.first?.result.fileName == "audio_1.m4a")
    }

    @Test func unknownClassAtTheRootIsAnUnknownResult() throws {
        let doc = try decode(#"{"_class":"ORKOrderedTask","identifier":"t","steps":[]}"#)
        #expect(caseLabel(doc.root) == "result.unknown")
        #expect(doc.warnings(of: .unknownClass).first?.path == "$")
    }

    @Test func unknownKeysAreReportedOncePerClassAndKey() throws {
        let doc = try decode(
            #"""
            {"_class":"ORKTappingIntervalResult","identifier":"tapping","samples":[
              {"_class":"ORKTappingSample","buttonIdentifier":"left","duration":0.1,"location":{"x":1,"y":2},"timestamp":0,"force":0.5},
              {"_class":"ORKTappingSample","buttonIdentifier":"right","duration":0.1,"location":{"x":3,"y":4},"timestamp":0.3,"force":0.4},
              {"_class":"ORKTappingSample","buttonIdentifier":"none","duration":0,"location":{"x":5,"y":6},"timestamp":0.6,"force":0}],
             "fileURL":"file:///tmp/x"}
            """#)
        let keys = doc.warnings(of: .unknownKey)
        #expect(keys.count == 2)
        // The result's own keys are checked before its samples are read.
        #expect(keys.map(\.path) == ["$.fileURL", "$.samples[0].force"])
        #expect(keys[1].message.contains("ORKTappingSample"))
        #expect(keys[1].message.contains("3 occurrences"))
        #expect(doc.result?.tappingInterval?.samples.count == 3)
    }

    @Test func emptyDatesBecomeNilWithAWarning() throws {
        let doc = try decode(
            #"{"_class":"ORKRangeOfMotionResult","identifier":"r","startDate":"","endDate":"","start":0,"finish":0,"minimum":0,"maximum":0,"range":0}"#
        )
        #expect(doc.result?.header.startDate == nil)
        #expect(doc.result?.header.endDate == nil)
        #expect(doc.warnings.map(\.kind) == [.emptyDate, .emptyDate])
        #expect(doc.warnings.map(\.path) == ["$.startDate", "$.endDate"])
    }

    @Test(arguments: [
        ("1.7976931348623157e308", "CGFLOAT_MAX (1.7976931348623157e308)"),
        ("3.4028234663852886e38", "32-bit CGFLOAT_MAX"),
    ])
    func noTimeLimitSentinelsOfBothWordSizes(text: String, explanation: String) throws {
        let doc = try decode(
            #"{"_class":"ORKTimedWalkResult","identifier":"w","distanceInMeters":10,"duration":9.5,"timeLimit":\#(text)}"#
        )
        #expect(doc.result?.timedWalk?.timeLimit == nil)
        #expect(doc.warnings.first?.message.contains(explanation) == true)
    }

    @Test func negativeDBLMaxThresholdIsAClampedNaN() throws {
        let doc = try decode(
            #"{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":500,"channel":0,"calculatedThreshold":-1.7976931348623157e308}"#
        )
        guard case .dBHLToneAudiometryFrequencySample(let s) = doc.root else {
            Issue.record("not a frequency sample")
            return
        }
        #expect(s.calculatedThreshold == nil)
        #expect(s.channel == .left)
        #expect(doc.warnings.first?.message.contains("NaN") == true)
    }

    @Test func stepConfigurationsKeepRecordersAndRawKeys() throws {
        let doc = try decode(
            #"""
            {"_class":"ORKWalkingTaskStep","identifier":"walking.outbound","numberOfStepsPerLeg":20,"stepDuration":30,
             "title":"Walk","recorderConfigurations":[
               {"_class":"ORKAccelerometerRecorderConfiguration","identifier":"accelerometer","frequency":100},
               {"_class":"ORKPedometerRecorderConfiguration","identifier":"pedometer","rollingFileSizeThreshold":0}]}
            """#)
        guard case .walkingTaskStep(let s) = doc.root else {
            Issue.record("not a walking step")
            return
        }
        #expect(doc.warnings.isEmpty)
        #expect(s.identifier == "walking.outbound")
        #expect(s.numberOfStepsPerLeg == 20)
        #expect(s.activeStep.stepDuration == 30)
        #expect(s.activeStep.raw["title"] == .string("Walk"))
        #expect(s.activeStep.recorderConfigurations.map(\.identifier) == ["accelerometer", "pedometer"])
        #expect(s.activeStep.recorderConfigurations[0].frequency == 100)
        #expect(s.activeStep.recorderConfigurations[1].rollingFileSizeThreshold == 0)

        let unlimited = try decode(
            #"{"_class":"ORKActiveStep","identifier":"a","stepDuration":1.7976931348623157e308}"#)
        guard case .activeStep(let a) = unlimited.root else {
            Issue.record("not an active step")
            return
        }
        #expect(a.stepDuration == nil)
        #expect(unlimited.warnings(of: .sentinel).first?.path == "$.stepDuration")
    }

    // MARK: Bad input

    static let badInputs: [BadResearchKitInput] = [
        BadResearchKitInput(
            name: "truncated JSON",
            json: #"{"_class":"ORKTaskResult","identifier":"t","results":[{"_class":"ORKStepResult""#,
            kind: .syntax, path: "$.results[0]", message: "truncated"),
        BadResearchKitInput(
            name: "empty file", json: "", kind: .syntax, path: "$", message: "an empty document"),
        BadResearchKitInput(
            name: "NaN token",
            json:
                #"{"_class":"ORKTimedWalkResult","identifier":"w","distanceInMeters":10,"timeLimit":60,"duration":NaN}"#,
            kind: .syntax, path: "$.duration", message: "NaN (not valid JSON)"),
        BadResearchKitInput(
            name: "wrong type for a key",
            json:
                #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"FDFCC3EC-01B6-43E7-8200-9B93E2744BB8","results":[{"_class":"ORKStepResult","identifier":"s","isPreviousResult":"no"}]}"#,
            kind: .schema, path: "$.results[0].isPreviousResult", message: "expected true or false, found string \"no\""
        ),
        BadResearchKitInput(
            name: "missing _class",
            json:
                #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"FDFCC3EC-01B6-43E7-8200-9B93E2744BB8","results":[{"_class":"ORKStepResult","identifier":"s","results":[{"_class":"ORKFileResult","identifier":"a"},{"identifier":"b","fileName":"x.json"}]}]}"#,
            kind: .schema, path: "$.results[0].results[1]._class", message: "missing _class"),
        BadResearchKitInput(
            name: "malformed date",
            json:
                #"{"_class":"ORKFileResult","identifier":"accelerometer","startDate":"2019-05-27 00:35","fileName":"a.json"}"#,
            kind: .schema, path: "$.startDate", message: "malformed date"),
        BadResearchKitInput(
            name: "DBL_MAX in a non-sentinel field",
            json:
                #"{"_class":"ORKdBHLToneAudiometryResult","identifier":"d","outputVolume":0.5,"tonePlaybackDuration":1,"postStimulusDelay":1,"samples":[{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":1000,"channel":0,"calculatedThreshold":20,"units":[{"_class":"ORKdBHLToneAudiometryUnit","dBHLValue":1.7976931348623157e308,"startOfUnitTimeStamp":0,"preStimulusDelay":1,"userTapTimeStamp":2,"timeoutTimeStamp":0}]}]}"#,
            kind: .schema, path: "$.samples[0].units[0].dBHLValue",
            message: "sentinel, but this field has no 'no value' meaning"),
        BadResearchKitInput(
            name: "samples not an array",
            json:
                #"{"_class":"ORKTappingIntervalResult","identifier":"tapping","samples":{"_class":"ORKTappingSample"}}"#,
            kind: .schema, path: "$.samples", message: "must be an array"),
        BadResearchKitInput(
            name: "unknown buttonIdentifier",
            json:
                #"{"_class":"ORKTappingIntervalResult","identifier":"tapping","samples":[{"_class":"ORKTappingSample","buttonIdentifier":"left","duration":0.1,"location":{"x":1,"y":2},"timestamp":0},{"_class":"ORKTappingSample","buttonIdentifier":"middle","duration":0.1,"location":{"x":1,"y":2},"timestamp":0.2}]}"#,
            kind: .schema, path: "$.samples[1].buttonIdentifier", message: "unknown tapping buttonIdentifier"),
        BadResearchKitInput(
            name: "negative duration",
            json:
                #"{"_class":"ORKTimedWalkResult","identifier":"w","distanceInMeters":10,"timeLimit":60,"duration":-4.2}"#,
            kind: .schema, path: "$.duration", message: "ORKTimedWalkResult.duration must not be negative"),
        BadResearchKitInput(
            name: "channel 2",
            json:
                #"{"_class":"ORKdBHLToneAudiometryResult","identifier":"d","outputVolume":0.5,"tonePlaybackDuration":1,"postStimulusDelay":1,"samples":[{"_class":"ORKdBHLToneAudiometryFrequencySample","frequency":1000,"channel":2,"calculatedThreshold":20,"units":[]}]}"#,
            kind: .schema, path: "$.samples[0].channel", message: "expected 0 (left) or 1 (right), found number 2"),
        BadResearchKitInput(
            name: "outputVolume outside 0…1",
            json:
                #"{"_class":"ORKdBHLToneAudiometryResult","identifier":"d","outputVolume":1.5,"tonePlaybackDuration":1,"postStimulusDelay":1}"#,
            kind: .schema, path: "$.outputVolume", message: "outputVolume must lie in 0…1"),
        BadResearchKitInput(
            name: "missing required scalar",
            json: #"{"_class":"ORKRangeOfMotionResult","identifier":"r","start":1,"finish":2,"minimum":0,"maximum":3}"#,
            kind: .schema, path: "$.range", message: "ORKRangeOfMotionResult requires \"range\""),
        BadResearchKitInput(
            name: "missing identifier",
            json: #"{"_class":"ORKEnvironmentSPLMeterResult","sensitivityOffset":0}"#,
            kind: .schema, path: "$.identifier", message: "requires \"identifier\""),
        BadResearchKitInput(
            name: "a device among results",
            json:
                #"{"_class":"ORKStepResult","identifier":"s","results":[{"_class":"ORKDevice","product":"iPhone15,2"}]}"#,
            kind: .schema, path: "$.results[0]._class", message: "ORKDevice is not a result"),
        BadResearchKitInput(
            name: "malformed taskRunUUID",
            json: #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"not-a-uuid"}"#,
            kind: .schema, path: "$.taskRunUUID", message: "malformed taskRunUUID"),
        BadResearchKitInput(
            name: "root is not an object", json: #"42"#, kind: .schema, path: "$", message: "found number 42"),
        BadResearchKitInput(
            name: "an empty array of results", json: #"[]"#, kind: .schema, path: "$", message: "found an empty array"),
        BadResearchKitInput(
            name: "an array of results whose element is incomplete", json: #"[{"_class":"ORKTaskResult"}]"#,
            kind: .schema, path: "$[0].identifier", message: "requires \"identifier\""),
        BadResearchKitInput(
            name: "wrong class in a sample position",
            json:
                #"{"_class":"ORKToneAudiometryResult","identifier":"t","samples":[{"_class":"ORKTappingSample","frequency":1000,"channel":0,"channelSelected":0,"amplitude":0.01}]}"#,
            kind: .schema, path: "$.samples[0]._class",
            message: "wrong class in a position that holds ORKToneAudiometrySample objects"),
        BadResearchKitInput(
            name: "rectangle without size",
            json:
                #"{"_class":"ORKTappingIntervalResult","identifier":"tapping","samples":[],"buttonRect1":{"origin":{"x":0,"y":0}}}"#,
            kind: .schema, path: "$.buttonRect1.size", message: "requires \"size\""),
        BadResearchKitInput(
            name: "number beyond double range",
            json:
                #"{"_class":"ORKRangeOfMotionResult","identifier":"r","start":1e999,"finish":2,"minimum":0,"maximum":3,"range":3}"#,
            kind: .syntax, path: "$.start", message: "a number within ±1.8e308"),
        BadResearchKitInput(
            name: "fractional channelSelected",
            json:
                #"{"_class":"ORKToneAudiometrySample","frequency":1000,"channel":0,"channelSelected":0.5,"amplitude":0.01}"#,
            kind: .schema, path: "$.channelSelected", message: "channelSelected is out of range"),
    ]

    @Test(arguments: badInputs)
    func badInputIsRejectedWithPathAndReason(_ bad: BadResearchKitInput) throws {
        let error = try #require(throws: InputError.self) { try decode(bad.json, file: "bad.json") }
        #expect(error.kind == bad.kind)
        #expect(error.file == "bad.json")
        let location = try #require(error.location)
        if bad.kind == .syntax {
            #expect(location.hasPrefix(bad.path + " (line "), "\(location)")
        } else {
            #expect(location == bad.path)
        }
        #expect(error.expected != nil && error.found != nil, "\(error)")
        #expect(error.description.contains(bad.message), "\(error)")
    }

    @Test func longTappingRecordingDecodesAndLocatesABadSampleByIndex() throws {
        let buttons = ["left", "right", "none"]
        var samples = (0..<5000).map { i in
            #"{"_class":"ORKTappingSample","buttonIdentifier":"\#(buttons[i % 3])","duration":\#(i % 3 == 2 ? 0 : 0.08),"#
                + #""location":{"x":\#(i % 390),"y":600},"timestamp":\#(Double(i) * 0.15)}"#
        }
        let head = #"{"_class":"ORKTappingIntervalResult","identifier":"tapping.left","samples":["#
        let doc = try decode(head + samples.joined(separator: ",") + "]}")
        let result = try #require(doc.result?.tappingInterval)
        #expect(result.samples.count == 5000)
        #expect(result.samples[4999].timestamp == 4999 * 0.15)
        #expect(result.samples.filter { $0.button == .none }.count == 1666)

        samples[4321] = samples[4321].replacingOccurrences(of: #""duration":0.08"#, with: #""duration":-0.08"#)
        let error = try #require(throws: InputError.self) { try decode(head + samples.joined(separator: ",") + "]}") }
        #expect(error.location == "$.samples[4321].duration")
    }

    @Test func missingFileIsUnreadable() throws {
        let path = researchKitFixture("does-not-exist.json")
        let error = try #require(throws: InputError.self) { try ResearchKitDecoder.decode(path: path) }
        #expect(error.kind == .unreadable)
        #expect(error.file == path)
        #expect(error.description.contains("no such file"))
    }
}
