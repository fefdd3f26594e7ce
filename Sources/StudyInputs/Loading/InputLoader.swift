import Archives
import Foundation
import SensorSignal
import Synchronization

/// Recognises what a path holds and loads it into a ``LoadedInput``, whatever the dialect.
///
/// Files are recognised by name first (mPower column files, MyDataHelps `SurveyData/…` paths, audio
/// extensions), then by content (a JSON object with `_class` is a ResearchKit result, `{"items":…}` or a
/// bare array of samples is a recorder log, `TapTimeStamp` items are mPower taps; a CSV by its header).
/// A folder holding a ResearchKit task result is loaded as one task, its recorder files matched by the
/// `fileName` of each `ORKFileResult` anywhere under the folder; any other folder is loaded file by file.
/// A bad part never stops the rest: it becomes an error in ``LoadedInput/problems``.
public enum InputLoader {
    /// Options for loading.
    public struct Options: Sendable, Hashable, Codable {
        /// How generic accelerometer CSV files are read (columns, units).
        public var accelerometerCSV = AccelerometerCSVReader.Options()
        /// Timestamp hygiene rules for motion logs.
        public var hygiene = TimeSeriesHygieneOptions()
        /// Whether audio headers are read while loading (`inspect`); the analyses open the recording themselves,
        /// so `analyze` and `batch` skip this to read each file once.
        public var readsAudioHeaders = true
        /// Most bytes one gzip file may decompress to, bytes; a larger one fails with "decompressed size exceeds
        /// the limit". The same limit as a ZIP entry's (batch `--max-entry-bytes`); default 512 MiB.
        public var maxDecompressedBytes: Int64 = ArchiveLimits.defaultMaxEntryBytes
        /// Most bytes of one JSON or CSV input read into memory and parsed (after gunzip), bytes; nil for
        /// ``InputLimits/maximumParsedBytes`` (24 MiB). `--max-input-bytes`.
        public var maxParsedBytes: Int64?
        /// Most samples of one motion log; nil for ``InputLimits/maximumSamplesPerLog`` (1 000 000).
        /// `--max-samples`.
        public var maxSamplesPerLog: Int?
        /// Rows of participants this policy excludes are not read from tables that hold many participants
        /// (MyDataHelps result tables, MyDataHelps API answers): batch sets it to the run's consent policy, whose
        /// decisions otherwise apply to whole records. The rows are only counted, in a warning. Nil: every row.
        public var participantConsent: ConsentPolicy?
        /// Creates default options.
        public init() {}
    }

    /// Loads a file or folder.
    /// - Parameters:
    ///   - path: The file or folder.
    ///   - options: How to read it.
    ///   - recognition: What the task kinds declare about how they are found in a ResearchKit result (the analysis
    ///     registry's `AnalysisRegistry.recognition`; `AnalysisRegistry.load(path:options:)` passes it).
    /// - Throws: ``InputError`` only when the path itself is unusable (missing, unreadable); problems
    ///   inside an input are reported in the result instead.
    public static func load(
        path: String, options: Options = Options(), recognition: KindRecognition
    ) throws(InputError) -> LoadedInput {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(.unreadable, file: path, message: "no such file or folder")
        }
        try InputFiles.requireRegularOrFolder(path)
        let parsed = options.maxParsedBytes ?? InputLimits.maximumParsedBytes
        let samples = options.maxSamplesPerLog ?? InputLimits.maximumSamplesPerLog
        return KindRecognition.$current.withValue(recognition) {
            DialectFiles.$decompressedLimit.withValue(options.maxDecompressedBytes) {
                DialectFiles.$parsedLimit.withValue(parsed) {
                    InputLimits.$samplesPerLog.withValue(samples) {
                        isDirectory.boolValue ? loadFolder(path, options: options) : loadFile(path, options: options)
                    }
                }
            }
        }
    }

    /// Why the file `path` is refused before a byte of it is read: it is not a regular file (a device, FIFO or
    /// socket), or it is read whole into memory (JSON, CSV, recorder logs, mPower and MyDataHelps files), is not
    /// gzip, and `stat` gives it more bytes than the parse limit. nil when it may be read. Batch asks before it
    /// hashes a record, so a 3 GB sparse `y.csv` costs one `stat`, not a 3 GB read.
    public static func refusal(beforeReading path: String, options: Options = Options()) -> InputError? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }  // missing: the read says so
        if let type = FileBytes.fileType(mode: st.st_mode), type != "a directory" {
            return InputError(.unsupported, file: path, message: InputFiles.notRegularMessage(type))
        }
        let parsed = options.maxParsedBytes ?? InputLimits.maximumParsedBytes
        guard (st.st_mode & S_IFMT) == S_IFREG, Int64(st.st_size) > parsed else { return nil }
        switch InputRecognizer.recognizeFile(path) {
        case .audio, .zipArchive, .skipped, .myDataHelpsJoinTable: return nil
        case .table, .json, .mPower, .myDataHelpsMotion: break
        }
        var head = [UInt8](repeating: 0, count: 2)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 2) }
        close(fd)
        if n == 2 && head[0] == 0x1F && head[1] == 0x8B { return nil }  // gzip: the decompressed size counts
        return InputError(
            .unsupported, file: path, message: InputLimits.parsedBytesMessage(size: Int(clamping: st.st_size)))
    }

    // MARK: Files

    /// Loads one file, as ``InputRecognizer/recognizeFile(_:)`` classifies it; every failure is recorded as a
    /// problem.
    static func loadFile(_ path: String, options: Options) -> LoadedInput {
        var input = loadFileContents(path, options: options)
        KindRecognition.current.classify(&input)
        return input
    }

    /// The motion recordings of a task folder that nothing else analyses (no kind claimed the task) follow their step
    /// identifiers' words: a step with a walking word (`walk.custom`, ``MotionTask/isWalkingStep(_:)``) is recorder
    /// data of its own (``InputContent/recorderData``, a walk); any other step whose name says no task (`tecumseh`,
    /// `myCustomStep`) is ``MotionTask/other``, summarised as a motion signal with a warning — never "nothing to
    /// analyse". A task some kind claimed is left as it is (a tapping task's accelerometer is not a walk).
    /// - Returns: True when a recording was given a task or the input new content (classify it again).
    static func assignCustomMotionSteps(_ input: inout LoadedInput) -> Bool {
        guard input.kinds.isEmpty else { return false }
        var walking = false
        var other: [String] = []
        for i in input.recordings.indices {
            let recording = input.recordings[i]
            switch recording.data {
            case .accelerometer, .deviceMotion: break
            default: continue
            }
            guard recording.motionTask == nil, let step = recording.stepIdentifier else { continue }
            if MotionTask.isWalkingStep(step) {
                walking = true
            } else {
                input.recordings[i].assignedMotionTask = .other
                if !other.contains(step) { other.append(step) }
            }
        }
        if walking { input.content.insert(.recorderData) }
        if !other.isEmpty {
            input.problems.append(
                InputProblem(
                    .warning, file: input.researchKit?.file ?? input.path,
                    message: "motion step" + (other.count == 1 ? " " : "s ") + other.joined(separator: ", ")
                        + " name" + (other.count == 1 ? "s" : "") + " no task taskproc knows: summarised as "
                        + "motion signals, not analysed for steps (a step identifier with the word walk is a walk)"))
        }
        return walking || !other.isEmpty
    }

    /// Loads one file by its recognised kind (``loadFile(_:options:)`` adds the motion-task kinds).
    static func loadFileContents(_ path: String, options: Options) -> LoadedInput {
        switch InputRecognizer.recognizeFile(path) {
        case .audio: return loadAudio(path, options: options)
        case .myDataHelpsJoinTable:
            var input = LoadedInput(path: path, dialect: .myDataHelps)
            input.problems.append(
                InputProblem(
                    .warning, file: path,
                    message:
                        "\((path as NSString).lastPathComponent) is an index table of a MyDataHelps export: it is "
                        + "read beside the result tables that refer to it (SurveyQuestionResults, "
                        + "SurveyConsentSignatureResults), not analysed on its own"))
            return input
        case .skipped(let ext):
            var input = LoadedInput(path: path, dialect: .unrecognised)
            input.problems.append(
                InputProblem(.warning, file: path, message: "not an input taskproc reads (.\(ext)); skipped"))
            return input
        case .myDataHelpsMotion(let mdh):
            var input = LoadedInput(path: path, dialect: .myDataHelps, content: .recorderData)
            do throws(InputError) {
                let decoded = try mdh.decode()
                if let loaded = recording(
                    decoded, file: path, step: mdh.stepIdentifier, recorder: nil, options: options, into: &input)
                {
                    input.recordings.append(loaded)
                }
            } catch {
                input.problems.append(InputProblem(error))
            }
            return input
        case .mPower(let name): return loadMPower(path, name, options: options)
        case .table: return loadCSV(path, options: options)
        case .zipArchive: return loadArchive(path, options: options)
        case .json: return loadJSON(path, options: options)
        }
    }

    static func loadAudio(_ path: String, options: Options) -> LoadedInput {
        var input = LoadedInput(path: path, dialect: .audio, content: .audioRecording)
        input.audioFile = path
        guard options.readsAudioHeaders else { return input }
        do {
            input.audio = try AudioFileReader(path: path).info
        } catch {
            input.problems.append(InputProblem(.error, file: path, message: error.description.dropPrefix(path + ": ")))
        }
        return input
    }

    static func loadMPower(_ path: String, _ name: MPowerFileName, options: Options) -> LoadedInput {
        switch name.content {
        case .tappingSamples:
            var input = LoadedInput(path: path, dialect: .mPower, content: .tapSamples)
            do throws(InputError) {
                var recording = try MPowerTappingReader.read(path: path)
                if recording.stepIdentifier == nil {
                    recording.stepIdentifier = name.hand.map { "tapping.\($0.rawValue)" } ?? "tapping"
                }
                input.tapping.append(recording)
            } catch {
                input.problems.append(InputProblem(error))
            }
            return input
        case .recorder(let kind):
            var input = LoadedInput(
                path: path, dialect: .mPower, content: name.isTappingActivity ? .tapSamples : .recorderData)
            let step = name.phase.map { "walking.\($0.rawValue)" }
            do throws(InputError) {
                let decoded = try RecorderLogDecoder.decode(path: path, kind: kind)
                if let loaded = recording(
                    decoded, file: path, step: step, recorder: nil, options: options, into: &input)
                {
                    input.recordings.append(loaded)
                }
            } catch {
                input.problems.append(InputProblem(error))
            }
            return input
        }
    }

    /// Loads a table; `crop`, for an accelerometer table, keeps part of its samples (a phyphox export's runs) and
    /// says how many it dropped.
    static func loadCSV(
        _ path: String, options: Options, crop: ((AccelerometerLog) -> (AccelerometerLog, dropped: Int))? = nil
    ) -> LoadedInput {
        // The file is read once: its first record decides the dialect, and the reader decodes the same bytes.
        let data: Data
        do throws(InputError) { data = try DialectFiles.read(path: path) } catch {
            var input = LoadedInput(path: path, dialect: .accelerometerCSV, content: .recorderData)
            input.problems.append(InputProblem(error))
            return input
        }
        // A header-less numeric CSV (e.g. the Oxford files) has numbers here: it is a generic accelerometer CSV.
        switch InputRecognizer.recognizeTable(header: firstRecord(of: data, file: path)) {
        case .myDataHelpsTapping:
            var input = LoadedInput(path: path, dialect: .myDataHelps, content: .tapSamples)
            input.tapping = rows(into: &input, consent: options.participantConsent) { () throws(InputError) in
                try MyDataHelpsTappingResults.read(path: path)
            }
            return input
        case .myDataHelpsQuestions:
            return loadSurveys(path, options: options) { () throws(InputError) in
                try MyDataHelpsSurveys.readQuestions(path: path)
            }
        case .myDataHelpsConsents:
            return loadSurveys(path, options: options) { () throws(InputError) in
                try MyDataHelpsSurveys.readConsents(path: path)
            }
        case .myDataHelpsToneAudiometry:
            var input = LoadedInput(path: path, dialect: .myDataHelps, content: .toneAudiometryRows)
            input.toneAudiometry = rows(into: &input, consent: options.participantConsent) { () throws(InputError) in
                try MyDataHelpsToneAudiometryResults.read(path: path)
            }
            return input
        case .mhealthtoolsTaps:
            var input = LoadedInput(path: path, dialect: .mhealthtools, content: .tapSamples)
            do throws(InputError) { input.tapping.append(try MHealthToolsTapTable.decode(data, file: path)) } catch {
                input.problems.append(InputProblem(error))
            }
            return input
        case .mhealthtoolsDeviceMotion:
            var input = LoadedInput(path: path, dialect: .mhealthtools, content: .recorderData)
            do throws(InputError) {
                let log = try MHealthToolsDeviceMotionTable.decode(data, file: path)
                try checkSampleCount(log.timestamp.count, file: path)
                let cleaned = log.cleaned(options: options.hygiene)
                input.recordings.append(
                    LoadedRecording(
                        file: path, stepIdentifier: nil, recorderIdentifier: nil, data: .deviceMotion(cleaned),
                        ignoredKeys: []))
                addRepairs(cleaned.report, file: path, into: &input)
            } catch {
                input.problems.append(InputProblem(error))
            }
            return input
        case .accelerometer: break
        }
        var input = LoadedInput(path: path, dialect: .accelerometerCSV, content: .recorderData)
        do throws(InputError) {
            let output = try AccelerometerCSVReader.decode(
                data, file: path, options: options.accelerometerCSV)
            input.table = output.reading
            for note in output.notes { input.problems.append(InputProblem(.warning, file: path, message: note)) }
            var log = output.log
            if let crop {
                let (kept, dropped) = crop(log)
                if dropped > 0 {
                    log = kept
                    input.table?.droppedSamples = dropped
                    input.problems.append(
                        InputProblem(
                            .warning, file: path,
                            message: "\(dropped) sample(s) outside the START…PAUSE runs of meta/time.csv dropped"))
                }
            }
            try checkSampleCount(log.timestamp.count, file: path)
            let cleaned = log.cleaned(options: options.hygiene)
            input.recordings.append(
                LoadedRecording(
                    file: path, stepIdentifier: nil, recorderIdentifier: nil, data: .accelerometer(cleaned),
                    ignoredKeys: []))
            addRepairs(cleaned.report, file: path, into: &input)
        } catch {
            input.problems.append(InputProblem(error))
        }
        return input
    }

    /// The cells of a CSV's first record, parsed from that record alone (a quoted line break is followed); empty
    /// when it cannot be parsed.
    static func firstRecord(of data: Data, file: String) -> [String] {
        let end: Int? = data.withUnsafeBytes { raw in
            var quoted = false
            for i in 0..<raw.count {
                if raw[i] == 0x22 { quoted.toggle() } else if raw[i] == 0x0A && !quoted { return i + 1 }
            }
            return nil
        }
        let record = end.map { data.prefix($0) } ?? data
        guard let table = try? CSVTable.parse(Data(record), file: file, header: .present) else { return [] }
        return (0..<table.columnCount).map { table.columnName($0) }
    }

    /// The good rows of a MyDataHelps CSV; each bad row, or a file-level failure, becomes an error problem.
    static func rows<Value>(
        into input: inout LoadedInput, consent: ConsentPolicy? = nil,
        _ read: () throws(InputError) -> [MyDataHelpsRow<Value>]
    ) -> [Value] {
        var values: [Value] = []
        do throws(InputError) {
            for row in consented(try read(), consent, into: &input) {
                do throws(InputError) { values.append(try row.get()) } catch {
                    input.problems.append(InputProblem(error))
                }
            }
        } catch {
            input.problems.append(InputProblem(error))
        }
        return values
    }

    /// The rows whose participant `consent` does not exclude; the excluded ones are counted in a warning (counts
    /// only: nothing of them is kept).
    static func consented<Value>(
        _ rows: [MyDataHelpsRow<Value>], _ consent: ConsentPolicy?, into input: inout LoadedInput
    ) -> [MyDataHelpsRow<Value>] {
        guard let consent, consent.minimumScope != nil || !consent.withdrawn.isEmpty else {
            return rows
        }
        var kept: [MyDataHelpsRow<Value>] = []
        var excluded: [ConsentPolicy.Exclusion: Int] = [:]
        var participants: Set<String> = []
        for row in rows {
            var keys = RecordKeys()
            keys.participantIdentifier = row.keys.participantIdentifier.isEmpty ? nil : row.keys.participantIdentifier
            if let why = consent.exclusion(keys: keys) {
                excluded[why, default: 0] += 1
                participants.insert(row.keys.participantIdentifier)
            } else {
                kept.append(row)
            }
        }
        if !excluded.isEmpty {
            let counts = ConsentPolicy.Exclusion.allCases.compactMap { e in excluded[e].map { "\($0) \(e.rawValue)" } }
            input.problems.append(
                InputProblem(
                    .warning, file: input.path,
                    message:
                        "consent policy: \(plural(excluded.values.reduce(0, +), "row")) of "
                        + "\(plural(participants.count, "participant")) not read (\(counts.joined(separator: ", ")))"))
        }
        return kept
    }

    /// `n thing` or `n things`.
    static func plural(_ n: Int, _ thing: String) -> String { "\(n) \(thing)\(n == 1 ? "" : "s")" }

    /// A MyDataHelps survey input (question or consent table, JSON export, API answers): its rows grouped into
    /// survey results; each failed row (and a file-level failure) becomes a problem, and the rows of participants
    /// ``Options/participantConsent`` excludes are only counted.
    static func loadSurveys(
        _ path: String, options: Options, _ read: () throws(InputError) -> [MyDataHelpsRow<MyDataHelpsSurveys.Row>]
    ) -> LoadedInput {
        var input = LoadedInput(path: path, dialect: .myDataHelps, content: .surveyAnswers)
        do throws(InputError) {
            let rows = consented(try read(), options.participantConsent, into: &input)
            for row in rows { if case .failure(let error) = row.result { input.problems.append(InputProblem(error)) } }
            input.surveys = MyDataHelpsSurveys.results(rows, source: path)
        } catch {
            input.problems.append(InputProblem(error))
        }
        return input
    }

    /// JSON files: ResearchKit results, recorder logs, mPower tapping; decided by content.
    static func loadJSON(_ path: String, options: Options) -> LoadedInput {
        let data: Data
        do throws(InputError) {
            data = try DialectFiles.read(path: path)
        } catch {
            var input = LoadedInput(path: path, dialect: .recorderLog)
            input.problems.append(InputProblem(error))
            return input
        }
        switch InputRecognizer.sniffJSON(data) {
        case .researchKit:
            var input = LoadedInput(path: path, dialect: .researchKitResult)
            do throws(InputError) {
                let document = try ResearchKitDecoder.decode(data, file: path)
                input.researchKit = document
                absorb(document, into: &input)
            } catch {
                input.problems.append(InputProblem(error))
                // An object with no `_class` anywhere is not a ResearchKit result that failed: say what it is.
                if !InputRecognizer.contains(data, "\"_class\"") { input.dialect = .unrecognised }
            }
            return input
        case .keyedArchive:
            var input = LoadedInput(path: path, dialect: .researchKitResult)
            do throws(InputError) {
                let document = try ResearchKitDecoder.decode(KeyedArchive.researchKitJSON(data, file: path), file: path)
                input.researchKit = document
                absorb(document, into: &input)
            } catch {
                input.problems.append(InputProblem(error))
            }
            return input
        case .myDataHelpsSurveyAnswers:
            return loadSurveys(path, options: options) { () throws(InputError) in
                try MyDataHelpsSurveys.decodeAPI(data, file: path)
            }
        case .myDataHelpsSurveyResults:
            return loadSurveys(path, options: options) { () throws(InputError) in
                try MyDataHelpsSurveys.decodeJSONExport(data, file: path)
            }
        case .mPowerTapping:
            var input = LoadedInput(path: path, dialect: .mPower, content: .tapSamples)
            do throws(InputError) { input.tapping.append(try MPowerTappingReader.decode(data, file: path)) } catch {
                input.problems.append(InputProblem(error))
            }
            return input
        case .recorderLog(let bare):
            var input = LoadedInput(path: path, dialect: bare ? .mPower : .recorderLog, content: .recorderData)
            do throws(InputError) {
                let decoded = try RecorderLogDecoder.decode(data, file: path, kind: recorderKind(fromFileName: path))
                if let loaded = recording(decoded, file: path, step: nil, recorder: nil, options: options, into: &input)
                {
                    input.recordings.append(loaded)
                }
            } catch {
                input.problems.append(InputProblem(error))
                // A bare array that is no recorder log is not an mPower file either (the audiometry simulator's
                // listener file, a peer tool's output): unrecognised.
                if bare { input.dialect = .unrecognised }
            }
            return input
        case .notJSON(let error):
            var input = LoadedInput(path: path, dialect: .unrecognised)
            input.problems.append(InputProblem(error(path)))
            return input
        }
    }

    /// The recorder kind implied by a ResearchKit/MyDataHelps file name prefix, if any.
    static func recorderKind(fromFileName path: String) -> RecorderKind? {
        let name = (path as NSString).lastPathComponent.lowercased()
        if name.hasPrefix("accel") { return .accelerometer }
        if name.hasPrefix("devicemotion") { return .deviceMotion }
        if name.hasPrefix("pedometer") { return .pedometer }
        if name.hasPrefix("location") { return .location }
        if name.hasPrefix("touch") { return .touch }
        if name.hasPrefix("hkquantitytypeidentifier") { return .healthQuantity }
        return nil
    }

    /// The recorder kind implied by a ResearchKit recorder configuration identifier.
    static func recorderKind(fromIdentifier identifier: String) -> RecorderKind? {
        switch identifier {
        case "accelerometer": .accelerometer
        case "deviceMotion": .deviceMotion
        case "pedometer": .pedometer
        case "location": .location
        case "touch": .touch
        case "heartRate": .healthQuantity
        default: identifier.hasPrefix("HKQuantityTypeIdentifier") ? .healthQuantity : nil
        }
    }

    /// Throws when a motion log holds more than ``InputLimits/maximumSamplesPerLog`` samples.
    static func checkSampleCount(_ count: Int, file: String) throws(InputError) {
        guard count <= InputLimits.samplesPerLog else {
            throw InputError(.unsupported, file: file, message: InputLimits.samplesMessage(count))
        }
    }

    /// False (with the error in `input.problems`) when a motion log holds too many samples.
    static func sampleCountIsBounded(_ count: Int, file: String, into input: inout LoadedInput) -> Bool {
        guard count <= InputLimits.samplesPerLog else {
            input.problems.append(InputProblem(.error, file: file, message: InputLimits.samplesMessage(count)))
            return false
        }
        return true
    }

    /// Wraps a decoded log: motion logs get hygiene (repairs reported), item logs their typed decoding.
    static func recording(
        _ decoded: RecorderLogDecoder.Decoded, file: String, step: String?, recorder: String?, options: Options,
        into input: inout LoadedInput
    ) -> LoadedRecording? {
        let itemsPath = decoded.container == .bareArray ? "$" : "$.items"
        if decoded.nonFiniteLiterals > 0 {
            let what =
                decoded.droppedItems > 0
                ? "the \(decoded.droppedItems) sample(s) holding them dropped" : "read as missing values (null)"
            input.problems.append(
                InputProblem(
                    .warning, file: file, location: itemsPath,
                    message: "\(decoded.nonFiniteLiterals) NaN/Infinity literal(s), which JSON does not allow "
                        + "(Python's json and pandas write them): \(what)"))
        }
        var data: RecordingData?
        switch decoded.log {
        case .accelerometer(let log):
            guard sampleCountIsBounded(log.timestamp.count, file: file, into: &input) else { return nil }
            let cleaned = log.cleaned(options: options.hygiene)
            addRepairs(cleaned.report, file: file, into: &input)
            data = .accelerometer(cleaned)
        case .deviceMotion(let log):
            guard sampleCountIsBounded(log.timestamp.count, file: file, into: &input) else { return nil }
            let cleaned = log.cleaned(options: options.hygiene)
            addRepairs(cleaned.report, file: file, into: &input)
            data = .deviceMotion(cleaned)
        case .items(let kind, let items):
            do throws(InputError) {
                switch kind {
                case .pedometer:
                    let log = try PedometerLog(items: items, file: file, itemsPath: itemsPath)
                    addIssues(log.issues, file: file, into: &input)
                    data = .pedometer(log)
                case .location:
                    let log = try LocationLog(items: items, file: file, itemsPath: itemsPath)
                    addIssues(log.issues, file: file, into: &input)
                    data = .location(log)
                case .touch:
                    let log = try TouchLog(items: items, file: file, itemsPath: itemsPath)
                    addIssues(log.issues, file: file, into: &input)
                    data = .touch(log)
                case .healthQuantity:
                    let log = try HealthQuantityLog(items: items, file: file, itemsPath: itemsPath)
                    addIssues(log.issues, file: file, into: &input)
                    data = .healthQuantity(log)
                case .accelerometer, .deviceMotion:
                    data = nil
                }
            } catch {
                input.problems.append(InputProblem(error))
            }
        }
        // A failed item decode is already recorded as an error; the recording is then absent.
        guard let data else { return nil }
        return LoadedRecording(
            file: file, stepIdentifier: step, recorderIdentifier: recorder, data: data, ignoredKeys: decoded.ignoredKeys
        )
    }

    /// Every oddity an item-log decoder found (cumulative decreases, times going backwards, …) becomes a warning.
    static func addIssues(_ issues: [RecorderItemIssue], file: String, into input: inout LoadedInput) {
        for issue in issues {
            input.problems.append(InputProblem(.warning, file: file, location: issue.location, message: issue.message))
        }
    }

    /// Every repair and warning of a hygiene report becomes a warning problem.
    static func addRepairs(_ report: QualityReport, file: String, into input: inout LoadedInput) {
        for repair in report.repairs {
            input.problems.append(InputProblem(.warning, file: file, message: "repaired: " + repair))
        }
        for warning in report.warnings { input.problems.append(InputProblem(.warning, file: file, message: warning)) }
    }

    /// Takes the typed results out of a ResearchKit document: its warnings and tapping recordings; a task result whose
    /// steps several kinds claim (``KindRecognition/isMixed(_:)``) is said to be mixed, in a warning.
    static func absorb(_ document: ResearchKitDocument, into input: inout LoadedInput) {
        for warning in document.warnings {
            input.problems.append(
                InputProblem(.warning, file: document.file, location: warning.path, message: warning.message))
        }
        guard let root = document.result else { return }
        for item in root.tappingResults {
            var recording = item.result.recording
            if recording.stepIdentifier == nil { recording.stepIdentifier = item.stepIdentifier }
            input.tapping.append(recording)
        }
        let recognition = KindRecognition.current
        let kinds = recognition.kinds(of: input)
        if recognition.isMixed(kinds) {
            input.problems.append(
                InputProblem(
                    .warning, file: document.file,
                    message: "the task result holds " + kinds.map(\.rawValue).joined(separator: ", ")
                        + " steps; each is analysed"))
        }
    }

    // MARK: Folders

    /// Folders that ``loadArchive(_:options:)`` extracted into; removed by ``removeExtractedArchives()``.
    private static let extractedFolders = Mutex<[String]>([])

    /// Loads a ZIP archive: its entries are extracted (with batch's archive limits: zip-slip, links, sizes,
    /// compression ratio, CRC) into a temporary folder that is loaded like any folder. Rejected entries become
    /// errors. The folder stays until ``removeExtractedArchives()`` (audio is decoded from it at analysis).
    static func loadArchive(_ path: String, options: Options) -> LoadedInput {
        let folder = temporaryFolder(prefix: "taskproc-archive")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            var input = LoadedInput(path: path, dialect: .folder)
            input.problems.append(
                InputProblem(
                    .error, file: path, message: "cannot create a folder to extract into: \(error.localizedDescription)"
                ))
            return input
        }
        let extraction: ZipArchive.Extraction
        do throws(ArchiveError) {
            extraction = try ZipArchive.extract(path, into: folder, limits: ArchiveLimits())
        } catch {
            var input = LoadedInput(path: path, dialect: .folder)
            input.problems.append(InputProblem(.error, file: path, message: error.message))
            return input
        }
        var input = loadFolder(folder, options: options)
        for rejected in extraction.rejected {
            input.problems.append(
                InputProblem(.error, file: path + "!/" + rejected.entry, message: "archive entry " + rejected.reason))
        }
        input.path = path
        input.extractedInto = folder
        return input
    }

    /// A new temporary folder path (not created) that ``removeExtractedArchives()`` removes.
    static func temporaryFolder(prefix: String) -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        extractedFolders.withLock { $0.append(folder) }
        return folder
    }

    /// Removes the folders archives (and standard input) were saved into (call when the analysis is done).
    public static func removeExtractedArchives() {
        let folders = extractedFolders.withLock { folders in
            defer { folders.removeAll() }
            return folders
        }
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Loads a folder by batch's record-folder rule (``InputRecognizer/isRecordFolder(_:names:)``), so that `analyze`
    /// and batch cut a tree into the same records: a record folder is loaded as one record
    /// (``loadRecordFolder(_:options:)``); any other folder is expanded into its inputs — each file on its own, each
    /// sub-folder by the same rule (``InputRecognizer/records(under:)``).
    static func loadFolder(_ path: String, options: Options) -> LoadedInput {
        let (root, _) = InputRecognizer.absolute(path)
        if InputRecognizer.isRecordFolder(root, names: FileTree.sortedNames(root)) {
            return loadRecordFolder(path, options: options)
        }
        let found = InputRecognizer.records(under: root)
        var input = LoadedInput(path: path, dialect: .folder)
        if found.looseTaskResults > 1 {
            input.problems.append(
                InputProblem(
                    .warning, file: path,
                    message: "\(found.looseTaskResults) task results in one folder; each file is loaded on its own"))
        }
        if found.inputs.isEmpty {
            input.problems.append(InputProblem(.error, file: path, message: "folder holds no files"))
        }
        for item in found.inputs {
            input.children.append(
                item.isFolder ? loadRecordFolder(item.path, options: options) : loadFile(item.path, options: options))
        }
        let kinds = Set(input.children.map(\.taskKind)).subtracting([.unknown])
        input.taskKind = kinds.count == 1 ? kinds.first ?? .unknown : .unknown
        // A folder's results are its children's: the folder itself is not analysed.
        input.kinds = []
        addLinkProblems(found.links, into: &input)
        return input
    }

    /// Loads a record folder: one task (``InputRecognizer/FolderKind/taskFolder(taskFile:document:)``) or
    /// independent inputs, each loaded on its own as a child.
    static func loadRecordFolder(_ path: String, options: Options) -> LoadedInput {
        let (files, links) = InputRecognizer.walk(path)
        var input: LoadedInput
        let kind = InputRecognizer.recognizeFolder(path, files: files)
        switch kind {
        case .taskFolder(let taskFile, let document):
            input = loadTaskFolder(path, taskFile: taskFile, document: document, files: files, options: options)
        case .phyphox(let export):
            input = loadPhyphox(path, export: export, options: options)
        case .myDataHelpsStep, .independent:
            input = LoadedInput(path: path, dialect: .folder)
            if case .independent(let count) = kind, count > 1 {
                input.problems.append(
                    InputProblem(
                        .warning, file: path,
                        message: "\(count) task results in one folder; each file is loaded on its own"))
            }
            if files.isEmpty {
                input.problems.append(InputProblem(.error, file: path, message: "folder holds no files"))
            }
            for file in files { input.children.append(loadFile(file, options: options)) }
            let kinds = Set(input.children.map(\.taskKind)).subtracting([.unknown])
            input.taskKind = kinds.count == 1 ? kinds.first! : .unknown
            // A folder's results are its children's: the folder itself is not analysed.
            input.kinds = []
        }
        addLinkProblems(links, into: &input)
        return input
    }

    /// Loads a phyphox export folder as one record.
    ///
    /// Each data table is read as an accelerometer table, its samples kept inside the `START`…`PAUSE` runs of
    /// `meta/time.csv`, with the export's app, device and start time in its ``LoadedInput/table`` reading. One
    /// table gives the record itself; several give a child each.
    static func loadPhyphox(_ path: String, export: PhyphoxExport, options: Options) -> LoadedInput {
        var metadata = PhyphoxExport.Metadata()
        var metaProblems: [InputProblem] = []
        do throws(InputError) { metadata = try export.metadata() } catch { metaProblems.append(InputProblem(error)) }
        var children: [LoadedInput] = []
        for file in export.dataFiles {
            var child = loadCSV(file, options: options) { log in
                // Half the mean sampling interval: a sample stamped just past PAUSE still belongs to the run.
                var slack = 0.0
                if let first = log.timestamp.first, let last = log.timestamp.last, log.timestamp.count > 1 {
                    slack = 0.5 * (last - first) / Double(log.timestamp.count - 1)
                }
                let kept = PhyphoxExport.kept(log.timestamp, segments: metadata.segments, slack: slack)
                guard kept.count < log.timestamp.count else { return (log, 0) }
                var cropped = log
                cropped.timestamp = kept.map { log.timestamp[$0] }
                cropped.timestampSince1970 = log.timestampSince1970.map { t in kept.map { t[$0] } }
                cropped.acceleration = Vector3Series(
                    x: kept.map { log.acceleration.x[$0] }, y: kept.map { log.acceleration.y[$0] },
                    z: kept.map { log.acceleration.z[$0] })
                return (cropped, log.timestamp.count - kept.count)
            }
            if child.dialect == .accelerometerCSV { child.dialect = .phyphox }
            KindRecognition.current.classify(&child)
            if var table = child.table {
                table.exportedBy = metadata.exportedBy
                table.startedAt = metadata.startedAt
                if !metadata.segments.isEmpty {
                    table.segments = metadata.segments.map {
                        TableReading.Segment(start: $0.lowerBound, end: $0.upperBound.isFinite ? $0.upperBound : nil)
                    }
                }
                child.table = table
            }
            children.append(child)
        }
        var input: LoadedInput
        if children.count == 1, let only = children.first {
            input = only
            input.path = path
        } else {
            // A folder of tables, each analysed on its own (and each labelled phyphox).
            input = LoadedInput(path: path, dialect: .folder)
            input.children = children
            let kinds = Set(children.map(\.taskKind)).subtracting([.unknown])
            input.taskKind = kinds.count == 1 ? kinds.first ?? .unknown : .unknown
            input.kinds = []
        }
        input.problems += metaProblems
        return input
    }

    /// A warning for each symbolic link (not followed) and an error for each dangling one.
    static func addLinkProblems(_ links: [String], into input: inout LoadedInput) {
        for link in links {
            if FileManager.default.fileExists(atPath: link) {
                input.problems.append(
                    InputProblem(.warning, file: link, message: "symbolic link not followed; skipped"))
            } else {
                // A link whose target is gone is a file that should be there and cannot be read: an error.
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) ?? "?"
                let message = "dangling symbolic link (its target \(target) does not exist)"
                input.problems.append(InputProblem(.error, file: link, message: message))
            }
        }
    }

    static func loadTaskFolder(
        _ path: String, taskFile: String, document: ResearchKitDocument, files: [String], options: Options
    ) -> LoadedInput {
        var input = LoadedInput(path: path, dialect: .researchKitTaskFolder)
        input.researchKit = document
        absorb(document, into: &input)
        // Index every file by name; ResearchKit file names are unique per recorder, so a clash is reported.
        var byName: [String: [String]] = [:]
        for file in files where file != taskFile {
            byName[(file as NSString).lastPathComponent, default: []].append(file)
        }
        var used: Set<String> = [taskFile]
        for item in (document.taskResult?.fileResults ?? []) + (document.result?.nestedFileResults ?? []) {
            let result = item.result
            let location = "step \(item.stepIdentifier), file result \(result.identifier)"
            guard let fileName = result.fileName, !fileName.isEmpty else {
                input.problems.append(
                    InputProblem(.warning, file: taskFile, location: location, message: "file result has no fileName"))
                continue
            }
            guard let matches = byName[fileName], let file = matches.first else {
                input.problems.append(
                    InputProblem(
                        .error, file: taskFile, location: location,
                        message: "recorder file \(fileName) is not in the folder (missing reference)"))
                continue
            }
            if matches.count > 1 {
                input.problems.append(
                    InputProblem(
                        .warning, file: taskFile, location: location,
                        message: "\(matches.count) files named \(fileName); using \(file)"))
            }
            used.insert(file)
            if InputRecognizer.recognizeFile(file) == .audio {
                let audio = loadAudio(file, options: options)
                input.audio = input.audio ?? audio.audio
                input.audioFile = input.audioFile ?? audio.audioFile
                input.problems += audio.problems
                continue
            }
            do throws(InputError) {
                let kind = recorderKind(fromIdentifier: result.identifier) ?? recorderKind(fromFileName: fileName)
                let decoded = try RecorderLogDecoder.decode(path: file, kind: kind)
                if let loaded = recording(
                    decoded, file: file, step: item.stepIdentifier, recorder: result.identifier, options: options,
                    into: &input)
                {
                    input.recordings.append(loaded)
                }
            } catch {
                input.problems.append(InputProblem(error))
            }
        }
        let recognition = KindRecognition.current
        recognition.classify(&input)
        if assignCustomMotionSteps(&input) { recognition.classify(&input) }
        // Files the task does not name: other results and recordings (a second ResearchKit result, audio, a table)
        // are inputs of their own and analysed as such; unnamed recorder logs and metadata belong to no analysis.
        for file in files where !used.contains(file) {
            if InputRecognizer.isStandaloneInput(file) {
                input.children.append(loadFile(file, options: options))
            } else {
                input.problems.append(
                    InputProblem(.warning, file: file, message: "not referenced by the task result; ignored"))
            }
        }
        return input
    }

}

extension String {
    /// The string without `prefix` if it starts with it.
    func dropPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
