import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs

/// The study-level tables of a batch run.
///
/// Built from the per-kind rows as the outputs are written (`docs/batch.md`, "Study tables"):
///
/// - `participant_day.csv` and `participant_week.csv`: per participant, local date (or ISO week), kind, measure
///   and stratum, the records and the summary of the records' values (n, median, quartiles, mean, range), rows
///   flagged implausible left out and counted;
/// - `surveys_wide.csv`: one row per survey task run, one column per question;
/// - `adherence.csv`: per participant, ISO week and task, the runs, their duration and the longest gap, with the
///   weeks without a run between a participant's first and last.
///
/// The tables depend only on the entries in source order (which ``BatchOutputs`` fixes), so a resumed or merged
/// run writes the same bytes.
final class StudyTables {
    /// One table: a name (`participant_day`), its columns with their SQLite types (`INTEGER`, `REAL`, `TEXT`, or
    /// empty for cells typed one by one), the columns indexed in SQLite, and its rows.
    struct Table: Sendable {
        var name: String
        var columns: [(name: String, type: String)]
        var indexes: [[String]]
        var rows: [[String]]
    }

    /// The file names, without `.csv`, in the order they are written.
    static let names = ["participant_day", "participant_week", "surveys_wide", "adherence"]

    private struct GroupKey: Hashable, Comparable {
        var participant: String
        var period: String
        var kind: String
        var measure: String
        var stratum: String
        var unit: String

        static func < (a: Self, b: Self) -> Bool {
            (a.participant, a.period, a.kind, a.measure, a.stratum, a.unit)
                < (b.participant, b.period, b.kind, b.measure, b.stratum, b.unit)
        }
    }

    private struct Group {
        var values: [Double] = []
        var excluded = 0
        var records = 0
    }

    private struct Run {
        var participant: String
        var date: String?
        var start: ResultDate?
        var end: ResultDate?
    }

    private var days: [GroupKey: Group] = [:]
    private var weeks: [GroupKey: Group] = [:]
    private var runs: [String: [Run]] = [:]  // by task
    private var surveyColumns: [String] = []  // qualified question names, first appearance in source order
    private var surveySteps: [String: Set<String>] = [:]  // question → steps it appears under
    private var surveyRuns: [(keys: [String], answers: [(step: String, question: String, value: String)])] = []
    private let measures: [String: [StudyMeasure]]
    private var indexes: [String: (columns: [String], index: [String: Int])] = [:]

    init() {
        var byKind: [String: [StudyMeasure]] = [:]
        for analysis in AnalysisRegistry.analyses {
            for kind in analysis.resultKinds { byKind[kind] = analysis.studyMeasures }
        }
        measures = byKind
    }

    /// The survey answers' kind, whose rows make `surveys_wide.csv`.
    // kind-names: the survey table is pivoted into surveys_wide.csv, a study table about that one kind
    static let surveyKind = TaskKind.survey.rawValue

    /// Adds a record of status ok or partial: its run for `adherence.csv`.
    func add(entry: BatchEntry) {
        let task = entry.taskIdentifier ?? entry.kind ?? "unknown"
        let start = entry.startTime.flatMap(ResultDate.init)
        let end = entry.endTime.flatMap(ResultDate.init)
        runs[task, default: []].append(
            Run(participant: entry.keys.participant ?? "", date: entry.date, start: start, end: end))
    }

    /// Adds the rows of one kind of one record, aligned to `columns` (the kind's CSV columns).
    func add(kind: String, columns: [String], rows: [[String]]) {
        guard !rows.isEmpty else { return }
        // A kind's columns are the same for every record of a run: its name → position map is built once.
        let index: [String: Int]
        if let cached = indexes[kind], cached.columns == columns {
            index = cached.index
        } else {
            index = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            indexes[kind] = (columns, index)
        }
        func cell(_ row: [String], _ name: String) -> String {
            guard let i = index[name], i < row.count else { return "" }
            return row[i]
        }
        let first = rows[0]
        let participant = cell(first, "participant")
        let date = cell(first, "date")
        let week = Self.isoWeek(date)?.week ?? ""
        if kind == Self.surveyKind { addSurvey(columns: columns, rows: rows, cell: cell) }
        for measure in measures[kind] ?? [] where index[measure.column] != nil {
            // One value per record and stratum: the mean of its rows (a dB HL test repeats an ear's PTA4 on each
            // frequency's row; the two hands of a tapping task).
            var perStratum: [String: (unit: String, sum: Double, count: Int, excluded: Int)] = [:]
            var order: [String] = []
            for row in rows {
                let stratum = measure.by.map { $0 + "=" + cell(row, $0) }.joined(separator: " ")
                let unitCell = measure.unitColumn.map { cell(row, $0) } ?? ""
                if perStratum[stratum] == nil {
                    perStratum[stratum] = (unitCell.isEmpty ? measure.unit : unitCell, 0, 0, 0)
                    order.append(stratum)
                }
                guard let value = Double(cell(row, measure.column)), value.isFinite else { continue }
                if cell(row, "flag_implausible") == "true" {
                    perStratum[stratum]?.excluded += 1
                } else {
                    perStratum[stratum]?.sum += value
                    perStratum[stratum]?.count += 1
                }
            }
            for stratum in order {
                guard let s = perStratum[stratum] else { continue }
                for (period, isWeek) in [(date, false), (week, true)] {
                    let key = GroupKey(
                        participant: participant, period: period, kind: kind, measure: measure.column,
                        stratum: stratum, unit: s.unit)
                    var group = (isWeek ? weeks[key] : days[key]) ?? Group()
                    group.records += 1
                    if s.count > 0 {
                        group.values.append(s.sum / Double(s.count))
                    } else if s.excluded > 0 {
                        group.excluded += 1
                    }
                    if isWeek { weeks[key] = group } else { days[key] = group }
                }
            }
        }
    }

    private func addSurvey(columns: [String], rows: [[String]], cell: ([String], String) -> String) {
        var byRun: [String: Int] = [:]
        for row in rows {
            let run =
                cell(row, "result_taskRunUUID").isEmpty ? cell(row, "taskRunUUID") : cell(row, "result_taskRunUUID")
            let question = cell(row, "questionIdentifier")
            guard !question.isEmpty else { continue }
            let step = cell(row, "stepIdentifier")
            if byRun[run] == nil {
                byRun[run] = surveyRuns.count
                let keys = ["recordSource", "participant", "date", "startTime"].map { cell(row, $0) }
                surveyRuns.append((keys + [run, cell(row, "taskIdentifier")], []))
            }
            surveySteps[question, default: []].insert(step)
            if let i = byRun[run] { surveyRuns[i].answers.append((step, question, cell(row, "value"))) }
        }
    }

    // MARK: the tables

    /// The four tables.
    func tables() -> [Table] {
        [
            summary(days, name: "participant_day", period: "date"),
            summary(weeks, name: "participant_week", period: "week"),
            surveysWide(), adherence(),
        ]
    }

    private static let summaryColumns: [(name: String, type: String)] = [
        ("records", "INTEGER"), ("n", "INTEGER"), ("excluded", "INTEGER"), ("median", "REAL"), ("q1", "REAL"),
        ("q3", "REAL"), ("iqr", "REAL"), ("mean", "REAL"), ("min", "REAL"), ("max", "REAL"),
    ]

    private func summary(_ groups: [GroupKey: Group], name: String, period: String) -> Table {
        var columns: [(name: String, type: String)] = [("participant", "TEXT"), (period, "TEXT")]
        if period == "week" { columns.append(("weekStart", "TEXT")) }
        columns += [("kind", "TEXT"), ("measure", "TEXT"), ("stratum", "TEXT"), ("unit", "TEXT")]
        columns += Self.summaryColumns
        var rows: [[String]] = []
        rows.reserveCapacity(groups.count)
        for key in groups.keys.sorted() {
            guard let group = groups[key] else { continue }
            var row = [key.participant, key.period]
            if period == "week" { row.append(Self.weekStart(key.period) ?? "") }
            row += [key.kind, key.measure, key.stratum, key.unit]
            row += [String(group.records), String(group.values.count), String(group.excluded)]
            if let (q1, median, q3) = Self.quartiles(group.values), let low = group.values.min(),
                let high = group.values.max()
            {
                // R's mean (long double, second-pass correction), so the table agrees with `mean()` in R.
                let mean = RStatistics.mean(group.values.span)
                row += [median, q1, q3, q3 - q1, mean, low, high].map(Self.number)
            } else {
                row += Array(repeating: "", count: 7)
            }
            rows.append(row)
        }
        return Table(name: name, columns: columns, indexes: [["participant", period]], rows: rows)
    }

    private func surveysWide() -> Table {
        // A question under more than one step anywhere in the study is named `step.question` everywhere.
        func name(_ step: String, _ question: String) -> String {
            (surveySteps[question]?.count ?? 0) > 1 ? step + "." + question : question
        }
        var columns: [(name: String, type: String)] = [
            ("recordSource", "TEXT"), ("participant", "TEXT"), ("date", "TEXT"), ("startTime", "TEXT"),
            ("taskRunUUID", "TEXT"), ("taskIdentifier", "TEXT"),
        ]
        // Column names are unique ignoring case (as SQLite compares them): a question named like a key column
        // (the consent's `participant`) is named `step.question`, and a name still taken gets `~2`, `~3`, ….
        var names = ColumnNames(taken: columns.map(\.name))
        var questions: [String] = []
        var column: [String: String] = [:]  // name(step, question) → column
        for run in surveyRuns {
            for answer in run.answers {
                let wanted = name(answer.step, answer.question)
                guard column[wanted] == nil else { continue }
                let chosen = names.claim(wanted) { _ in answer.step + "." + answer.question }
                column[wanted] = chosen
                questions.append(chosen)
            }
        }
        let position = Dictionary(questions.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        columns += questions.map { ($0, "") }
        var rows: [[String]] = []
        rows.reserveCapacity(surveyRuns.count)
        for run in surveyRuns {
            var cells = Array(repeating: "", count: questions.count)
            for answer in run.answers {
                guard let i = column[name(answer.step, answer.question)].flatMap({ position[$0] }) else { continue }
                // A question answered twice in one run keeps both answers, in order, joined by " | ".
                cells[i] = cells[i].isEmpty ? answer.value : cells[i] + " | " + answer.value
            }
            rows.append(run.keys + cells)
        }
        return Table(name: "surveys_wide", columns: columns, indexes: [["participant", "date"]], rows: rows)
    }

    private func adherence() -> Table {
        let columns: [(name: String, type: String)] = [
            ("participant", "TEXT"), ("week", "TEXT"), ("weekStart", "TEXT"), ("task", "TEXT"), ("runs", "INTEGER"),
            ("daysWithRuns", "INTEGER"), ("medianDuration", "REAL"), ("longestGapDays", "REAL"),
        ]
        // The weeks of each participant: every ISO week from their first run to their last, of any task.
        var span: [String: (first: Int, last: Int)] = [:]
        for list in runs.values {
            for run in list {
                guard let day = run.date.flatMap(Self.dayNumber) else { continue }
                let monday = day - Self.weekday(day) + 1
                let old = span[run.participant]
                span[run.participant] = (min(old?.first ?? monday, monday), max(old?.last ?? monday, monday))
            }
        }
        struct Cell {
            var runs = 0
            var days: Set<String> = []
            var durations: [Double] = []
            var longestGap: Double?
        }
        var rows: [[String]] = []
        for task in runs.keys.sorted() {
            guard let list = runs[task] else { continue }
            var byParticipant: [String: [Run]] = [:]
            for run in list { byParticipant[run.participant, default: []].append(run) }
            for participant in byParticipant.keys.sorted() {
                guard let own = byParticipant[participant] else { continue }
                var cells: [Int: Cell] = [:]  // by the week's Monday (day number)
                var undated = Cell()
                let ordered = own.sorted { ($0.start?.date ?? .distantPast) < ($1.start?.date ?? .distantPast) }
                var previous: Date?
                for run in ordered {
                    guard let date = run.date, let day = Self.dayNumber(date) else {
                        undated.runs += 1
                        continue
                    }
                    let monday = day - Self.weekday(day) + 1
                    var cell = cells[monday] ?? Cell()
                    cell.runs += 1
                    cell.days.insert(date)
                    if let start = run.start, let end = run.end, end.date >= start.date {
                        cell.durations.append(end.date.timeIntervalSince(start.date))
                    }
                    if let start = run.start?.date {
                        if let previous {
                            let gap = start.timeIntervalSince(previous) / 86_400
                            cell.longestGap = max(cell.longestGap ?? gap, gap)
                        }
                        previous = start
                    }
                    cells[monday] = cell
                }
                if !cells.isEmpty, let (first, last) = span[participant] {
                    var monday = first
                    while monday <= last {
                        let cell = cells[monday] ?? Cell()
                        let week = Self.isoWeek(day: monday)
                        rows.append([
                            participant, week, Self.civil(monday), task, String(cell.runs), String(cell.days.count),
                            cell.durations.isEmpty ? "" : Self.number(RStatistics.median(cell.durations)),
                            cell.longestGap.map(Self.number) ?? "",
                        ])
                        monday += 7
                    }
                }
                if undated.runs > 0 { rows.append([participant, "", "", task, String(undated.runs), "0", "", ""]) }
            }
        }
        rows.sort { ($0[0], $0[1], $0[3]) < ($1[0], $1[1], $1[3]) }
        return Table(name: "adherence", columns: columns, indexes: [["participant", "week"]], rows: rows)
    }

    // MARK: arithmetic

    /// The first quartile, median and third quartile of `values` as R's `quantile(x, c(.25, .5, .75))` (type 7,
    /// linear interpolation between order statistics; ``RStatistics/quantiles(_:probabilities:)-(Span<Double>,_)``);
    /// nil for no values.
    static func quartiles(_ values: [Double]) -> (q1: Double, median: Double, q3: Double)? {
        guard !values.isEmpty else { return nil }
        let q = RStatistics.quantiles(values, probabilities: [0.25, 0.5, 0.75])
        return (q[0], q[1], q[2])
    }

    /// A value as the study tables write it: an integer without a decimal point, else the shortest text that reads
    /// back as the same double.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) { return String(whole) }
        return "\(value)"
    }

    /// Days since 1970-01-01 of a `yyyy-MM-dd` date; nil when it is not one.
    static func dayNumber(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]),
            let d = Int(parts[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        return ResultDate.daysFromCivil(year: y, month: m, day: d)
    }

    /// The `yyyy-MM-dd` date of a day number.
    static func civil(_ day: Int) -> String {
        let (y, m, d) = ResultDate.civilFromDays(day)
        let pad = { (n: Int, w: Int) in String(repeating: "0", count: max(0, w - String(n).count)) + String(n) }
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// ISO weekday of a day number: Monday 1 … Sunday 7 (1970-01-01 was a Thursday).
    static func weekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 + 1 }

    /// The ISO 8601 week (`2024-W18`) of a day number: the week of its Thursday, in that Thursday's year.
    static func isoWeek(day: Int) -> String {
        let thursday = day - weekday(day) + 4
        let date = civil(thursday)
        let year = String(date.prefix(4))
        guard let january1 = dayNumber(year + "-01-01") else { return "" }
        let week = (thursday - january1) / 7 + 1
        return year + "-W" + (week < 10 ? "0" : "") + String(week)
    }

    /// The ISO week and its Monday of a `yyyy-MM-dd` date; nil when it is not one.
    static func isoWeek(_ date: String) -> (week: String, monday: String)? {
        guard let day = dayNumber(date) else { return nil }
        return (isoWeek(day: day), civil(day - weekday(day) + 1))
    }

    /// The Monday of an ISO week `yyyy-Www`; nil when it is not one.
    static func weekStart(_ week: String) -> String? {
        let parts = week.split(separator: "-")
        guard parts.count == 2, parts[1].hasPrefix("W"), let w = Int(parts[1].dropFirst()), (1...53).contains(w),
            let january4 = dayNumber(String(parts[0]) + "-01-04")
        else { return nil }
        let mondayOfWeek1 = january4 - weekday(january4) + 1
        return civil(mondayOfWeek1 + (w - 1) * 7)
    }
}
