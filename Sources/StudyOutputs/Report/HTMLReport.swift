import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs

/// `taskproc report`: a self-contained HTML page (inline CSS and SVG, no scripts, no external assets) with, per
/// record, the key numbers and plots — the audiogram, the SPL time history with the threshold line, the walking
/// signal with the detected steps and the cadence over time, the tap timeline and the inter-tap-interval
/// histogram — and, for several records, a study overview.
///
/// Plots that need the raw recording (walking signal, taps) re-read the record's source file when it is still
/// at the path the result names; otherwise the page says so and plots what the result holds.
public enum HTMLReport {
    /// Reads results: an `analyze --format json` file (one result or an array), a batch `results.jsonl`
    /// (with `errors.jsonl` beside it), or a batch output folder.
    ///
    /// - Throws: ``ExportError`` naming the file and line that cannot be read.
    public static func load(path: String) throws -> [ReportRecord] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ExportError("\(path): no such file or folder")
        }
        if isDirectory.boolValue {
            let results = (path as NSString).appendingPathComponent("results.jsonl")
            guard FileManager.default.fileExists(atPath: results) else {
                throw ExportError("\(path): not a batch output folder (no results.jsonl)")
            }
            return try load(path: results)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw ExportError("\(path): cannot read") }
        if path.hasSuffix(".jsonl") {
            var records = try jsonLines(data, file: path)
            let errors = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
                "errors.jsonl")
            if path.hasSuffix("results.jsonl"), let more = FileManager.default.contents(atPath: errors) {
                records += try jsonLines(more, file: errors)
            }
            return records
        }
        let value: JSONValue
        do { value = try JSONParser.parse(data, file: path) } catch { throw ExportError("\(error)") }
        let objects: [JSONObject]
        switch value {
        case .object(let o): objects = [o]
        case .array(let items):
            objects = try items.map {
                guard let o = $0.objectValue else {
                    throw ExportError("\(path): a result is \($0.summary), not an object")
                }
                return o
            }
        default:
            throw ExportError("\(path): expected taskproc results (a JSON object or array), found \(value.summary)")
        }
        let source = objects.lazy.compactMap { $0["source"]?.stringValue ?? $0["file"]?.stringValue }.first ?? path
        return [ReportRecord(source: source, kind: objects.first?["kind"]?.stringValue, status: "ok", results: objects)]
    }

    static func jsonLines(_ data: Data, file: String) throws -> [ReportRecord] {
        try BatchRecordLine.read(data, file: file).map(record)
    }

    /// A batch line as a report record.
    static func record(_ line: BatchRecordLine) -> ReportRecord {
        // Batch's documented participant rule first; older outputs name the keys only.
        let participant =
            line.participant
            ?? ["healthCode", "ParticipantIdentifier", "participantIdentifier"].lazy.compactMap {
                line.keys?[$0]?.stringValue
            }.first
        return ReportRecord(
            source: line.source, kind: line.kind, status: line.status, reason: line.reason, results: line.results,
            participant: participant, startTime: line.startTime)
    }

    /// The page.
    ///
    /// - Parameters:
    ///   - records: What to show, in order.
    ///   - title: The page title.
    ///   - readSources: Re-read source files for the walking signal and tap plots.
    public static func render(_ records: [ReportRecord], title: String = "taskproc report", readSources: Bool = true)
        -> String
    {
        var facts = OverviewFacts()
        for record in records { facts.add(record) }
        var page = ""
        page += head(title: title, facts: facts)
        for (index, record) in records.enumerated() {
            page += section(record, index: index + 1, readSources: readSources, collapsed: facts.count > collapseAbove)
        }
        return page + tail
    }

    /// What a streamed page held.
    public struct Summary: Sendable {
        /// Records shown.
        public var records = 0
        /// Records by task kind (`unrecognised` for none).
        public var byKind: [String: Int] = [:]
        /// Bytes of HTML written.
        public var bytes = 0
    }

    /// Writes the page for the results at `path` (what ``load(path:)`` reads) through `write`, in pieces, without
    /// holding the records: a batch's `results.jsonl` and `errors.jsonl` are read twice, line by line — once for
    /// the study overview (only the numbers it draws, and the records of kinds whose overview reads them), once
    /// for the records' sections. The page is the one ``render(_:title:readSources:)`` makes of the same records.
    ///
    /// - Throws: ``ExportError`` for unreadable results; `write`'s errors.
    public static func render(
        path: String, title: String = "taskproc report", readSources: Bool = true, into write: (String) throws -> Void
    ) throws -> Summary {
        var summary = Summary()
        func emit(_ text: String) throws {
            summary.bytes += text.utf8.count
            try write(text)
        }
        guard let files = try lineFiles(path) else {
            let records = try load(path: path)
            var facts = OverviewFacts()
            for record in records { facts.add(record) }
            try emit(head(title: title, facts: facts))
            for (index, record) in records.enumerated() {
                try emit(
                    section(record, index: index + 1, readSources: readSources, collapsed: facts.count > collapseAbove))
            }
            try emit(tail)
            summary.records = records.count
            summary.byKind = facts.byKind.mapValues { $0.ok + $0.partial + $0.error }
            return summary
        }
        var facts = OverviewFacts()
        facts.keepsAll = false
        for file in files { try BatchRecordLine.forEach(path: file) { facts.add(record($0)) } }
        try emit(head(title: title, facts: facts))
        facts.retained = []
        var index = 0
        let collapsed = facts.count > collapseAbove
        for file in files {
            try BatchRecordLine.forEach(path: file) { line in
                index += 1
                try emit(section(record(line), index: index, readSources: readSources, collapsed: collapsed))
            }
        }
        try emit(tail)
        summary.records = facts.count
        summary.byKind = facts.byKind.mapValues { $0.ok + $0.partial + $0.error }
        return summary
    }

    /// The JSON Lines files a path stands for (a batch folder, `results.jsonl` with `errors.jsonl` beside it, or
    /// any `.jsonl`); nil for a JSON document.
    static func lineFiles(_ path: String) throws -> [String]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ExportError("\(path): no such file or folder")
        }
        var file = path
        if isDirectory.boolValue {
            file = (path as NSString).appendingPathComponent("results.jsonl")
            guard FileManager.default.fileExists(atPath: file) else {
                throw ExportError("\(path): not a batch output folder (no results.jsonl)")
            }
        }
        guard file.hasSuffix(".jsonl") else { return nil }
        let errors = ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent("errors.jsonl")
        return file.hasSuffix("results.jsonl") && FileManager.default.fileExists(atPath: errors)
            ? [file, errors] : [file]
    }

    /// The page up to the first record: title, count and the study overview.
    static func head(title: String, facts: OverviewFacts) -> String {
        var body = "<h1>\(SVGChart.escape(title))</h1>\n"
        body += "<p class=\"meta\">taskproc \(taskprocVersion) · \(facts.count) record(s)</p>\n"
        if facts.count > 1 { body += facts.html() }
        // Beyond this many records each record collapses to one line (a <details> element) that opens on its
        // warnings and headline values; the full tables and plots would make the page too heavy to load.
        if facts.count > collapseAbove {
            body +=
                "<h2 id=\"records\">Records</h2>\n<p class=\"note\">\(facts.count) records: click a line to see "
                + "its warnings and headline values. All measures and plots of one record: taskproc report on that "
                + "record alone (or on a smaller batch).</p>\n"
        } else if facts.count > 1 {
            body += "<h2 id=\"records\">Records</h2>\n"
        }
        return """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(SVGChart.escape(title))</title>
            <style>
            body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1100px}
            h1{font-size:22px}h2{font-size:17px;margin-top:32px;border-bottom:1px solid #ccc;padding-bottom:4px}
            h3{font-size:14px;margin:16px 0 6px}
            table{border-collapse:collapse;font-size:12px;margin:6px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
            td.num{text-align:right;font-variant-numeric:tabular-nums}.meta,.note{color:#666;font-size:12px}
            .status-error{color:#b00020}.status-partial{color:#b26a00}svg{display:block;margin:6px 0}
            ul.warnings{color:#8a5a00;font-size:12px;margin:4px 0 8px}table.headline td:first-child{font-weight:bold}
            details>summary{cursor:pointer;font-size:15px;margin-top:14px}details.measures>summary{font-size:12px;color:#444}
            nav.toc{font-size:13px;border:1px solid #ddd;padding:6px 14px;margin:10px 0}nav.toc ol{margin:4px 0;padding-left:20px}
            div.multiples{display:flex;flex-wrap:wrap;gap:4px}div.multiples svg{margin:0}
            </style></head>
            <body>

            """ + body
    }

    /// The end of the page.
    static let tail = "</body></html>\n"

    /// Above this many records, each record collapses to a line with its warnings and headline values inside.
    static let collapseAbove = 50

    // MARK: Records

    static func section(_ record: ReportRecord, index: Int, readSources: Bool, collapsed: Bool = false) -> String {
        let heading = "\(index). \(SVGChart.escape(record.source))"
        var s =
            collapsed
            ? "<details id=\"record-\(index)\"><summary>\(heading) · \(SVGChart.escape(record.status))</summary>\n"
            : "<h2 id=\"record-\(index)\">\(heading)</h2>\n"
        s += "<p class=\"meta\">kind: \(SVGChart.escape(record.kind ?? "unrecognised")) · status: "
        s += "<span class=\"status-\(SVGChart.escape(record.status))\">\(SVGChart.escape(record.status))</span></p>\n"
        if let reason = record.reason { s += "<p class=\"status-error\">\(SVGChart.escape(reason))</p>\n" }
        for result in record.results {
            let kind = result["kind"]?.stringValue ?? record.kind ?? "result"
            let step = result["stepIdentifier"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            s += "<h3>\(SVGChart.escape(step ?? kind))</h3>\n"
            let warnings = ReportHeadlines.warnings(result)
            if !warnings.isEmpty {
                s += "<ul class=\"warnings\">" + warnings.map { "<li>\(SVGChart.escape($0))</li>" }.joined() + "</ul>\n"
            }
            s += ReportHeadlines.table(result)
            guard !collapsed else { continue }
            s += numbers(result)
            s += AnalysisRegistry.analysis(forResultKind: kind)?.reportPlots(result, readSources: readSources) ?? ""
        }
        return collapsed ? s + "</details>\n" : s
    }

    /// A table of every scalar measure of the result (not the per-frequency details, which the audiometry table
    /// shows; the JSON has all), under a collapsed "all N measures" line: the headline table above it is what a
    /// reader sees first.
    static func numbers(_ result: JSONObject) -> String {
        let scalars = ExportRecord(json: result).scalars.filter {
            $0.value != nil && $0.name.split(separator: ".").count <= 2
        }
        // Scored tasks carry each score's unit (`units`): shown beside the value.
        let units = result["units"]?.objectValue
        let shown = scalars.filter { units == nil || !$0.name.hasPrefix("units.") }
        guard !shown.isEmpty else { return "" }
        var s = "<details class=\"measures\"><summary>all \(shown.count) measures</summary>"
        s +=
            "<table class=\"numbers\"><tr><th>measure</th><th>value</th>" + (units == nil ? "" : "<th>unit</th>")
            + "</tr>"
        for (name, value) in shown {
            guard let value else { continue }
            s +=
                "<tr><td>\(SVGChart.escape(name))</td><td class=\"num\">\(ResultEncoding.number(value, digits: 6))</td>"
            if let units { s += "<td>\(SVGChart.escape(units[name]?.stringValue ?? ""))</td>" }
            s += "</tr>"
        }
        return s + "</table></details>\n"
    }
}
