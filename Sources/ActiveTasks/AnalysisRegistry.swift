import Foundation
import StudyInputs

/// One task kind's analysis: which kinds of input it takes and how it analyses them.
///
/// Every task kind is one conforming type in its own folder (`Walking/WalkingAnalysis.swift`, …) registered in
/// ``AnalysisRegistry/analyses``; `analyze`, batch, the report and the exports all go through the registry.
public protocol TaskAnalysis: Sendable {
    /// The result type: JSON, table and CSV renderings.
    associatedtype Result: RenderableResult & Sendable
    /// The task kinds this analysis handles (usually one).
    static var kinds: [TaskKind] { get }
    /// Which of ``kinds`` an input holds something to analyse of, read from what the loader found (the ResearchKit
    /// result, ``LoadedInput/content``, the recordings): how the kind is recognised. None by default (a scored kind
    /// is claimed by the classes and steps it declares).
    static func claims(_ input: LoadedInput) -> [TaskKind]
    /// Where ``kinds`` stand among the kinds of an input holding several (primary kind first);
    /// ``KindRecognition/Position/inOrder`` (the registry's order) by default.
    static var position: KindRecognition.Position { get }
    /// Those of ``kinds`` whose predefined task holds other kinds' steps by design (the dB HL task's SPL-meter step),
    /// so that an input holding them is not reported as mixing tasks; none by default.
    static var holdsOtherSteps: [TaskKind] { get }
    /// The question and consent answers this kind reads from an input (not its children), and nothing else: what a
    /// consent decision needs, without measuring anything. None by default.
    static func answers(_ input: LoadedInput) -> [SurveyResult]
    /// Why an input of these kinds gave no result, e.g. `no tapping recording to analyse`.
    static var nothingToAnalyse: String { get }
    /// Analyses what `input` (never a folder of independent inputs) holds of ``kinds``, in input order.
    /// - Throws: When the input cannot be analysed at all (an audio file that cannot be decoded, …).
    static func analyze(_ input: LoadedInput, options: AnalysisOptions) throws -> [Result]
    /// The `kind` values this analysis's results carry in their JSON (`walking`, `splMeter`, …); by default the
    /// raw values of ``kinds``.
    static var resultKinds: [String] { get }
    /// The coded measures (FHIR Observations) of one result, read from the typed result; what cannot be coded goes
    /// to `skipped` (one line each). None by default.
    static func exportMeasures(of result: Result, skipped: inout [String]) -> [ExportMeasure]
    /// The report's plots of one result (inline SVG and tables); none by default.
    static func reportPlots(_ result: JSONObject, readSources: Bool) -> String
    /// How the exporters write this kind's results: ``ExportShape/measures`` by default.
    static var exportShape: ExportShape { get }
    /// The report's headlines of a result: top-level keys with labels and units, in order; none by default.
    static var headlines: [ReportHeadline] { get }
    /// The report's headline rows of one result (label, value, unit), shown before its full table; by default the
    /// rows of ``headlines``.
    static func reportHeadlines(_ result: JSONObject) -> [(label: String, value: String, unit: String)]
    /// The measures whose distributions the kind's section of the report's study overview draws (the first is the
    /// kind's headline measure, whose per-participant trend it also draws); by default the first of
    /// ``studyMeasures``.
    static var reportDistributions: [ReportDistribution] { get }
    /// The numbers one result gives its kind's section of the report's study overview (summary table, figure,
    /// trend); by default the values of ``studyMeasures`` in their declared units, labelled as ``headlines``
    /// label them.
    static func reportValues(_ result: JSONObject) -> [ReportValue]
    /// A section of the report's study overview made from every record (HTML); none by default.
    static func reportOverview(_ records: [ReportRecord]) -> String
    /// True when ``reportOverview(_:)`` reads the records of this kind: a report streaming a large batch keeps
    /// only those in memory. False by default.
    static var reportOverviewReadsRecords: Bool { get }
    /// Warnings `inspect` adds about a loaded input of this kind before any analysis (a walk too short to count
    /// steps); none by default.
    static func inspectionNotes(_ input: LoadedInput) -> [InputProblem]
    /// The quality flags of one result (the batch CSVs' `flag_*` columns); none judged by default.
    static func qualityFlags(of result: Result) -> QualityFlags
    /// The measures the study tables summarise per participant and day or week; by default the ``headlines``
    /// with a unit of measurement.
    static var studyMeasures: [StudyMeasure] { get }
    /// The per-event tables of one result (walking's `steps.csv`); none by default.
    static func detailTables(of result: Result) -> [DetailTable]
}

extension TaskAnalysis {
    /// No answers.
    public static func answers(_ input: LoadedInput) -> [SurveyResult] { [] }
    /// Claims nothing.
    public static func claims(_ input: LoadedInput) -> [TaskKind] { [] }
    /// In the registry's order.
    public static var position: KindRecognition.Position { .inOrder }
    /// None.
    public static var holdsOtherSteps: [TaskKind] { [] }
    /// The raw values of ``kinds``.
    public static var resultKinds: [String] { kinds.map(\.rawValue) }
    /// The numeric ``headlines`` under the local code system ``ScoredTasks/codeSystem`` (`<kind>.<key>`): every kind
    /// without codes of its own exports what its report headlines, so no kind gives an empty bundle.
    public static func exportMeasures(of result: Result, skipped: inout [String]) -> [ExportMeasure] {
        headlineMeasures(of: result)
    }

    /// The numeric ``headlines`` of `result` as measures: code `<kind>.<key>` in ``ScoredTasks/codeSystem``, the
    /// headline's unit (UCUM by ``ExportMeasure/ucum(_:)``), a whole count in `taps` or `steps` as an integer.
    public static func headlineMeasures(of result: Result) -> [ExportMeasure] {
        guard !headlines.isEmpty, let data = try? JSONEncoder().encode(result),
            let json = try? JSONParser.parse(data, file: "result").objectValue
        else { return [] }
        let kind = json["kind"]?.stringValue ?? resultKinds.first ?? ""
        return headlines.compactMap { headline in
            guard case .number(let value)? = json[headline.key], value.isFinite else { return nil }
            var measure = ExportMeasure(
                system: ScoredTasks.codeSystem, code: kind + "." + headline.key, display: kind + ": " + headline.label,
                category: "exam", value: value, unit: headline.unit, unitCode: ExportMeasure.ucum(headline.unit),
                method: "taskproc-" + kind, methodDisplay: "taskproc " + kind + " analysis",
                step: json["stepIdentifier"]?.stringValue)
            if ["taps", "steps"].contains(headline.unit), value == value.rounded(), abs(value) < 2_147_483_648 {
                measure.valueType = .integer
            }
            return measure
        }
    }
    /// No plots.
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String { "" }
    /// Coded measures.
    public static var exportShape: ExportShape { .measures }
    /// No headlines.
    public static var headlines: [ReportHeadline] { [] }
    /// The rows of ``headlines`` (a missing key shows as "—"); for a kind without headlines, the rows of its
    /// ``studyMeasures`` (a scored task's unit as its result's `units` names it).
    public static func reportHeadlines(_ result: JSONObject) -> [(label: String, value: String, unit: String)] {
        guard headlines.isEmpty else { return ReportHeadline.rows(headlines, of: result) }
        let units = result["units"]?.objectValue
        return studyMeasures.map {
            ($0.column, ReportHeadline.text(result[$0.column]), units?[$0.column]?.stringValue ?? $0.unit)
        }
    }
    /// The first of ``studyMeasures``, labelled with its unit.
    public static var reportDistributions: [ReportDistribution] {
        guard let first = studyMeasures.first, let kind = kinds.first else { return [] }
        let label = headlines.first { $0.key == first.column }?.label ?? first.column
        return [ReportDistribution(kind: kind, key: first.column, label: label)]
    }
    /// The values of ``studyMeasures``: each column's number at the top level of the result, or every number of
    /// that name inside it (one per trial, ear or channel); the unit from the result's ``StudyMeasure/unitColumn``
    /// key when it has one; a stratified measure labelled with its strata's values when they are top-level keys
    /// (`totalTime (dominantHand 1, movingDirection 2)`).
    public static func reportValues(_ result: JSONObject) -> [ReportValue] {
        studyMeasures.flatMap { measure -> [ReportValue] in
            var label = headlines.first { $0.key == measure.column }?.label ?? measure.column
            let unit = measure.unitColumn.flatMap { result[$0]?.stringValue } ?? measure.unit
            let strata = measure.by.compactMap { by -> String? in
                switch result[by] {
                case .number(let d)?: "\(by) \(ResultEncoding.number(d))"
                case .string(let t)?: "\(by) \(t)"
                default: nil
                }
            }
            if !strata.isEmpty { label += " (" + strata.joined(separator: ", ") + ")" }
            return ReportValue.numbers(measure.column, in: result).map {
                ReportValue(key: measure.column, label: label, unit: unit, value: $0)
            }
        }
    }
    /// No overview section.
    public static func reportOverview(_ records: [ReportRecord]) -> String { "" }
    /// Reads no records.
    public static var reportOverviewReadsRecords: Bool { false }
    /// None.
    public static func inspectionNotes(_ input: LoadedInput) -> [InputProblem] { [] }
    /// None judged.
    public static func qualityFlags(of result: Result) -> QualityFlags { QualityFlags() }
    /// None.
    public static func detailTables(of result: Result) -> [DetailTable] { [] }
    /// The ``headlines`` with a unit of measurement (not a name, not yes/no).
    public static var studyMeasures: [StudyMeasure] {
        headlines.filter { !["", "yes/no"].contains($0.unit) }.map { StudyMeasure($0.key, unit: $0.unit) }
    }
}

/// A result of any task kind, with the kind that produced it.
public struct AnalysedResult: Sendable {
    /// The task kind whose analysis produced it (names the batch CSV file and SQLite table).
    public var kind: TaskKind
    /// The result.
    public var result: any RenderableResult & Sendable

    /// Wraps a result.
    public init(kind: TaskKind, result: any RenderableResult & Sendable) {
        self.kind = kind
        self.result = result
    }
}

/// What analysing one input gave: its results, or why there are none, and what the loader reported.
public struct InputAnalysis: Sendable {
    /// The input's path.
    public var path: String
    /// The input's primary task kind (``TaskKind/unknown`` when none was recognised).
    public var taskKind: TaskKind
    /// The dialect it was read as.
    public var dialect: InputDialect
    /// The results, in analysis order (primary kind first).
    public var results: [AnalysedResult] = []
    /// Why the input gave no results; nil when it gave some.
    public var failure: String?
    /// Every problem the loader reported for it (errors and warnings).
    public var problems: [InputProblem] = []
}

/// The registry of task analyses: the one `TaskKind → analysis` dispatch.
///
/// Adding a task kind: make a folder `Sources/ActiveTasks/<Kind>/` with its ``TaskKind`` value, its result type
/// (conforming to ``RenderableResult``) and a type conforming to ``TaskAnalysis`` that says how the kind is
/// recognised (``TaskAnalysis/claims(_:)``, or the classes and steps of a ``ScoredTaskAnalysis``), and add one line
/// to ``analyses``.
public enum AnalysisRegistry {
    /// Every registered analysis. Their order is the analysis order of kinds of the same
    /// ``TaskAnalysis/position`` in one input, the order of the report's sections, and the order of ``taskKinds``.
    public static let analyses: [any TaskAnalysis.Type] = [
        WalkingAnalysis.self,
        MotionSignalAnalysis.self,
        TappingAnalysis.self,
        AudiometryAnalysis.self,
        SPLMeterAnalysis.self,
        RangeOfMotionAnalysis.self,
        AudioRecordingAnalysis.self,
        SurveyAnalysis.self,
        StroopAnalysis.self,
        TrailMakingAnalysis.self,
        PSATAnalysis.self,
        SpatialSpanMemoryAnalysis.self,
        TowerOfHanoiAnalysis.self,
        HolePegAnalysis.self,
        AccuracyStroopAnalysis.self,
        ReactionTimeAnalysis.self,
        NormalizedReactionTimeAnalysis.self,
        SpeechInNoiseAnalysis.self,
        SpeechRecognitionAnalysis.self,
        AmslerGridAnalysis.self,
        ModelSelectionAnalysis.self,
    ]

    /// Every registered task kind, in registry order.
    public static let taskKinds: [TaskKind] = analyses.flatMap { $0.kinds }

    /// What the registered kinds declare about how they are found in an input (their claims and positions, and the
    /// classes and steps of the scored kinds), for the loader: computed once.
    public static let recognition: KindRecognition = {
        var recognition = KindRecognition()
        for analysis in analyses { declare(analysis, into: &recognition) }
        return recognition
    }()

    static func declare<A: TaskAnalysis>(_ analysis: A.Type, into recognition: inout KindRecognition) {
        recognition.declare(A.kinds, position: A.position, holdsOtherSteps: A.holdsOtherSteps) { A.claims($0) }
        if let scored = analysis as? any ScoredTaskAnalysis.Type {
            recognition.declare(A.kinds, classes: scored.classNames, steps: scored.stepIdentifiers)
        }
    }

    /// Loads a file or folder as ``InputLoader/load(path:options:recognition:)`` does, with the registry's
    /// ``recognition``: how every stage above the inputs loads.
    /// - Throws: ``InputError`` only when the path itself is unusable (missing, unreadable).
    public static func load(path: String, options: InputLoader.Options = InputLoader.Options()) throws(InputError)
        -> LoadedInput
    {
        try InputLoader.load(path: path, options: options, recognition: recognition)
    }

    /// How the exporters write results of `kind` (a result's `kind` key): the shape its analysis declares,
    /// ``ExportShape/measures`` for a kind no analysis produces.
    public static func exportShape(ofResultKind kind: String) -> ExportShape {
        analysis(forResultKind: kind)?.exportShape ?? .measures
    }

    /// Every kind's ``TaskAnalysis/inspectionNotes(_:)`` about one loaded input (not its children), in the
    /// registry's order.
    public static func inspectionNotes(_ input: LoadedInput) -> [InputProblem] {
        analyses.flatMap { $0.inspectionNotes(input) }
    }

    /// The question and consent answers of an input and of its children (``TaskAnalysis/answers(_:)``), in order.
    public static func answers(of input: LoadedInput) -> [SurveyResult] {
        analyses.flatMap { $0.answers(input) } + input.children.flatMap(answers(of:))
    }

    /// The analysis registered for `kind`, if any.
    public static func analysis(for kind: TaskKind) -> (any TaskAnalysis.Type)? {
        analyses.first { $0.kinds.contains(kind) }
    }

    /// The analysis whose results carry `kind` in their JSON (``TaskAnalysis/resultKinds``), if any: how the
    /// exports and the report find the code for a stored result.
    public static func analysis(forResultKind kind: String) -> (any TaskAnalysis.Type)? {
        analyses.first { $0.resultKinds.contains(kind) }
    }

    /// The coded measures of a result of any registered analysis (found by the result's type, never by a name);
    /// nil when no registered analysis produces results of its type.
    public static func exportMeasures(of result: any RenderableResult, skipped: inout [String]) -> [ExportMeasure]? {
        for analysis in analyses {
            if let measures = typedMeasures(analysis, result, &skipped) { return measures }
        }
        return nil
    }

    static func typedMeasures<A: TaskAnalysis>(
        _ analysis: A.Type, _ result: any RenderableResult, _ skipped: inout [String]
    ) -> [ExportMeasure]? {
        guard let typed = result as? A.Result else { return nil }
        return A.exportMeasures(of: typed, skipped: &skipped)
    }

    /// Analyses an input: a leaf input gives one ``InputAnalysis``; a folder of independent inputs gives one per
    /// input in it, in order (recursively).
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions = AnalysisOptions()) -> [InputAnalysis] {
        if input.dialect == .folder {
            var out: [InputAnalysis] = []
            if !input.problems.isEmpty || input.children.isEmpty {
                // The folder's own problems (no files, links skipped) travel as an input of their own.
                var own = InputAnalysis(path: input.path, taskKind: .unknown, dialect: .folder)
                own.problems = input.problems
                if input.children.isEmpty { own.failure = "the folder holds no inputs" }
                out.append(own)
            }
            for child in input.children { out += analyze(child, options: options) }
            return out
        }
        // A task folder's own results, then those of inputs in it that the task does not name.
        return [analyzeOne(input, options: options)] + input.children.flatMap { analyze($0, options: options) }
    }

    /// Analyses a leaf input with the analysis of each of its kinds, in order.
    static func analyzeOne(_ node: LoadedInput, options: AnalysisOptions) -> InputAnalysis {
        // The registry analyses children itself (see ``analyze(_:options:)``): the analyses see the node alone.
        var input = node
        input.children = []
        var outcome = InputAnalysis(path: input.path, taskKind: input.taskKind, dialect: input.dialect)
        outcome.problems = input.problems
        var done: [ObjectIdentifier] = []
        var failures: [String] = []
        for kind in input.kinds {
            guard let analysis = analysis(for: kind) else {
                failures.append("analysis of \(kind.rawValue) not available")
                continue
            }
            guard !done.contains(ObjectIdentifier(analysis)) else { continue }
            done.append(ObjectIdentifier(analysis))
            do {
                let results = try run(analysis, input, options)
                if results.isEmpty { failures.append(analysis.nothingToAnalyse) }
                outcome.results += results
            } catch {
                failures.append(String(describing: error))
            }
        }
        let notes = recordWarnings(input)
        if !notes.isEmpty, let i = outcome.results.firstIndex(where: { $0.result is any RecordWarnings }),
            var carrier = outcome.results[i].result as? any RecordWarnings
        {
            carrier.addWarnings(notes)
            outcome.results[i].result = carrier
        }
        if outcome.results.isEmpty {
            let errors = input.problems.filter { $0.severity == .error }
            if !errors.isEmpty {
                // The reading errors explain a failure better than the kind does.
                outcome.failure =
                    errors.prefix(3).map(\.description).joined(separator: "; ")
                    + (errors.count > 3 ? "; and \(errors.count - 3) more" : "")
            } else if !failures.isEmpty {
                outcome.failure = failures.joined(separator: "; ")
            } else if input.dialect == .unrecognised {
                outcome.failure = "not an input taskproc reads"
            } else if input.dialect == .myDataHelps, input.taskKind == .unknown,
                let note = input.problems.last(where: { $0.severity == .warning })
            {
                outcome.failure = note.message  // a MyDataHelps index table: say what it is for
            } else if let classes = unanalysedClasses(input), !classes.isEmpty {
                outcome.failure =
                    "nothing to analyse: the result holds " + InputError.quoted(classes.joined(separator: ", "))
                    + ", which taskproc does not analyse yet"
            } else {
                outcome.failure = "nothing to analyse: no recording or result taskproc recognises"
            }
        }
        return outcome
    }

    /// What reading the input's ResearchKit result found that changes what its results hold.
    ///
    /// For the first result that carries warnings (``RecordWarnings``): each result class no analysis reads (its values are in no result),
    /// and each value read other than as written (a `booleanAnswer` of 123 read as true). Only `inspect` would show
    /// them otherwise.
    static func recordWarnings(_ input: LoadedInput) -> [String] {
        guard let document = input.researchKit else { return [] }
        var notes: [String] = []
        if let root = document.result {
            var seen: Set<String> = []
            for item in root.stepItems {
                guard case .unknown(let className, _, _) = item.result, !recognition.reads(className) else { continue }
                guard seen.insert(className + "\u{0}" + item.stepIdentifier).inserted else { continue }
                notes.append(
                    "step \(item.stepIdentifier): its \(className) is not read by taskproc, so its values are in no "
                        + "result (the input keeps them; see inspect)")
            }
        }
        for warning in document.warnings where warning.kind == .implausibleValue {
            notes.append("\(warning.path): \(warning.message)")
        }
        return notes
    }

    /// The ResearchKit classes of an input's results that no analysis reads, sorted; nil without a ResearchKit result.
    static func unanalysedClasses(_ input: LoadedInput) -> [String]? {
        guard let root = input.researchKit?.result else { return nil }
        var names: Set<String> = []
        for item in root.stepItems {
            if case .unknown(let className, _, _) = item.result, !ScoredTasks.reads(className) {
                names.insert(className)
            }
        }
        return names.sorted()
    }

    /// Runs one analysis and tags its results with the input's kind among the analysis's kinds.
    static func run<A: TaskAnalysis>(_ analysis: A.Type, _ input: LoadedInput, _ options: AnalysisOptions) throws
        -> [AnalysedResult]
    {
        let kind = input.kinds.first(where: A.kinds.contains) ?? A.kinds[0]
        return try A.analyze(input, options: options).map { AnalysedResult(kind: kind, result: $0) }
    }
}
