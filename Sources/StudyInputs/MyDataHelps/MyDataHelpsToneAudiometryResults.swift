import Foundation

/// One legacy tone-audiometry run from MyDataHelps (`ORKToneAudiometryResult`): the presentations and the
/// playback volume.
public struct MyDataHelpsToneAudiometry: Sendable, Hashable {
    /// Presentations in the order written; `amplitude` is a 0–1 digital amplitude, **not** dB HL.
    public var samples: [ToneAudiometrySample]
    /// Device output volume during the test, 0–1 as written; nil when the column is absent or blank.
    public var outputVolume: Double?
    /// When the step started, when known.
    public var startDate: ResultDate?
    /// When the step ended, when known.
    public var endDate: ResultDate?

    /// Creates a run.
    public init(
        samples: [ToneAudiometrySample], outputVolume: Double? = nil, startDate: ResultDate? = nil,
        endDate: ResultDate? = nil
    ) {
        self.samples = samples
        self.outputVolume = outputVolume
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// Reads MyDataHelps `SurveyToneAudiometryResults.csv`: one ``MyDataHelpsToneAudiometry`` per row, with the
/// row's join keys.
///
/// Columns (matched by header, ignoring case; others ignored):
/// - required: `ParticipantIdentifier`, `SurveyResultKey`, `Samples`;
/// - optional: `SurveyToneAudiometryResultKey`, `SurveyStepResultKey`, `OutputVolume` (0–1), `StartDate`,
///   `EndDate`.
///
/// `Samples` is a JSON array in the cell, e.g.
/// `[{"Amplitude":0.00885,"Channel":"Left","ChannelSelected":"Left","Frequency":250.0},…]`. Keys match
/// ignoring case (ResearchKit's `amplitude`, `channel`, … too). `Frequency` (Hz) and `Amplitude` (0–1) are
/// numbers; `Channel` is `Left`/`Right` (any case) or ResearchKit's 0/1 → 0/1; `ChannelSelected` likewise,
/// with a missing key, `null`, `""`, `None` or −1 meaning no press → −1. A blank `Samples` cell gives a run
/// without samples. Row errors stay in the row (``MyDataHelpsRow/result``).
public enum MyDataHelpsToneAudiometryResults {
    /// Reads the CSV (or `.csv.gz`) file at `path`.
    /// - Throws: ``InputError`` for file-level problems (unreadable, CSV syntax, missing required column).
    public static func read(path: String) throws(InputError) -> [MyDataHelpsRow<MyDataHelpsToneAudiometry>] {
        try decode(try CSVTable.read(path: path, header: .present, ragged: .setAside))
    }

    /// Decodes CSV bytes held in memory; `file` names them in errors.
    public static func decode(_ data: Data, file: String) throws(InputError)
        -> [MyDataHelpsRow<MyDataHelpsToneAudiometry>]
    {
        try decode(try CSVTable.parse(data, file: file, header: .present, ragged: .setAside))
    }

    /// Decodes a parsed table (which must have a header).
    public static func decode(_ table: CSVTable) throws(InputError) -> [MyDataHelpsRow<MyDataHelpsToneAudiometry>] {
        let t = try MyDataHelpsTable(table, resultKeyColumn: "SurveyToneAudiometryResultKey")
        let samplesColumn = try table.requireColumn(namedAnyOf: ["Samples"])
        let volume = table.columnIndex(named: "OutputVolume")
        let start = table.columnIndex(named: "StartDate")
        let end = table.columnIndex(named: "EndDate")
        let rows = (0..<table.rowCount).map { row in
            let result: Result<MyDataHelpsToneAudiometry, InputError>
            do throws(InputError) {
                try t.checkKeys(row: row)
                var run = MyDataHelpsToneAudiometry(
                    samples: [], startDate: try t.date(row: row, column: start),
                    endDate: try t.date(row: row, column: end))
                if let volume, !table.isBlank(row: row, column: volume) {
                    run.outputVolume = try table.number(row: row, column: volume)
                }
                run.samples = try samples(t, row: row, column: samplesColumn)
                result = .success(run)
            } catch {
                result = .failure(error)
            }
            return MyDataHelpsRow(keys: t.keys(row: row), line: table.line(ofRow: row), result: result)
        }
        return rows.withRaggedRows(of: table)
    }

    private static func samples(_ t: MyDataHelpsTable, row: Int, column: Int) throws(InputError)
        -> [ToneAudiometrySample]
    {
        let table = t.table
        guard let value = try t.json(row: row, column: column) else { return [] }
        guard let items = value.arrayValue else {
            throw table.cellError(
                row: row, column: column, path: "$", expected: "an array of tone samples", found: value.summary)
        }
        var out: [ToneAudiometrySample] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            let path = "$[\(k)]"
            func fail(_ at: String, _ expected: String, _ found: String) -> InputError {
                table.cellError(row: row, column: column, path: at, expected: expected, found: found)
            }
            guard let o = item.objectValue else { throw fail(path, "a tone sample object", item.summary) }
            func number(_ name: String, _ unit: String) throws(InputError) -> Double {
                guard let f = MyDataHelpsShapes.field(o, [name]) else {
                    throw fail(path, "field \"\(name)\"", "an object with keys \(o.keys.joined(separator: ", "))")
                }
                guard let v = f.value.numberValue else {
                    throw fail(path + "." + f.key, "a number (\(unit))", f.value.summary)
                }
                return v
            }
            let frequency = try number("Frequency", "Hz")
            let amplitude = try number("Amplitude", "0–1 of full scale")
            guard let c = MyDataHelpsShapes.field(o, ["Channel"]) else {
                throw fail(path, "field \"Channel\"", "an object with keys \(o.keys.joined(separator: ", "))")
            }
            guard let channel = ear(c.value), channel >= 0 else {
                throw fail(path + "." + c.key, "\"Left\" or \"Right\" (or 0/1)", c.value.summary)
            }
            var selected = -1
            if let s = MyDataHelpsShapes.field(o, ["ChannelSelected"]) {
                guard let v = ear(s.value) else {
                    throw fail(path + "." + s.key, "\"Left\", \"Right\", \"None\" (or 0/1/−1)", s.value.summary)
                }
                selected = v
            }
            out.append(
                ToneAudiometrySample(
                    frequency: frequency, channel: channel, channelSelected: selected, amplitude: amplitude))
        }
        return out
    }

    /// Left → 0, right → 1, no press (`null`, `""`, `None`, −1) → −1; nil for anything else.
    private static func ear(_ v: JSONValue) -> Int? {
        switch v {
        case .null: return -1
        case .number(let d): return d == 0 ? 0 : d == 1 ? 1 : d == -1 ? -1 : nil
        case .string(let s):
            switch s.trimmingCharacters(in: .whitespaces).lowercased() {
            case "left": return 0
            case "right": return 1
            case "", "none": return -1
            default: return nil
            }
        default: return nil
        }
    }
}
