import Foundation

/// Reads MyDataHelps `SurveyTappingIntervalResults.csv`: one ``TappingRecording`` per row, with the row's
/// join keys (and ``TappingRecording/recordKey`` set to `SurveyTappingIntervalResultKey`, else `SurveyResultKey`).
///
/// Columns (matched by header, ignoring case; others ignored):
/// - required: `ParticipantIdentifier`, `SurveyResultKey`, `Taps`;
/// - optional: `SurveyTappingIntervalResultKey`, `SurveyStepResultKey`, `ButtonRect1`, `ButtonRect2`,
///   `StepViewSize`, `StartDate`, `EndDate`.
///
/// MyDataHelps does not document the JSON inside the cells, so the reader accepts the ResearchKit shapes in
/// either ResearchKit or PascalCase spelling (keys match ignoring case):
/// - `ButtonRect1`/`ButtonRect2` (points): `{"origin":{"x","y"},"size":{"w","h"}}` (ResearchKit `CGRect`;
///   `width`/`height` also accepted), flat `{"X","Y","Width","Height"}`, or the string `"{{x, y}, {w, h}}"`.
///   `ButtonRect1` is the left button, `ButtonRect2` the right one.
/// - `StepViewSize` (points): `{"w","h"}`, `{"Width","Height"}` or `"{w, h}"`.
/// - `Taps`: a JSON array (or an object holding it under `samples`/`Taps`) of tap objects with
///   `timestamp` (also `TapTimeStamp`; s since the first tap), optional `duration` (s), `buttonIdentifier`
///   (also `button`, `buttonId`, `TappedButtonId`: `left|right|none`, the mPower `TappedButton…` names, or
///   ResearchKit's integer 0 none / 1 left / 2 right) and `location` (also `TapCoordinate`; a point as
///   `{"x","y"}` or `"{x, y}"`).
/// - `StartDate`/`EndDate`: ISO 8601 date-times with a UTC offset.
///
/// Blank or `null` geometry cells give nil; a blank `Taps` cell gives a recording without samples. A row whose
/// cells do not fit fails on its own (``MyDataHelpsRow/result``) with the cell's location; a missing required
/// column or malformed CSV fails the whole file.
public enum MyDataHelpsTappingResults {
    /// Reads the CSV (or `.csv.gz`) file at `path`.
    /// - Throws: ``InputError`` for file-level problems (unreadable, CSV syntax, missing required column).
    public static func read(path: String) throws(InputError) -> [MyDataHelpsRow<TappingRecording>] {
        try decode(try CSVTable.read(path: path, header: .present, ragged: .setAside))
    }

    /// Decodes CSV bytes held in memory; `file` names them in errors.
    public static func decode(_ data: Data, file: String) throws(InputError) -> [MyDataHelpsRow<TappingRecording>] {
        try decode(try CSVTable.parse(data, file: file, header: .present, ragged: .setAside))
    }

    /// Decodes a parsed table (which must have a header).
    public static func decode(_ table: CSVTable) throws(InputError) -> [MyDataHelpsRow<TappingRecording>] {
        let t = try MyDataHelpsTable(table, resultKeyColumn: "SurveyTappingIntervalResultKey")
        let columns = Columns(
            taps: try table.requireColumn(namedAnyOf: ["Taps"]), left: table.columnIndex(named: "ButtonRect1"),
            right: table.columnIndex(named: "ButtonRect2"), viewSize: table.columnIndex(named: "StepViewSize"),
            start: table.columnIndex(named: "StartDate"), end: table.columnIndex(named: "EndDate"))
        let rows = (0..<table.rowCount).map { row in
            let result: Result<TappingRecording, InputError>
            do throws(InputError) {
                try t.checkKeys(row: row)
                var decoded = try recording(t, row: row, columns)
                let keys = t.keys(row: row)
                decoded.recordKey = keys.resultKey ?? keys.surveyResultKey
                result = .success(decoded)
            } catch {
                result = .failure(error)
            }
            return MyDataHelpsRow(keys: t.keys(row: row), line: table.line(ofRow: row), result: result)
        }
        return rows.withRaggedRows(of: table)
    }

    private struct Columns {
        var taps: Int
        var left, right, viewSize, start, end: Int?
    }

    private static func recording(_ t: MyDataHelpsTable, row: Int, _ c: Columns) throws(InputError) -> TappingRecording
    {
        let table = t.table
        func geometry<G>(_ column: Int?, _ shapes: String, _ read: (JSONValue) -> G?) throws(InputError) -> G? {
            guard let value = try t.json(row: row, column: column), let column else { return nil }
            guard let g = read(value) else {
                throw table.cellError(row: row, column: column, path: "$", expected: shapes, found: value.summary)
            }
            return g
        }
        let left = try geometry(c.left, MyDataHelpsShapes.rectShapes, MyDataHelpsShapes.rect)
        let right = try geometry(c.right, MyDataHelpsShapes.rectShapes, MyDataHelpsShapes.rect)
        let viewSize = try geometry(c.viewSize, MyDataHelpsShapes.sizeShapes, MyDataHelpsShapes.size)
        let start = try t.date(row: row, column: c.start)
        let end = try t.date(row: row, column: c.end)

        var samples: [TapSample] = []
        if let value = try t.json(row: row, column: c.taps) {
            var root = "$"
            var list = value
            if let o = value.objectValue, let inner = MyDataHelpsShapes.field(o, ["samples", "taps"]) {
                root = "$." + inner.key
                list = inner.value
            }
            guard let items = list.arrayValue else {
                throw table.cellError(
                    row: row, column: c.taps, path: root, expected: "an array of tap objects", found: list.summary)
            }
            samples.reserveCapacity(items.count)
            for (k, item) in items.enumerated() {
                samples.append(try tap(item, table: table, row: row, column: c.taps, path: "\(root)[\(k)]"))
            }
        }
        return TappingRecording(
            samples: samples, leftButton: left, rightButton: right, viewSize: viewSize, startDate: start, endDate: end)
    }

    private static func tap(_ item: JSONValue, table: CSVTable, row: Int, column: Int, path: String) throws(InputError)
        -> TapSample
    {
        func fail(_ at: String, _ expected: String, _ found: String, _ message: String? = nil) -> InputError {
            table.cellError(row: row, column: column, path: at, expected: expected, found: found, message: message)
        }
        guard let o = item.objectValue else { throw fail(path, "a tap object", item.summary) }
        func required(_ names: [String]) throws(InputError) -> (key: String, value: JSONValue) {
            guard let f = MyDataHelpsShapes.field(o, names) else {
                throw fail(
                    path, "field \"\(names[0])\" (or \(names.dropFirst().joined(separator: ", ")))",
                    "an object with keys \(o.keys.joined(separator: ", "))")
            }
            return f
        }
        let t = try required(["timestamp", "TapTimeStamp"])
        guard let timestamp = t.value.numberValue else {
            throw fail(path + "." + t.key, "a number (s)", t.value.summary)
        }
        var duration: Double?
        if let d = MyDataHelpsShapes.field(o, ["duration"]), d.value != .null {
            guard let v = d.value.numberValue else { throw fail(path + "." + d.key, "a number (s)", d.value.summary) }
            duration = v
        }
        let b = try required(["buttonIdentifier", "button", "buttonId", "TappedButtonId"])
        guard let button = TapSpellings.button(b.value) else {
            throw fail(
                path + "." + b.key, "left, right, none, TappedButton… or 0/1/2", b.value.summary, "unknown tap button")
        }
        let l = try required(["location", "TapCoordinate", "coordinate"])
        guard let location = MyDataHelpsShapes.point(l.value) else {
            throw fail(path + "." + l.key, MyDataHelpsShapes.pointShapes, l.value.summary)
        }
        return TapSample(timestamp: timestamp, duration: duration, button: button, location: location)
    }
}
