import Foundation
import SensorSignal

/// Decodes ResearchKit result JSON (the `ORKESerializer` dialect) into ``ResearchKitDocument``s.
///
/// ## Dispatch
/// Objects are dispatched on `_class`. `_class` is required where it decides the type: the root and every
/// element of a `results` or `recorderConfigurations` array. Where the position fixes the class (a task's
/// `device`, `samples`, `units`) it may be absent, but when present it must name the expected class.
///
/// ## What is an error and what is a warning
/// Errors (``InputError``, kind `.syntax` for bad JSON, `.schema` otherwise, `.unreadable` for files) name the
/// file, the JSON path (`$.results[2].results[1].samples[5].timestamp`), what was expected and what was found:
/// a missing or non-string `_class` where it is required; a known class in the wrong place (an `ORKDevice`
/// among results); a missing required key or a wrong JSON type; a malformed date; a number outside its
/// documented range (`outputVolume` outside 0…1, negative durations or frequencies, `channel` other than 0/1,
/// an unknown `buttonIdentifier`); and `DBL_MAX`/`CGFLOAT_MAX` in a field that has no sentinel meaning.
/// NaN and Infinity cannot occur: they are not JSON, and ``JSONParser`` rejects them.
///
/// Warnings (``ResearchKitDocument/warnings``) do not stop decoding:
/// - an unknown `_class` (kept as ``ResearchKitResult/unknown(className:header:raw:)``);
/// - sentinels mapped to nil: `calculatedThreshold` = `DBL_MAX` ("no threshold"), `timeLimit` and
///   `stepDuration` = `CGFLOAT_MAX` ("no limit");
/// - empty date strings (placeholder output), mapped to nil;
/// - the legacy `ORKToneAudiometryResult.outputVolume` outside 0…1 (ResearchKit declares it nullable and its
///   own sample file carries 123), and an unusable `userInfo.frequency` on a file result, both mapped to nil;
/// - keys outside the documented key set of a result, sample, unit or device class, one warning per class and
///   key with the first path and a count. Step and recorder configurations carry dozens of UI keys and are
///   kept whole in `raw`, so their extra keys are tolerated silently, as is everything inside `userInfo`.
///
/// Required keys: `identifier` of every known result, and each result's own scalars (`outputVolume`,
/// `duration`, …, as `ORKESerializer` always writes scalars). Object-valued properties that ResearchKit omits
/// when nil (`results`, `samples`, `units`, `device`, geometry, `contentType`, `fileName`) are optional: an
/// absent array reads as empty, an absent object as nil. `isPreviousResult` defaults to false (ResearchKit 1.x
/// did not write it).
public enum ResearchKitDecoder {
    /// Largest file ``decode(path:)`` reads (after gunzip), bytes: 512 MiB.
    ///
    /// Result files are kilobytes; recorder logs are read by ``RecorderLogDecoder``, not here.
    public static let maximumFileSize = 512 << 20

    /// Reads and decodes the result file at `path` (gzip-compressed files are decompressed).
    /// - Parameter path: the file; also used as the file name in errors.
    /// - Returns: the root object and the warnings.
    /// - Throws: ``InputError`` of kind `.unreadable` (missing, unreadable), `.unsupported` (too large), `.syntax`
    ///   (corrupt gzip, not JSON, empty) or `.schema` (valid JSON that is not valid ResearchKit output).
    public static func decode(path: String) throws(InputError) -> ResearchKitDocument {
        let data = try DialectFiles.read(path: path, limit: Int64(maximumFileSize))
        return try decode(data, file: path)
    }

    /// Decodes JSON text held in memory.
    /// - Parameters:
    ///   - data: UTF-8 JSON.
    ///   - file: the file name used in errors and the document.
    /// - Returns: the root object and the warnings.
    /// - Throws: ``InputError`` of kind `.syntax` or `.schema`.
    public static func decode(_ data: Data, file: String) throws(InputError) -> ResearchKitDocument {
        try decode(JSONParser.parse(data, file: file), file: file)
    }

    /// Decodes an already parsed JSON document.
    /// - Parameters:
    ///   - value: the parsed document.
    ///   - file: the file name used in errors and the document.
    /// - Returns: the root object and the warnings.
    /// - Throws: ``InputError`` of kind `.schema`, with the JSON path of the offending value.
    public static func decode(_ value: JSONValue, file: String) throws(InputError) -> ResearchKitDocument {
        let context = ResearchKitDecodingContext(file: file)
        if case .array(let items) = value {
            return ResearchKitDocument(file: file, root: try decodeResultArray(items, context), warnings: context.allWarnings)
        }
        let root = try decodeObject(value, at: .root, context)
        return ResearchKitDocument(file: file, root: root, warnings: context.allWarnings)
    }

    /// A top-level JSON array of results — what taskproc's `researchkit` export writes (one `ORKStepResult` per
    /// step) — read as the results of one task: an `ORKTaskResult` with an empty identifier, whose `taskRunUUID` is
    /// the one every element names (`taskRunUUID` on each exported step), if they agree. A warning says so.
    static func decodeResultArray(_ items: [JSONValue], _ context: ResearchKitDecodingContext) throws(InputError)
        -> ResearchKitObject
    {
        guard !items.isEmpty else {
            throw context.error(
                at: .root, expected: "a ResearchKit result, or an array of results", found: "an empty array")
        }
        var results: [ResearchKitResult] = []
        results.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { results.append(try decodeResult(item, at: .root.index(i), context)) }
        let runs = Set(items.compactMap { $0.objectValue?["taskRunUUID"]?.stringValue })
        let run = runs.count == 1 ? runs.first.flatMap { UUID(uuidString: $0) } : nil
        context.warn(
            .arrayRoot, at: .root,
            "a JSON array of \(items.count) results (as taskproc's researchkit export writes them), read as the results "
                + "of one task")
        return .result(
            .task(
                ResearchKit.TaskResult(
                    header: ResearchKit.ResultHeader(className: "ORKTaskResult", identifier: ""), taskRunUUID: run,
                    results: results)))
    }

    // MARK: Dispatch

    /// Classes that are not results: allowed at the root, an error among `results`.
    static let nonResultClasses: Set<String> = [
        "ORKDevice", "ORKTappingSample", "ORKToneAudiometrySample", "ORKdBHLToneAudiometryFrequencySample",
        "ORKdBHLToneAudiometryUnit", "ORKActiveStep", "ORKTappingIntervalStep", "ORKWalkingTaskStep",
        "ORKTimedWalkStep",
        "ORKdBHLToneAudiometryStep", "ORKEnvironmentSPLMeterStep",
    ]

    /// True for recorder configuration classes (`ORKAccelerometerRecorderConfiguration`, …,
    /// `ORKAudioStreamerConfiguration`).
    static func isRecorderConfiguration(_ className: String) -> Bool {
        className.hasPrefix("ORK")
            && (className.hasSuffix("RecorderConfiguration") || className == "ORKAudioStreamerConfiguration")
    }

    /// Decodes any object, dispatching on its required `_class`.
    static func decodeObject(_ value: JSONValue, at path: ResearchKitPath, _ context: ResearchKitDecodingContext)
        throws(InputError) -> ResearchKitObject
    {
        let object = try context.object(
            value, at: path, expected: "a ResearchKit object (a JSON object with \"_class\")")
        let className = try context.className(of: object, at: path)
        let f = ResearchKitFields(object: object, path: path, className: className, context: context)
        switch className {
        case "ORKDevice": return .device(try decodeDevice(f))
        case "ORKTappingSample": return .tappingSample(try decodeTapSample(f))
        case "ORKToneAudiometrySample": return .toneAudiometrySample(try decodeToneAudiometrySample(f))
        case "ORKdBHLToneAudiometryFrequencySample":
            return .dBHLToneAudiometryFrequencySample(try decodeFrequencySample(f))
        case "ORKdBHLToneAudiometryUnit": return .dBHLToneAudiometryUnit(try decodeUnit(f))
        case "ORKActiveStep": return .activeStep(try decodeActiveStep(f))
        case "ORKTappingIntervalStep":
            return .tappingIntervalStep(ResearchKit.TappingIntervalStep(activeStep: try decodeActiveStep(f)))
        case "ORKWalkingTaskStep": return .walkingTaskStep(try decodeWalkingTaskStep(f))
        case "ORKTimedWalkStep": return .timedWalkStep(try decodeTimedWalkStep(f))
        case "ORKdBHLToneAudiometryStep": return .dBHLToneAudiometryStep(try decodeDBHLStep(f))
        case "ORKEnvironmentSPLMeterStep": return .environmentSPLMeterStep(try decodeSPLMeterStep(f))
        default:
            if isRecorderConfiguration(className) { return .recorderConfiguration(try decodeRecorderConfiguration(f)) }
            return .result(try decodeResult(f))
        }
    }

    /// Decodes an element of a `results` array (required `_class`).
    static func decodeResult(_ value: JSONValue, at path: ResearchKitPath, _ context: ResearchKitDecodingContext)
        throws(InputError) -> ResearchKitResult
    {
        let object = try context.object(
            value, at: path, expected: "a ResearchKit result (a JSON object with \"_class\")")
        let className = try context.className(of: object, at: path)
        return try decodeResult(ResearchKitFields(object: object, path: path, className: className, context: context))
    }

    /// Decodes a result whose class is known to `f`; unknown classes become `.unknown` with a warning.
    static func decodeResult(_ f: ResearchKitFields) throws(InputError) -> ResearchKitResult {
        switch f.className {
        // ORKPageResult is an ORKTaskResult subclass: a page step's nested step results.
        case "ORKTaskResult", "ORKPageResult": return .task(try decodeTaskResult(f))
        case "ORKFamilyHistoryResult": return .familyHistory(try decodeFamilyHistoryResult(f))
        case "ORKStepResult": return .step(try decodeStepResult(f))
        case "ORKFileResult": return .file(try decodeFileResult(f))
        case "ORKTappingIntervalResult": return .tappingInterval(try decodeTappingResult(f))
        case "ORKdBHLToneAudiometryResult": return .dBHLToneAudiometry(try decodeDBHLResult(f))
        case "ORKToneAudiometryResult": return .toneAudiometry(try decodeToneAudiometryResult(f))
        case "ORKEnvironmentSPLMeterResult": return .environmentSPLMeter(try decodeSPLMeterResult(f))
        case "ORKTimedWalkResult": return .timedWalk(try decodeTimedWalkResult(f))
        case "ORKRangeOfMotionResult": return .rangeOfMotion(try decodeRangeOfMotionResult(f))
        case "ORKConsentSignatureResult": return .consentSignature(try decodeConsentSignatureResult(f))
        default:
            if isQuestionResult(f.className) { return .question(try decodeQuestionResult(f)) }
            if nonResultClasses.contains(f.className) || isRecorderConfiguration(f.className) {
                throw f.context.error(
                    at: f.path.key("_class"), expected: "a result class (an ORKResult subclass)",
                    found: "string \"\(f.className)\"",
                    message: "\(f.className) is not a result and cannot appear among results")
            }
            let header = f.lenientHeader()
            // Classes a kind reads from the raw JSON (KindRecognition) are not unmodelled.
            if !KindRecognition.current.reads(f.className) {
                f.context.warn(
                    .unknownClass, at: f.path,
                    "class \(f.className) is not modelled by taskproc; kept as raw JSON (identifier \"\(header.identifier)\")"
                )
            }
            return .unknown(className: f.className, header: header, raw: f.object)
        }
    }

    /// Decodes the `results` array of a collection result (absent = empty).
    static func decodeChildren(_ f: ResearchKitFields) throws(InputError) -> [ResearchKitResult] {
        guard let values = try f.optionalArray("results", of: "results (objects with \"_class\")") else { return [] }
        var results: [ResearchKitResult] = []
        results.reserveCapacity(values.count)
        for (i, v) in values.enumerated() {
            results.append(try decodeResult(v, at: f.path.key("results").index(i), f.context))
        }
        return results
    }

    /// Decodes every element of the array `key` with `decode` (absent = empty).
    static func decodeArray<T>(
        _ f: ResearchKitFields, _ key: String, of what: String, expectedClass: String,
        _ decode: (ResearchKitFields) throws(InputError) -> T
    ) throws(InputError) -> [T] {
        guard let values = try f.optionalArray(key, of: what) else { return [] }
        var out: [T] = []
        out.reserveCapacity(values.count)
        for (i, v) in values.enumerated() {
            out.append(
                try decode(try f.context.positional(v, at: f.path.key(key).index(i), expectedClass: expectedClass)))
        }
        return out
    }
}
