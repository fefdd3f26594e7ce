import Foundation

/// Per-class decoding of results and the model objects nested in them (key tables: researchkit-formats.md §1.3).
extension ResearchKitDecoder {
    /// The documented keys of each class whose extra keys are reported (researchkit-formats.md §1.3), built once.
    static let documentedKeys: [String: Set<String>] = {
        let result: Set<String> = ["_class", "identifier", "startDate", "endDate", "userInfo"]
        var questions: [String: Set<String>] = [:]
        for (name, own) in questionKeys { questions[name] = documentedQuestionKeys(own) }
        return questions.merging([
            "ORKConsentSignatureResult": result.union(["consented", "signature"]),
            "ORKTaskResult": result.union(["results", "taskRunUUID", "device"]),
            "ORKPageResult": result.union(["results", "taskRunUUID", "device"]),
            "ORKFamilyHistoryResult": result.union(["relatedPersons", "displayedConditions"]),
            "ORKRelatedPerson": ["_class", "identifier", "groupIdentifier", "identifierForCellTitle", "taskResult"],
            "ORKStepResult": result.union(["results", "isPreviousResult", "enabledAssistiveTechnology"]),
            "ORKFileResult": result.union(["contentType", "fileName"]),
            "ORKTappingIntervalResult": result.union(["samples", "stepViewSize", "buttonRect1", "buttonRect2"]),
            "ORKdBHLToneAudiometryResult": result.union(
                ["outputVolume", "tonePlaybackDuration", "postStimulusDelay", "headphoneType", "samples"]),
            "ORKToneAudiometryResult": result.union(["outputVolume", "samples"]),
            "ORKEnvironmentSPLMeterResult": result.union(["sensitivityOffset", "recordedSPLMeterSamples"]),
            "ORKTimedWalkResult": result.union(["distanceInMeters", "timeLimit", "duration"]),
            "ORKRangeOfMotionResult": result.union(["start", "finish", "minimum", "maximum", "range"]),
            "ORKDevice": ["_class", "product", "osVersion", "osBuild", "platform"],
            "ORKTappingSample": ["_class", "timestamp", "duration", "buttonIdentifier", "location"],
            "ORKdBHLToneAudiometryFrequencySample": ["_class", "frequency", "calculatedThreshold", "channel", "units"],
            "ORKdBHLToneAudiometryUnit": [
                "_class", "dBHLValue", "startOfUnitTimeStamp", "preStimulusDelay", "userTapTimeStamp",
                "timeoutTimeStamp",
            ],
            "ORKToneAudiometrySample": ["_class", "frequency", "channel", "channelSelected", "amplitude"],
        ]) { own, _ in own }
    }()

    static func decodeTaskResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.TaskResult {
        f.reportUnknownKeys()
        let header = try f.header()
        // Optional: ResearchKit's own 2024 test results omit it.
        var uuid: UUID?
        if let text = try f.optionalString("taskRunUUID") {
            guard let parsed = UUID(uuidString: text) else {
                throw f.error(
                    "taskRunUUID", expected: "a UUID like FDFCC3EC-01B6-43E7-8200-9B93E2744BB8",
                    found: JSONValue.string(text).summary,
                    message: "malformed taskRunUUID")
            }
            uuid = parsed
        }
        let device = try f.positional("device", expectedClass: "ORKDevice").map { d throws(InputError) in
            try decodeDevice(d)
        }
        return ResearchKit.TaskResult(header: header, taskRunUUID: uuid, device: device, results: try decodeChildren(f))
    }

    static func decodeFamilyHistoryResult(_ f: ResearchKitFields) throws(InputError)
        -> ResearchKit.FamilyHistoryResult
    {
        f.reportUnknownKeys()
        let header = try f.header()
        let persons = try decodeArray(
            f, "relatedPersons", of: "ORKRelatedPerson objects", expectedClass: "ORKRelatedPerson", decodeRelatedPerson)
        var conditions: [String] = []
        for (i, v) in (try f.optionalArray("displayedConditions", of: "condition identifiers (strings)") ?? [])
            .enumerated()
        {
            guard case .string(let s) = v else {
                throw f.context.error(
                    at: f.path.key("displayedConditions").index(i), expected: "a condition identifier (a string)",
                    found: v.summary)
            }
            conditions.append(s)
        }
        return ResearchKit.FamilyHistoryResult(
            header: header, relatedPersons: persons, displayedConditions: conditions)
    }

    static func decodeRelatedPerson(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.RelatedPerson {
        f.reportUnknownKeys()
        let task = try f.positional("taskResult", expectedClass: "ORKTaskResult").map { t throws(InputError) in
            try decodeTaskResult(t)
        }
        return ResearchKit.RelatedPerson(
            identifier: try f.string("identifier"), groupIdentifier: try f.optionalString("groupIdentifier") ?? "",
            identifierForCellTitle: try f.optionalString("identifierForCellTitle") ?? "", taskResult: task)
    }

    static func decodeDevice(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.Device {
        f.reportUnknownKeys()
        return ResearchKit.Device(
            product: try f.optionalString("product"), osVersion: try f.optionalString("osVersion"),
            osBuild: try f.optionalString("osBuild"), platform: try f.optionalString("platform"))
    }

    static func decodeStepResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.StepResult {
        f.reportUnknownKeys()
        return ResearchKit.StepResult(
            header: try f.header(), isPreviousResult: try f.optionalBool("isPreviousResult") ?? false,
            enabledAssistiveTechnology: try f.optionalString("enabledAssistiveTechnology"),
            results: try decodeChildren(f))
    }

    static func decodeFileResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.FileResult {
        f.reportUnknownKeys()
        let header = try f.header()
        // userInfo is free-form, so an odd frequency is a warning, not an error.
        var frequency: Double?
        if let v = header.userInfo?["frequency"], v != .null {
            if case .number(let hz) = v, hz > 0, !ResearchKitFields.isSentinelMagnitude(hz) {
                frequency = hz
            } else {
                f.context.warn(
                    .implausibleValue, at: f.path.key("userInfo").key("frequency"),
                    "recorder frequency is \(v.summary), not a positive number of Hz; read as unknown")
            }
        }
        return ResearchKit.FileResult(
            header: header, contentType: try f.optionalString("contentType"),
            fileName: try f.optionalString("fileName"),
            recorderFrequency: frequency)
    }

    static func decodeTappingResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.TappingIntervalResult {
        f.reportUnknownKeys()
        return ResearchKit.TappingIntervalResult(
            header: try f.header(),
            samples: try decodeArray(
                f, "samples", of: "ORKTappingSample objects", expectedClass: "ORKTappingSample", decodeTapSample),
            stepViewSize: try f.size("stepViewSize"), buttonRect1: try f.rect("buttonRect1"),
            buttonRect2: try f.rect("buttonRect2"))
    }

    static func decodeTapSample(_ f: ResearchKitFields) throws(InputError) -> TapSample {
        f.reportUnknownKeys()
        let buttonText = try f.string("buttonIdentifier")
        guard let button = TapButton(rawValue: buttonText) else {
            throw f.error(
                "buttonIdentifier", expected: "\"none\", \"left\" or \"right\"",
                found: JSONValue.string(buttonText).summary,
                message: "unknown tapping buttonIdentifier")
        }
        guard let location = try f.point("location") else {
            throw f.missing("location", expected: "a point {\"x\", \"y\"}")
        }
        return TapSample(
            timestamp: try f.number("timestamp", .finite, unit: "s"),
            duration: try f.number("duration", .nonNegative, unit: "s"),
            button: button, location: location)
    }

    static func decodeDBHLResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.DBHLToneAudiometryResult {
        f.reportUnknownKeys()
        return ResearchKit.DBHLToneAudiometryResult(
            header: try f.header(), outputVolume: try f.number("outputVolume", .unitInterval, unit: "output volume"),
            tonePlaybackDuration: try f.number("tonePlaybackDuration", .nonNegative, unit: "s"),
            postStimulusDelay: try f.number("postStimulusDelay", .nonNegative, unit: "s"),
            headphoneType: try f.optionalString("headphoneType"),
            samples: try decodeArray(
                f, "samples", of: "ORKdBHLToneAudiometryFrequencySample objects",
                expectedClass: "ORKdBHLToneAudiometryFrequencySample", decodeFrequencySample))
    }

    /// The expected text for `channel`.
    static let channelExpectation = "0 (left) or 1 (right)"

    static func decodeFrequencySample(_ f: ResearchKitFields) throws(InputError)
        -> ResearchKit.DBHLToneAudiometryFrequencySample
    {
        f.reportUnknownKeys()
        let channel = try f.integer("channel", in: 0...1, expected: channelExpectation)
        return ResearchKit.DBHLToneAudiometryFrequencySample(
            frequency: try f.number("frequency", .nonNegative, unit: "Hz"),
            calculatedThreshold: try f.sentinelNumber("calculatedThreshold", .noThreshold, .finite, unit: "dB HL"),
            channel: ResearchKit.AudioChannel(rawValue: channel) ?? .left,
            units: try decodeArray(
                f, "units", of: "ORKdBHLToneAudiometryUnit objects", expectedClass: "ORKdBHLToneAudiometryUnit",
                decodeUnit))
    }

    static func decodeUnit(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.DBHLToneAudiometryUnit {
        f.reportUnknownKeys()
        return ResearchKit.DBHLToneAudiometryUnit(
            dBHLValue: try f.number("dBHLValue", .finite, unit: "dB HL"),
            startOfUnitTimeStamp: try f.number("startOfUnitTimeStamp", .nonNegative, unit: "s"),
            preStimulusDelay: try f.number("preStimulusDelay", .nonNegative, unit: "s"),
            userTapTimeStamp: try f.number("userTapTimeStamp", .nonNegative, unit: "s"),
            timeoutTimeStamp: try f.number("timeoutTimeStamp", .nonNegative, unit: "s"))
    }

    static func decodeToneAudiometryResult(_ f: ResearchKitFields) throws(InputError)
        -> ResearchKit.ToneAudiometryResult
    {
        f.reportUnknownKeys()
        let header = try f.header()
        // Nullable in ResearchKit, and ResearchKit's own sample carries 123: out of range reads as unknown.
        var volume: Double?
        if let v = f.value("outputVolume") {
            guard case .number(let x) = v else {
                throw f.error("outputVolume", expected: "a number in 0…1", found: v.summary)
            }
            if (0...1).contains(x) {
                volume = x
            } else {
                f.context.warn(
                    .implausibleValue, at: f.path.key("outputVolume"),
                    "ORKToneAudiometryResult.outputVolume is \(v.summary), outside 0…1; read as unknown")
            }
        }
        return ResearchKit.ToneAudiometryResult(
            header: header, outputVolume: volume,
            samples: try decodeArray(
                f, "samples", of: "ORKToneAudiometrySample objects", expectedClass: "ORKToneAudiometrySample",
                decodeToneAudiometrySample))
    }

    static func decodeToneAudiometrySample(_ f: ResearchKitFields) throws(InputError) -> ToneAudiometrySample {
        f.reportUnknownKeys()
        return ToneAudiometrySample(
            frequency: try f.number("frequency", .nonNegative, unit: "Hz"),
            channel: try f.integer("channel", in: 0...1, expected: channelExpectation),
            channelSelected: try f.integer(
                "channelSelected", in: -1...1, expected: "-1 (no press), 0 (left) or 1 (right)"),
            amplitude: try f.number("amplitude", .nonNegative, unit: "linear amplitude"))
    }

    static func decodeSPLMeterResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.EnvironmentSPLMeterResult
    {
        f.reportUnknownKeys()
        let header = try f.header()
        let offset = try f.number("sensitivityOffset", .finite, unit: "dB")
        var levels: [Double] = []
        if let values = try f.optionalArray("recordedSPLMeterSamples", of: "numbers (dB(A) SPL)") {
            levels.reserveCapacity(values.count)
            let arrayPath = f.path.key("recordedSPLMeterSamples")
            for (i, v) in values.enumerated() {
                let p = arrayPath.index(i)
                guard case .number(let x) = v else {
                    throw f.context.error(at: p, expected: "a number (dB(A) SPL)", found: v.summary)
                }
                guard !ResearchKitFields.isSentinelMagnitude(x) else {
                    throw f.context.error(
                        at: p, expected: "a number (dB(A) SPL)", found: v.summary,
                        message: "an SPL sample holds ResearchKit's DBL_MAX sentinel, which this field does not use")
                }
                levels.append(x)
            }
        }
        return ResearchKit.EnvironmentSPLMeterResult(
            header: header, sensitivityOffset: offset, recordedSPLMeterSamples: levels)
    }

    static func decodeTimedWalkResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.TimedWalkResult {
        f.reportUnknownKeys()
        return ResearchKit.TimedWalkResult(
            header: try f.header(), distanceInMeters: try f.number("distanceInMeters", .nonNegative, unit: "m"),
            timeLimit: try f.sentinelNumber("timeLimit", .noTimeLimit, .nonNegative, unit: "s"),
            duration: try f.number("duration", .nonNegative, unit: "s"))
    }

    static func decodeRangeOfMotionResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.RangeOfMotionResult
    {
        f.reportUnknownKeys()
        return ResearchKit.RangeOfMotionResult(
            header: try f.header(), start: try f.number("start", .finite, unit: "degrees"),
            finish: try f.number("finish", .finite, unit: "degrees"),
            minimum: try f.number("minimum", .finite, unit: "degrees"),
            maximum: try f.number("maximum", .finite, unit: "degrees"),
            range: try f.number("range", .finite, unit: "degrees"))
    }
}
