import Foundation

/// One analysed result (usually one active step) rendered for every batch output.
public struct RenderedResult: Sendable, Hashable, Codable {
    /// The task kind it belongs to; names the CSV file and SQLite table (`walking`, `audio`, …).
    public var kind: String
    /// The result as compact JSON with sorted keys (lossless).
    public var json: String
    /// The processor's CSV header.
    public var csvHeader: [String]
    /// The processor's CSV rows for this result (usually one).
    public var csvRows: [[String]]

    /// Renders a processor result.
    /// - Throws: When the result cannot be encoded as JSON (e.g. a non-finite number the type does not handle).
    public init(kind: String, result: some RenderableResult) throws {
        self.kind = kind
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        json = String(decoding: try encoder.encode(result), as: UTF8.self)
        let table = result.csvTable
        csvHeader = table.header
        csvRows = table.rows
    }
}

/// The batch dispatcher: from a loaded record to its per-step results, whatever the task kind.
///
/// Wiring a new processor is one case in ``analyze(_:options:)``: call it and pass its `[RenderableResult]` to
/// `rendered(_:kind:)`. Walking, audio files, tapping, tone audiometry (dB HL and legacy) and SPL-meter results are
/// analysed; kinds with no processor yet (range of motion) fail with "analysis of <kind> not available".
public enum RecordAnalysis {
    /// Options for loading and analysing records.
    public struct Options: Sendable {
        /// How inputs are read (accelerometer CSV columns and units, hygiene).
        public var loader = InputLoader.Options()
        /// How audio files are decoded and summarised.
        public var audio = AudioAnalysisOptions()
        /// Which R implementation the tapping features reproduce.
        public var tappingVariant = TappingVariant.mhealthtools
        /// The x jump between two tapping depress events, points.
        public var depressThreshold: Double = 20
        /// How tone-audiometry results are analysed (ResearchKit release, staircase parameters).
        public var audiometry = AudiometryAnalysisOptions()
        /// Creates default options.
        public init() {}
    }

    /// What analysing one record gave.
    public struct Outcome: Sendable {
        /// The task kind the loader recognised.
        public var taskKind: TaskKind
        /// The dialect the loader recognised.
        public var dialect: InputDialect
        /// The results, in input order; empty when the record failed.
        public var results: [RenderedResult] = []
        /// Why the record gave no results; nil on success.
        public var failure: String?
        /// Every problem the loader reported (errors and warnings).
        public var problems: [InputProblem] = []
        /// Join keys found in the record.
        public var keys: RecordKeys = RecordKeys()
        /// Start and end of each ResearchKit step the record holds (for the export formats), by step identifier.
        public var stepDates: [String: ExportContext.StepDates] = [:]
    }

    /// Loads the record at `path` (a file or folder) and analyses it.
    /// - Parameters:
    ///   - path: The record's location.
    ///   - options: Loading and analysis options.
    /// - Returns: The outcome; never throws: every failure is the outcome's ``Outcome/failure``.
    public static func analyze(recordAt path: String, options: Options = Options()) -> Outcome {
        let input: LoadedInput
        do throws(InputError) {
            input = try InputLoader.load(path: path, options: options.loader)
        } catch {
            return Outcome(taskKind: .unknown, dialect: .unrecognised, failure: InputProblem(error).description)
        }
        return analyze(input, options: options)
    }

    /// Analyses a loaded record with the processor for its task kind.
    /// - Returns: The outcome; a record with nothing to analyse fails with a reason naming what is missing.
    public static func analyze(_ input: LoadedInput, options: Options = Options()) -> Outcome {
        var outcome = Outcome(taskKind: input.taskKind, dialect: input.dialect)
        outcome.problems = allProblems(input)
        outcome.keys = RecordKeys(input: input)
        outcome.stepDates = ExportContext(input: input).steps
        do {
            switch input.taskKind {
            case .walking:
                outcome.results = try rendered(WalkingProcessor.analyze(input), kind: .walking)
                if outcome.results.isEmpty {
                    outcome.failure = "no accelerometer or device-motion recording to analyse"
                }
            case .audio:
                if input.audio != nil {
                    let summary = try AudioFileAnalyzer.summarize(path: input.path, options: options.audio)
                    outcome.results = try rendered([summary], kind: .audio)
                }
            case .tapping:
                outcome.results = try rendered(
                    TappingProcessor.analyze(
                        input, variant: options.tappingVariant, depressThreshold: options.depressThreshold),
                    kind: .tapping)
                if outcome.results.isEmpty { outcome.failure = "no tapping recording to analyse" }
            case .dBHLToneAudiometry, .toneAudiometry:
                outcome.results = try rendered(
                    AudiometryProcessor.analyze(input, options: options.audiometry), kind: input.taskKind)
                if outcome.results.isEmpty { outcome.failure = "no tone-audiometry result to analyse" }
            case .environmentSPLMeter:
                outcome.results = try rendered(SPLMeterProcessor.analyze(input), kind: .environmentSPLMeter)
                if outcome.results.isEmpty {
                    outcome.failure = "no ORKEnvironmentSPLMeterResult to analyse (only a step configuration?)"
                }
            case .rangeOfMotion:
                outcome.failure = "analysis of \(input.taskKind.rawValue) not available"
            case .unknown:
                outcome.failure =
                    input.dialect == .unrecognised
                    ? "not an input taskproc reads" : "task kind not recognised (none or several kinds in one record)"
            }
        } catch {
            outcome.results = []
            outcome.failure = "analysis failed: \(error)"
        }
        let errors = outcome.problems.filter { $0.severity == .error }
        if outcome.results.isEmpty, !errors.isEmpty {
            // The reading errors explain a failure better than the kind does.
            outcome.failure =
                errors.prefix(3).map(\.description).joined(separator: "; ")
                + (errors.count > 3 ? "; and \(errors.count - 3) more" : "")
        }
        if outcome.results.isEmpty, outcome.failure == nil { outcome.failure = "nothing to analyse" }
        return outcome
    }

    /// Renders a processor's results under a task kind's name.
    static func rendered(_ results: [some RenderableResult], kind: TaskKind) throws -> [RenderedResult] {
        try results.map { try RenderedResult(kind: kind.rawValue, result: $0) }
    }

    /// Problems of an input and its children, in order.
    static func allProblems(_ input: LoadedInput) -> [InputProblem] {
        input.problems + input.children.flatMap(allProblems)
    }
}

/// Join keys of a record, carried into every output row so results can be joined to the study's tables.
public struct RecordKeys: Sendable, Hashable, Codable {
    /// Bridge/Synapse record identifier.
    public var recordId: String?
    /// Bridge/Synapse participant code.
    public var healthCode: String?
    /// MyDataHelps participant identifier.
    public var participantIdentifier: String?
    /// ResearchKit task run UUID.
    public var taskRunUUID: String?

    enum CodingKeys: String, CodingKey {
        case recordId, healthCode, participantIdentifier = "ParticipantIdentifier", taskRunUUID
    }

    /// Column names of the keys, in CSV order.
    public static let columns = ["recordId", "healthCode", "ParticipantIdentifier", "taskRunUUID"]

    /// The keys in ``columns`` order, blank when unknown.
    public var values: [String] { [recordId ?? "", healthCode ?? "", participantIdentifier ?? "", taskRunUUID ?? ""] }

    /// No keys.
    public init() {}

    /// Keys found in a loaded record: those of its path (see ``init(path:)``) and the ResearchKit task result's
    /// `taskRunUUID`.
    public init(input: LoadedInput) {
        self.init(path: input.path)
        if taskRunUUID == nil, let uuid = input.researchKit?.taskResult?.taskRunUUID { taskRunUUID = uuid.uuidString }
    }

    /// Keys a path names, without reading anything: `name=value` components (`recordId=…/`, `healthCode=…/`,
    /// `ParticipantIdentifier=…/`, `taskRunUUID=…/`, as in partitioned exports) and the participant folder of a
    /// MyDataHelps `SurveyData/<participant>/…` path.
    public init(path: String) {
        let parts = path.split(separator: "/").map(String.init)
        for part in parts {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let name = part[..<eq].lowercased()
            let value = String(part[part.index(after: eq)...])
            switch name {
            case "recordid": recordId = value
            case "healthcode": healthCode = value
            case "participantidentifier": participantIdentifier = value
            case "taskrunuuid": taskRunUUID = value
            default: break
            }
        }
        if participantIdentifier == nil, let root = parts.lastIndex(where: { $0.lowercased() == "surveydata" }),
            root + 1 < parts.count
        {
            participantIdentifier = parts[root + 1]
        }
    }
}
