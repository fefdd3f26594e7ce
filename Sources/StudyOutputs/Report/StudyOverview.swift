import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs

extension HTMLReport {
    /// Everything the study overview shows, gathered one record at a time (so a report of a million records need
    /// not hold them): counts by kind and status, participants, the dates covered, failure reasons and warnings
    /// counted, and per result kind the numbers its section draws (``TaskAnalysis/reportValues(_:)``) with the
    /// participant and day of each, plus the records of kinds whose own overview reads them
    /// (``TaskAnalysis/reportOverviewReadsRecords``).
    struct OverviewFacts {
        var count = 0
        var byKind: [String: (ok: Int, partial: Int, error: Int)] = [:]
        var participants: Set<String> = []
        var firstDate: String?
        var lastDate: String?
        var results = 0
        var withWarnings = 0
        var repaired = 0
        var failed = 0
        var warningCounts: [String: Int] = [:]
        /// Failure reasons, grouped (``reasonGroup(_:)``) → (records, the first record's source and reason, its
        /// kind).
        var failures: [String: (count: Int, example: String, reason: String, kind: String)] = [:]
        /// Per result kind, in order of first appearance.
        var kinds: [String: KindFacts] = [:]
        var retained: [ReportRecord] = []

        /// Keep every record for the kinds' overview sections (``render(_:title:readSources:)``, which holds them
        /// anyway), or only those of kinds whose overview reads them (a streamed page).
        var keepsAll = true

        /// What one result kind's section draws.
        struct KindFacts {
            var results = 0
            var records = 0
            var withWarnings = 0
            var participants: Set<String> = []
            var warnings: [String: Int] = [:]
            /// Summary rows by (label, unit), in order of first appearance.
            var rows: [RowKey] = []
            var rowValues: [RowKey: [Double]] = [:]
            /// Histogram values by (key, unit).
            var figures: [RowKey: [Double]] = [:]
            /// The headline measure's values with participant and day (days since 1970-01-01), for the trend.
            var trend: [(participant: String, day: Int, value: Double, unit: String)] = []
            /// Values of the headline measure without a participant or a date (not drawn in the trend).
            var undated = 0
        }

        struct RowKey: Hashable {
            var name: String
            var unit: String
        }

        mutating func add(_ r: ReportRecord) {
            count += 1
            let k = r.kind ?? "unrecognised"
            var c = byKind[k] ?? (0, 0, 0)
            switch r.status {
            case "error": c.error += 1
            case "partial": c.partial += 1
            default: c.ok += 1
            }
            byKind[k] = c
            if r.status == "error" {
                failed += 1
                let reason = Self.reason(r)
                let group = Self.reasonGroup(reason)
                var f = failures[group] ?? (0, r.source, reason, k)
                f.count += 1
                failures[group] = f
            }
            if let participant = r.participant { participants.insert(participant) }
            let recordDay = r.startTime.flatMap(Self.day)
            var kindsOfRecord: Set<String> = []
            for result in r.results {
                results += 1
                for key in ["startDate", "endDate"] {
                    if let d = result[key]?.stringValue, d.count >= 10 { note(day: String(d.prefix(10))) }
                }
                let warnings = ReportHeadlines.warnings(result)
                if !warnings.isEmpty { withWarnings += 1 }
                for w in Set(warnings) { warningCounts[w, default: 0] += 1 }
                if case .array(let repairs)? = result["quality"]?.objectValue?["hygiene"]?.objectValue?["repairs"],
                    !repairs.isEmpty
                {
                    repaired += 1
                }
                let resultKind = result["kind"]?.stringValue ?? k
                var facts = kinds[resultKind] ?? KindFacts()
                facts.results += 1
                if kindsOfRecord.insert(resultKind).inserted { facts.records += 1 }
                if let participant = r.participant { facts.participants.insert(participant) }
                if !warnings.isEmpty { facts.withWarnings += 1 }
                for w in Set(warnings) { facts.warnings[w, default: 0] += 1 }
                if let analysis = AnalysisRegistry.analysis(forResultKind: resultKind) {
                    let headline = analysis.reportDistributions.first?.key
                    let figureKeys = Set(analysis.reportDistributions.map(\.key))
                    let day = recordDay ?? result["startDate"]?.stringValue.flatMap(Self.day)
                    for v in analysis.reportValues(result) {
                        let row = RowKey(name: v.label, unit: v.unit)
                        if facts.rowValues[row] == nil { facts.rows.append(row) }
                        facts.rowValues[row, default: []].append(v.value)
                        if figureKeys.contains(v.key) {
                            facts.figures[RowKey(name: v.key, unit: v.unit), default: []].append(v.value)
                        }
                        if v.key == headline {
                            if let participant = r.participant, let day {
                                facts.trend.append((participant, day, v.value, v.unit))
                            } else {
                                facts.undated += 1
                            }
                        }
                    }
                }
                kinds[resultKind] = facts
            }
            if let start = r.startTime, start.count >= 10 { note(day: String(start.prefix(10))) }
            if keepsAll || AnalysisRegistry.analysis(forResultKind: k)?.reportOverviewReadsRecords == true {
                retained.append(r)
            }
        }

        private mutating func note(day: String) {
            if firstDate.map({ day < $0 }) ?? true { firstDate = day }
            if lastDate.map({ day > $0 }) ?? true { lastDate = day }
        }

        /// A failed record's reason without its own path in front (`<source>: no 'data' chunk` → `no 'data'
        /// chunk`), so that records failing the same way count together.
        static func reason(_ r: ReportRecord) -> String {
            var reason = r.reason ?? "no reason given"
            for prefix in [r.source + ": ", r.source + " "] where reason.hasPrefix(prefix) {
                reason.removeFirst(prefix.count)
                break
            }
            return reason
        }

        /// What failures of one kind share: a reason without the file path in front (a member of the record's
        /// folder), its UUIDs as `UUID` and its numbers (line, column, index) as `#`, so that records failing the
        /// same way count together.
        static func reasonGroup(_ reason: String) -> String {
            var text = reason
            if let colon = text.range(of: ": "), !text[..<colon.lowerBound].contains(" "),
                text[..<colon.lowerBound].contains("/")
            {
                text = String(text[colon.upperBound...])
            }
            text = text.replacingOccurrences(
                of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "UUID",
                options: .regularExpression)
            return text.replacingOccurrences(of: "[0-9]+", with: "#", options: .regularExpression)
        }

        /// The day number (days since 1970-01-01) of an ISO 8601 date or date-time: its local calendar date.
        static func day(_ text: String) -> Int? {
            let u = Array(text.utf8.prefix(10))
            guard u.count == 10, u[4] == 0x2D, u[7] == 0x2D else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var n = 0
                for i in range {
                    guard (0x30...0x39).contains(u[i]) else { return nil }
                    n = n * 10 + Int(u[i] - 0x30)
                }
                return n
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                (1...12).contains(month),
                (1...31).contains(day)
            else { return nil }
            return ResultDate.daysFromCivil(year: year, month: month, day: day)
        }

        /// The result kinds present, in registry order, then any others by name.
        var kindOrder: [String] {
            var seen: Set<String> = []
            let registered = AnalysisRegistry.analyses.flatMap { $0.resultKinds }.filter {
                kinds[$0] != nil && seen.insert($0).inserted
            }
            let others = kinds.keys.filter { !registered.contains($0) }.sorted()
            return registered + others
        }

        static func anchor(_ kind: String) -> String {
            "kind-" + String(kind.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" })
        }

        // MARK: HTML

        /// The table of contents: the overview, failures and warnings, a section per result kind, the records.
        func contents() -> String {
            var s = "<nav class=\"toc\"><b>Contents</b><ol>"
            s += "<li><a href=\"#overview\">Study overview</a></li>"
            s +=
                "<li><a href=\"#problems\">Failures and warnings</a> (\(failed) failed, \(withWarnings) with a warning)</li>"
            s += "<li>Task kinds<ol>"
            for kind in kindOrder {
                let n = kinds[kind]?.results ?? 0
                s +=
                    "<li><a href=\"#\(Self.anchor(kind))\">\(SVGChart.escape(kind))</a> (\(n) result\(n == 1 ? "" : "s"))</li>"
            }
            s += "</ol></li><li><a href=\"#records\">Records</a> (\(count))</li></ol></nav>\n"
            return s
        }

        /// Participants, the dates the records cover, and data-quality counts.
        func studyFacts() -> String {
            let rows: [(String, String)] = [
                (
                    "participants",
                    participants.isEmpty ? "not known (no participant key in the records)" : "\(participants.count)"
                ),
                (
                    "dates",
                    firstDate.map { "\($0) to \(lastDate ?? $0) (dates of the records that have them)" }
                        ?? "not recorded"
                ),
                ("results", "\(results)"),
                ("results with a warning", "\(withWarnings)"),
                ("recordings with repaired timestamps", "\(repaired)"),
                ("records that failed", "\(failed)"),
            ]
            var s = "<table class=\"facts\">"
            for (k, v) in rows { s += "<tr><th>\(SVGChart.escape(k))</th><td>\(SVGChart.escape(v))</td></tr>" }
            return s + "</table>\n"
        }

        /// Why records failed (each reason once, with its count and an example record) and the most common
        /// warnings (with their kinds).
        func problems() -> String {
            var s = "<h2 id=\"problems\">Failures and warnings</h2>\n"
            if failures.isEmpty {
                s += "<p class=\"note\">No record failed.</p>\n"
            } else {
                let top = failures.sorted {
                    $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
                }
                s +=
                    "<h3>Why \(failed) record\(failed == 1 ? "" : "s") failed (\(failures.count) reason\(failures.count == 1 ? "" : "s"))</h3>"
                s +=
                    "<table class=\"failures\"><tr><th>records</th><th>kind</th><th>reason (# for numbers that vary)</th>"
                s += "<th>for example</th></tr>"
                for (group, f) in top.prefix(30) {
                    s += "<tr><td class=\"num\">\(f.count)</td><td>\(SVGChart.escape(f.kind))</td>"
                    s += "<td>\(SVGChart.escape(group))</td><td class=\"meta\">\(SVGChart.escape(f.example))"
                    if f.reason != group { s += ": " + SVGChart.escape(f.reason) }
                    s += "</td></tr>"
                }
                s += "</table>\n"
                if top.count > 30 {
                    s +=
                        "<p class=\"note\">\(top.count - 30) more reasons: errors.jsonl lists every failed record.</p>\n"
                }
            }
            if warningCounts.isEmpty {
                s += "<p class=\"note\">No result carries a warning.</p>\n"
            } else {
                var kindsOf: [String: [String]] = [:]
                for kind in kindOrder {
                    for w in kinds[kind]?.warnings.keys ?? [:].keys { kindsOf[w, default: []].append(kind) }
                }
                let top = warningCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                s += "<h3>Most common warnings</h3>"
                s += "<table class=\"warnings\"><tr><th>results</th><th>kind</th><th>warning</th></tr>"
                for (w, n) in top.prefix(20) {
                    let kinds = (kindsOf[w] ?? []).joined(separator: ", ")
                    s +=
                        "<tr><td class=\"num\">\(n)</td><td>\(SVGChart.escape(kinds))</td><td>\(SVGChart.escape(w))</td></tr>"
                }
                s += "</table>\n"
                if top.count > 20 { s += "<p class=\"note\">\(top.count - 20) more distinct warnings.</p>\n" }
            }
            return s
        }

        func html() -> String {
            var s = contents()
            s += "<h2 id=\"overview\">Study overview</h2>\n"
            s += "<table class=\"overview\"><tr><th>record kind</th><th>ok</th><th>partial</th><th>failed</th></tr>"
            for k in byKind.keys.sorted() {
                let c = byKind[k] ?? (0, 0, 0)
                s +=
                    "<tr><td>\(SVGChart.escape(k))</td><td class=\"num\">\(c.ok)</td><td class=\"num\">\(c.partial)</td>"
                s += "<td class=\"num\">\(c.error)</td></tr>"
            }
            s += "</table>\n"
            s += studyFacts()
            s += problems()
            for kind in kindOrder { s += section(kind) }
            return s
        }

        /// One result kind's section: its counts, the summary table of its values, its figure(s), the headline
        /// measure per participant over time, its warnings, and the kind's own overview.
        func section(_ kind: String) -> String {
            guard let facts = kinds[kind] else { return "" }
            let analysis = AnalysisRegistry.analysis(forResultKind: kind)
            var s = "<h2 id=\"\(Self.anchor(kind))\">\(SVGChart.escape(kind))</h2>\n"
            s += "<p class=\"meta\">\(facts.results) result(s) from \(facts.records) record(s) · "
            s += "\(facts.participants.count) participant(s) · \(facts.withWarnings) with a warning</p>\n"
            s += summaryTable(facts)
            for distribution in analysis?.reportDistributions ?? [] {
                for (key, values) in facts.figures where key.name == distribution.key && values.count >= 2 {
                    s += histogram(label: distribution.label, unit: key.unit, values: values)
                }
            }
            if let headline = analysis?.reportDistributions.first {
                s += Self.trend(facts, label: headline.label)
            }
            if !facts.warnings.isEmpty {
                let top = facts.warnings.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                s +=
                    "<details class=\"measures\"><summary>\(top.count) distinct warning(s) of \(SVGChart.escape(kind))</summary>"
                s += "<table class=\"warnings\"><tr><th>results</th><th>warning</th></tr>"
                for (w, n) in top.prefix(10) {
                    s += "<tr><td class=\"num\">\(n)</td><td>\(SVGChart.escape(w))</td></tr>"
                }
                s += "</table></details>\n"
            }
            if let analysis, analysis.resultKinds.first == kind { s += analysis.reportOverview(retained) }
            return s
        }

        /// Per label and unit: n, median, IQR (R type 7) and range; a note when the kind gives no numbers.
        func summaryTable(_ facts: KindFacts) -> String {
            let rows = facts.rows.compactMap { row in facts.rowValues[row].map { (row, $0) } }
            guard !rows.isEmpty else {
                return "<p class=\"note\">No numeric measure to summarise (each record's values are below).</p>\n"
            }
            var s = "<table class=\"summary\"><tr><th>measure</th><th>unit</th><th>n</th><th>median</th>"
            s += "<th>IQR (Q1–Q3)</th><th>range</th></tr>"
            let text = { (v: Double) in SVGChart.escape(ResultEncoding.number(v, digits: 4)) }
            for (row, values) in rows {
                let q = RStatistics.quantiles(values.span, probabilities: [0, 0.25, 0.5, 0.75, 1])
                s += "<tr><td>\(SVGChart.escape(row.name))</td><td>\(SVGChart.escape(row.unit))</td>"
                s += "<td class=\"num\">\(values.count)</td><td class=\"num\">\(text(q[2]))</td>"
                s +=
                    "<td class=\"num\">\(text(q[1]))–\(text(q[3]))</td><td class=\"num\">\(text(q[0]))–\(text(q[4]))</td></tr>"
            }
            return s + "</table>\n"
        }

        func histogram(label: String, unit: String, values: [Double]) -> String {
            let title = unit.isEmpty || unit == "—" ? label : "\(label), \(unit)"
            var s = "<h3>\(SVGChart.escape(title)) (n = \(values.count))</h3>"
            var chart = SVGChart(
                title: title, xLabel: title, yLabel: "results",
                layers: [.bars(bins: SVGChart.histogram(values), color: "#4a7bb7", label: "")])
            chart.height = 200
            chart.showsTitle = false  // the heading above names it
            chart.integerY = true
            s += chart.render() + "\n"
            return s
        }
    }
}

extension HTMLReport.OverviewFacts {
    /// Up to this many participants the trend is small multiples (one panel each); beyond, one chart with a line
    /// per participant and the median per day (per ISO week over more than two months).
    static let smallMultiplesUpTo = 6
    /// At most this many participants' lines (those with the most values); the page says how many more there are.
    static let mostLines = 300

    /// Keeps at most `limit` points, evenly spaced.
    static func thin<T>(_ values: [T], limit: Int) -> [T] {
        guard values.count > limit, limit > 0 else { return values }
        let step = Double(values.count) / Double(limit)
        return (0..<limit).map { values[Int.clamped(Double($0) * step, to: 0...(values.count - 1))] }
    }

    /// The kind's headline measure per participant over time (per unit when its values come in several), or a
    /// note saying why there is none.
    static func trend(_ facts: KindFacts, label: String) -> String {
        let heading = "<h3>\(SVGChart.escape(label)) over time, per participant</h3>\n"
        guard !facts.trend.isEmpty else {
            return facts.undated > 0
                ? heading + "<p class=\"note\">No trend: none of the \(facts.undated) values has both a participant "
                    + "and a date.</p>\n" : ""
        }
        let days = facts.trend.map(\.day)
        guard let firstDay = days.min(), let lastDay = days.max(), lastDay > firstDay else {
            return heading + "<p class=\"note\">No trend: every value is from one day.</p>\n"
        }
        var s = heading
        if facts.undated > 0 {
            s += "<p class=\"note\">\(facts.undated) value(s) without a participant or a date are not drawn.</p>\n"
        }
        let units = Dictionary(grouping: facts.trend, by: \.unit).sorted { $0.value.count > $1.value.count }
        let xRange = Double(firstDay)...Double(lastDay)
        for (unit, points) in units {
            let title = unit.isEmpty || unit == "—" ? label : "\(label), \(unit)"
            var lines: [String: [(x: Double, y: Double)]] = [:]
            for p in points { lines[p.participant, default: []].append((x: Double(p.day), y: p.value)) }
            let byParticipant: [(String, [(x: Double, y: Double)])] = lines.map { participant, line in
                (participant, line.sorted { $0.x < $1.x })
            }.sorted { a, b in a.1.count != b.1.count ? a.1.count > b.1.count : a.0 < b.0 }
            let values = points.map(\.value)
            guard let lo = values.min(), let hi = values.max() else { continue }
            if units.count > 1 { s += "<p class=\"meta\">\(SVGChart.escape(unit)): \(points.count) values</p>\n" }
            if byParticipant.count <= smallMultiplesUpTo {
                // One panel per participant on shared axes.
                s += "<div class=\"multiples\">"
                for (participant, line) in byParticipant {
                    var chart = SVGChart(
                        title: participant, xLabel: "date", yLabel: title,
                        layers: [
                            .line(points: line, color: "#4a7bb7", label: ""),
                            .dots(points: line, color: "#4a7bb7", label: ""),
                        ])
                    chart.width = 340
                    chart.height = 170
                    chart.xDays = true
                    chart.xRange = xRange
                    chart.yRange = lo...hi
                    s += chart.render()
                }
                s += "</div>\n"
            } else {
                // A thin line per participant, and the median of each day across them.
                var layers: [SVGChart.Layer] = []
                for (i, (_, line)) in byParticipant.prefix(mostLines).enumerated() {
                    let label = i == 0 ? "participants (\(min(byParticipant.count, mostLines)))" : ""
                    layers.append(.line(points: thin(line, limit: 400), color: "#9db4d3", label: label))
                }
                // Over more than two months, the median of each ISO week (at its Monday), else of each day.
                let weekly = lastDay - firstDay > 62
                var perPeriod: [Int: [Double]] = [:]
                for p in points {
                    let period = weekly ? p.day - ((p.day + 3) % 7 + 7) % 7 : p.day
                    perPeriod[period, default: []].append(p.value)
                }
                let median = perPeriod.sorted { $0.key < $1.key }.map { day, v in
                    (x: Double(day), y: RStatistics.median(v))
                }
                layers.append(
                    .line(points: median, color: "#b8322a", label: weekly ? "median per week" : "median per day"))
                var chart = SVGChart(title: title, xLabel: "date", yLabel: title, layers: layers)
                chart.height = 280
                chart.showsTitle = false
                chart.xDays = true
                chart.xRange = xRange
                s += chart.render() + "\n"
                if byParticipant.count > mostLines {
                    s += "<p class=\"note\">\(byParticipant.count - mostLines) more participants with fewer values "
                    s += "are not drawn (participant_day.csv has every one).</p>\n"
                }
            }
        }
        return s
    }
}
