import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs

/// What `taskproc inspect` reports about an input: what it is, what it holds, and every problem.
public struct InputInspection: Sendable, Codable, Hashable {
    /// Always `"inspection"`.
    public var kind = "inspection"
    /// The path inspected.
    public var path: String
    /// The dialect recognised.
    public var dialect: InputDialect
    /// What the input records.
    public var taskKind: TaskKind
    /// The ResearchKit result's outline, when there is one.
    public var researchKit: ResearchKitOutline?
    /// One entry per recorder file.
    public var recordings: [RecordingSummary]
    /// One entry per tapping recording.
    public var tapping: [TappingSummary]
    /// Audio file metadata.
    public var audio: AudioFileInfo?
    /// Number of legacy tone-audiometry rows (MyDataHelps).
    public var toneAudiometryRows: Int?
    /// For folders of independent inputs: one inspection per file.
    public var children: [InputInspection]
    /// How a sensor table was read (layout, time source, units and where they came from); nil for other inputs.
    public var table: TableReading?
    /// Problems of this input itself (children carry their own).
    public var problems: [InputProblem]
    /// Errors here and in children.
    public var errorCount: Int
    /// Warnings here and in children.
    public var warningCount: Int

    /// The outline of a ResearchKit result document.
    public struct ResearchKitOutline: Sendable, Codable, Hashable {
        /// `_class` of the root.
        public var rootClass: String
        /// The root's identifier (task identifier for a task result).
        public var identifier: String
        /// `taskRunUUID` of a task result.
        public var taskRunUUID: String?
        /// Start of the root result.
        public var startDate: ResultDate?
        /// End of the root result.
        public var endDate: ResultDate?
        /// Steps in order, each with the classes of its results.
        public var steps: [Step]
        /// Non-fatal decoding warnings.
        public var warningCount: Int

        /// One step and what it produced.
        public struct Step: Sendable, Codable, Hashable {
            /// Step identifier.
            public var identifier: String
            /// `_class` of each child result, in order.
            public var results: [String]
        }
    }

    /// A recorder file's content in brief.
    public struct RecordingSummary: Sendable, Codable, Hashable {
        /// The file.
        public var file: String
        /// Step identifier, when known.
        public var stepIdentifier: String?
        /// Recorder configuration identifier, when known.
        public var recorderIdentifier: String?
        /// Recorder kind.
        public var recorder: RecorderKind
        /// Samples kept (after hygiene for motion logs).
        public var samples: Int
        /// Time covered, s.
        public var timeSpan: Double?
        /// Measured sampling rate (median interval), Hz; motion logs only.
        public var samplingRate: Double?
        /// Units of the values: `g`, `m/s^2`, … (detected for motion logs).
        public var units: String?
        /// The full hygiene report (motion logs).
        public var quality: QualityReport?
        /// Item keys taskproc does not use.
        public var ignoredKeys: [String]
    }

    /// A tapping recording in brief.
    public struct TappingSummary: Sendable, Codable, Hashable {
        /// Step identifier, when known.
        public var stepIdentifier: String?
        /// Taps recorded.
        public var taps: Int
        /// Taps on the left button.
        public var left: Int
        /// Taps on the right button.
        public var right: Int
        /// Taps outside both buttons.
        public var none: Int
        /// Time from first to last tap, s.
        public var duration: Double
        /// True when button frames were recorded (needed for tap-to-button distances).
        public var hasButtonFrames: Bool
    }

    /// Summarises a loaded input.
    public init(_ input: LoadedInput) {
        path = input.path
        dialect = input.dialect
        taskKind = input.taskKind
        audio = input.audio
        toneAudiometryRows = input.toneAudiometry.isEmpty ? nil : input.toneAudiometry.count
        // What the task kinds flag before any analysis (a walk too short to count steps).
        problems = input.problems + AnalysisRegistry.inspectionNotes(input)
        children = input.children.map(InputInspection.init)
        table = input.table
        errorCount = problems.filter { $0.severity == .error }.count + children.map(\.errorCount).reduce(0, +)
        warningCount = problems.filter { $0.severity == .warning }.count + children.map(\.warningCount).reduce(0, +)
        tapping = input.tapping.map { r in
            let times = r.samples.map(\.timestamp)
            return TappingSummary(
                stepIdentifier: r.stepIdentifier, taps: r.samples.count,
                left: r.samples.filter { $0.button == .left }.count, right: r.samples.filter { $0.button == .right }.count,
                none: r.samples.filter { $0.button == .none }.count,
                duration: (times.max() ?? 0) - (times.min() ?? 0), hasButtonFrames: r.leftButton != nil && r.rightButton != nil)
        }
        recordings = input.recordings.map(Self.summary)
        if let document = input.researchKit, let root = document.result {
            var steps: [ResearchKitOutline.Step] = []
            if case .task(let task) = root {
                for case .step(let step) in task.results {
                    steps.append(.init(identifier: step.header.identifier, results: step.results.map(\.className)))
                }
            }
            researchKit = ResearchKitOutline(
                rootClass: root.className, identifier: root.identifier,
                taskRunUUID: document.taskResult?.taskRunUUID?.uuidString, startDate: root.header.startDate,
                endDate: root.header.endDate, steps: steps, warningCount: document.warnings.count)
        }
    }

    static func summary(_ r: LoadedRecording) -> RecordingSummary {
        var s = RecordingSummary(
            file: r.file, stepIdentifier: r.stepIdentifier, recorderIdentifier: r.recorderIdentifier, recorder: r.data.kind,
            samples: 0, ignoredKeys: r.ignoredKeys)
        switch r.data {
        case .accelerometer(let c):
            s.samples = c.log.timestamp.count
            s.quality = c.report
            s.timeSpan = c.report.timeSpan
            s.samplingRate = c.report.sampling?.medianRate
            s.units = c.log.unitIsStated ? c.log.unit.rawValue : c.report.units?.unit.rawValue ?? c.log.unit.rawValue
        case .deviceMotion(let c):
            s.samples = c.log.timestamp.count
            s.quality = c.report
            s.timeSpan = c.report.timeSpan
            s.samplingRate = c.report.sampling?.medianRate
            s.units = "g (acceleration), rad/s (rotation)"
        case .pedometer(let p):
            s.samples = p.samples.count
            if let first = p.samples.first, let last = p.samples.last {
                s.timeSpan = last.endDate.timeIntervalSince1970 - first.startDate.timeIntervalSince1970
            }
            s.units = "steps (cumulative), m"
        case .location(let l):
            s.samples = l.samples.count
            s.units = "degrees, m, m/s"
        case .touch(let t):
            s.samples = t.samples.count
            s.units = "points"
        case .healthQuantity(let h):
            s.samples = h.samples.count
            s.units = Set(h.samples.map(\.unit)).sorted().joined(separator: ", ")
        }
        return s
    }
}

extension InputInspection: RenderableResult {
    /// Sections: the input, its ResearchKit outline, recordings, tapping, problems; then each child.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        var sections: [(title: String, rows: [(String, String)])] = []
        var head: [(String, String)] = [("dialect", dialect.rawValue), ("task", taskKind.rawValue)]
        if let a = audio {
            // kind-names: the part's name, as in the CSV's `part` column, not a task kind
            head.append(("audio", "\(a.format.container) \(a.format.encoding), \(ResultEncoding.number(a.sampleRate)) Hz, \(a.channelCount) ch, \(String(format: "%.3f", a.duration)) s"))
        }
        if let n = toneAudiometryRows { head.append(("tone audiometry rows", String(n))) }
        head.append(("problems", "\(errorCount) errors, \(warningCount) warnings"))
        sections.append(("Input " + path, head))
        if let rk = researchKit {
            var rows: [(String, String)] = [("root", "\(rk.rootClass) \(rk.identifier)")]
            if let u = rk.taskRunUUID { rows.append(("taskRunUUID", u)) }
            if let s = rk.startDate, let e = rk.endDate { rows.append(("time", "\(s) → \(e)")) }
            for step in rk.steps { rows.append(("step " + step.identifier, step.results.isEmpty ? "—" : step.results.joined(separator: ", "))) }
            sections.append(("ResearchKit result", rows))
        }
        if let t = table {
            var rows: [(String, String)] = [("layout", t.layout)]
            for line in t.preamble.prefix(12) { rows.append(("preamble", line)) }
            if t.preamble.count > 12 { rows.append(("preamble", "… \(t.preamble.count - 12) more lines")) }
            if let by = t.exportedBy { rows.append(("exported by", by)) }
            if let start = t.startedAt { rows.append(("started", start)) }
            if let segments = t.segments {
                let runs = segments.map { s in
                    let end = s.end.map { ResultEncoding.number($0, digits: 6) } ?? "end"
                    return ResultEncoding.number(s.start, digits: 6) + "–" + end + " s"
                }
                let dropped = t.droppedSamples.map { "; \($0) samples outside dropped" } ?? ""
                rows.append(("runs", runs.joined(separator: ", ") + dropped))
            }
            let time: String
            let rate = ResultEncoding.number(t.sampleRate ?? 0, digits: 6)
            switch t.timeSource {
            case "sampleCounter": time = "sample counter \"\(t.timeColumn ?? "?")\" at \(rate) Hz"
            case "sampleRate": time = "no time column: \(rate) Hz"
            case "dateTime": time = "column \"\(t.timeColumn ?? "?")\" of date-time text, read as Unix s"
            default: time = "column \"\(t.timeColumn ?? "?")\" in \(t.timeUnit) (\(t.timeUnitSource))"
            }
            rows.append(("time", time))
            rows.append(
                (
                    "acceleration",
                    t.accelerationColumns.map { "\"\($0)\"" }.joined(separator: ", ") + " in \(t.accelerationUnit) ("
                        + t.accelerationUnitSource + (t.statedAccelerationUnit.map { ": \($0)" } ?? "") + ")"
                ))
            if let columns = t.gyroscopeColumns, let unit = t.gyroscopeUnit {
                rows.append(
                    (
                        "gyroscope",
                        columns.map { "\"\($0)\"" }.joined(separator: ", ") + " in \(unit) ("
                            + (t.gyroscopeUnitSource ?? "?") + ")"
                    ))
            }
            sections.append(("Table", rows))
        }
        for r in recordings {
            var rows: [(String, String)] = [("recorder", r.recorder.rawValue + (r.recorderIdentifier.map { " (\($0))" } ?? ""))]
            if let step = r.stepIdentifier { rows.append(("step", step)) }
            rows.append(("samples", String(r.samples)))
            if let t = r.timeSpan { rows.append(("time span", String(format: "%.3f s", t))) }
            if let f = r.samplingRate { rows.append(("sampling rate", String(format: "%.2f Hz (measured)", f))) }
            if let u = r.units { rows.append(("units", u)) }
            if let q = r.quality {
                rows.append(("gaps", q.gaps.isEmpty ? "none" : "\(q.gaps.count), \(String(format: "%.3f", q.totalGapDuration)) s in all"))
                if q.backwardSteps > 0 { rows.append(("backward steps", String(q.backwardSteps))) }
                if q.duplicatesDropped + q.conflictingDuplicates > 0 {
                    rows.append(("duplicates dropped", "\(q.duplicatesDropped) exact, \(q.conflictingDuplicates) conflicting"))
                }
            }
            if !r.ignoredKeys.isEmpty { rows.append(("ignored keys", r.ignoredKeys.joined(separator: ", "))) }
            sections.append(("Recording " + r.file, rows))
        }
        for t in tapping {
            sections.append(
                (
                    "Tapping" + (t.stepIdentifier.map { " " + $0 } ?? ""),
                    [
                        ("taps", "\(t.taps) (left \(t.left), right \(t.right), none \(t.none))"),
                        ("duration", String(format: "%.3f s", t.duration)),
                        ("button frames", t.hasButtonFrames ? "yes" : "no"),
                    ]
                ))
        }
        if !problems.isEmpty {
            sections.append(("Problems", problems.map { ($0.severity.rawValue, ($0.file == path ? "" : $0.file + ": ") + ($0.location.map { "at \($0): " } ?? "") + $0.message) }))
        }
        for child in children { sections += child.tableSections }
        return sections
    }

    /// One CSV row per part (recording, tapping recording, audio file, or the input itself when empty).
    public var csvTable: (header: [String], rows: [[String]]) {
        let header = ["path", "dialect", "taskKind", "part", "file", "step", "samples", "timeSpan", "samplingRate", "units", "errors", "warnings"]
        var rows: [[String]] = []
        func add(_ i: InputInspection) {
            let base = [i.path, i.dialect.rawValue, i.taskKind.rawValue]
            let counts = [String(i.problems.filter { $0.severity == .error }.count), String(i.problems.filter { $0.severity == .warning }.count)]
            var any = false
            for r in i.recordings {
                rows.append(base + [r.recorder.rawValue, r.file, r.stepIdentifier ?? "", String(r.samples), ResultEncoding.number(r.timeSpan), ResultEncoding.number(r.samplingRate), r.units ?? ""] + counts)
                any = true
            }
            for t in i.tapping {
                // kind-names: the part's name, like a recorder's (`accelerometer`), not a task kind
                rows.append(base + ["tapping", i.path, t.stepIdentifier ?? "", String(t.taps), ResultEncoding.number(t.duration), "", "points"] + counts)
                any = true
            }
            if let a = i.audio {
                // kind-names: the part's name, like a recorder's (`accelerometer`), not a task kind
                rows.append(base + ["audio", i.path, "", String(a.frameCount), ResultEncoding.number(a.duration), ResultEncoding.number(a.sampleRate), "FS"] + counts)
                any = true
            }
            if !any && i.children.isEmpty { rows.append(base + ["", i.path, "", "", "", "", ""] + counts) }
            i.children.forEach(add)
        }
        add(self)
        return (header, rows)
    }
}
