import ActiveTasks
import Foundation
import StudyInputs
import StudyOutputs

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

/// The batch side of the analysis: from a record's path to its rendered results, through the
/// ``AnalysisRegistry`` (the one `TaskKind → analysis` dispatch).
public enum RecordAnalysis {
    /// Options for loading and analysing records (the same value `taskproc analyze` uses).
    public typealias Options = AnalysisOptions

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
        /// Set (in a batch) when the record failed and is not data at all (``DataLikeness/notDataReason(path:)``):
        /// why it is skipped instead of failed.
        public var notData: String?
        /// Every problem the loader reported (errors and warnings).
        public var problems: [InputProblem] = []
        /// Join keys found in the record.
        public var keys: RecordKeys = RecordKeys()
        /// Start and end of each ResearchKit step the record holds (for the export formats), by step identifier.
        public var stepDates: [String: ExportContext.StepDates] = [:]
        /// The record's export, when one was asked for and the record has results.
        public var export: BatchExport.Outcome?
        /// When the task run started: the ResearchKit task result's `startDate`, else its earliest step's; nil when
        /// the record carries no date (a bare recorder log or CSV).
        public var startTime: ResultDate?
        /// When the task run ended: the task result's `endDate`, else its latest step's; nil when unknown.
        public var endTime: ResultDate?
        /// The ResearchKit task identifier (`walk`, `survey`, …), when the record holds a task result.
        public var taskIdentifier: String?
        /// The per-event tables of the results (walking's `steps`), by table name, rows in result order.
        public var detailTables: [DetailTable] = []
    }

    /// What a batch exports of each record, and the name its on-disk location takes in the outputs.
    struct Exporting {
        /// Format, MORK configuration and export time.
        var settings: BatchExport.Settings
        /// The record's source name (its location is renamed to it in the export).
        var source: String
    }

    /// Loads the record at `path` (a file or folder) and analyses it.
    /// - Parameters:
    ///   - path: The record's location.
    ///   - options: Loading and analysis options.
    /// - Returns: The outcome; never throws: every failure is the outcome's ``Outcome/failure``.
    public static func analyze(recordAt path: String, options: Options = Options()) -> Outcome {
        analyze(recordAt: path, options: options, exporting: nil)
    }

    /// Loads and analyses a record and, with `exporting`, exports its results.
    static func analyze(recordAt path: String, options: Options, exporting: Exporting?) -> Outcome {
        var loading = options.loader
        loading.readsAudioHeaders = false  // the audio analysis opens the recording itself: read it once
        let input: LoadedInput
        do throws(InputError) {
            input = try AnalysisRegistry.load(path: path, options: loading)
        } catch {
            return Outcome(taskKind: .unknown, dialect: .unrecognised, failure: InputProblem(error).description)
        }
        return analyze(input, options: options, exporting: exporting)
    }

    /// Analyses a loaded record with the registered analysis of each kind it holds (a folder record, such as a
    /// MyDataHelps step folder, gives the results of every input in it).
    /// - Returns: The outcome; a record with nothing to analyse fails with a reason naming what is missing.
    public static func analyze(_ input: LoadedInput, options: Options = Options()) -> Outcome {
        analyze(input, options: options, exporting: nil)
    }

    static func analyze(_ input: LoadedInput, options: Options, exporting: Exporting?) -> Outcome {
        var outcome = Outcome(taskKind: input.taskKind, dialect: input.dialect)
        outcome.problems = allProblems(input)
        outcome.keys = RecordKeys(input: input)
        let context = ExportContext(input: input)
        outcome.stepDates = context.steps
        outcome.startTime = context.start ?? context.steps.values.compactMap(\.start).min()
        outcome.endTime = context.end ?? context.steps.values.compactMap { $0.end ?? $0.start }.max()
        outcome.taskIdentifier = context.taskIdentifier
        let analyses = AnalysisRegistry.analyze(input, options: options)
        var failures: [String] = []
        var typed: [AnalysedResult] = []
        do {
            for analysis in analyses {
                typed += analysis.results
                let answers = taskAnswers(analysis.results)
                outcome.results += try analysis.results.map { analysed in
                    var rendered = try RenderedResult(kind: analysed.kind.rawValue, result: analysed.result)
                    let analysis = AnalysisRegistry.analysis(for: analysed.kind)
                    let flags = analysis?.qualityFlags(ofAny: analysed.result).cells ?? QualityFlags().cells
                    for table in analysis?.detailTables(ofAny: analysed.result) ?? [] {
                        if let i = outcome.detailTables.firstIndex(where: { $0.name == table.name }) {
                            outcome.detailTables[i].rows += table.rows
                        } else {
                            outcome.detailTables.append(table)
                        }
                    }
                    rendered.csvHeader += QualityFlags.columns
                    for i in rendered.csvRows.indices { rendered.csvRows[i] += flags }
                    if analysis?.exportShape != .answers {
                        rendered.csvHeader.append(taskAnswersColumn)
                        for i in rendered.csvRows.indices { rendered.csvRows[i].append(answers) }
                    }
                    return rendered
                }
                if let failure = analysis.failure, analysis.dialect != .folder { failures.append(failure) }
            }
        } catch {
            outcome.results = []
            failures = ["analysis failed: \(error)"]
        }
        if !outcome.results.isEmpty, let exporting {
            let rename = PathRename(from: input.path, to: exporting.source)
            outcome.export = BatchExport.export(
                typed, context: context, keys: outcome.keys, rename: rename, settings: exporting.settings)
        }
        if outcome.results.isEmpty {
            outcome.failure = failures.isEmpty ? "nothing to analyse" : Array(Set(failures)).sorted().joined(separator: "; ")
        }
        return outcome
    }

    /// The last column of every batch CSV but `survey.csv`: the answers of the same task result, so that a study
    /// can stratify active-task rows by them (mPower's medication timing beside each walking row).
    public static let taskAnswersColumn = "taskAnswers"

    /// The answers of the survey results among `results` as one compact JSON object
    /// `{"<questionIdentifier>": "<value>", …}` (answers with a value only; secrets are never there; a question
    /// answered twice keeps the later answer); empty when there are none.
    static func taskAnswers(_ results: [AnalysedResult]) -> String {
        var entries: [(key: String, value: JSONValue)] = []
        for case let survey as SurveyResult in results.map(\.result) {
            for answer in survey.answers where answer.withheld == nil {
                guard let value = answer.value else { continue }
                entries.removeAll { $0.key == answer.questionIdentifier }
                entries.append((answer.questionIdentifier, .string(value)))
            }
        }
        guard !entries.isEmpty, let text = try? ResultEncoding.compactJSON(JSONValue.object(JSONObject(entries))) else {
            return ""
        }
        return text
    }

    /// Problems of an input and its children, in order.
    static func allProblems(_ input: LoadedInput) -> [InputProblem] {
        input.problems + input.children.flatMap(allProblems)
    }
}
