import Foundation

/// Reads a tap table in mhealthtools' `tap_data` layout, a CSV with header `t,x,y,buttonid`, into a
/// ``TappingRecording``.
///
/// Columns (matched by header name, ignoring case; extra columns ignored): `t` (also `timestamp`,
/// `TapTimeStamp`), s since the first tap; `x`, `y`, points; `buttonid` (also `TappedButtonId`, `button`):
/// `TappedButtonLeft|Right|None` or `left|right|none`. Rows keep the recorded order: backwards and repeated
/// timestamps (the mhealthtools sample has 18 and 2) are data for the processor, not errors here. Durations,
/// button frames and view size are not in this layout and stay nil.
public enum MHealthToolsTapTable {
    /// Reads the CSV (or `.csv.gz`) file at `path`.
    /// - Throws: ``InputError``: CSV syntax (`.syntax`), a missing column, a non-numeric `t`/`x`/`y` cell or an
    ///   unknown button (`.schema`, at `line L, column C`).
    public static func read(path: String) throws(InputError) -> TappingRecording {
        try decode(try CSVTable.read(path: path, header: .present))
    }

    /// Decodes CSV bytes held in memory; `file` names them in errors.
    public static func decode(_ data: Data, file: String) throws(InputError) -> TappingRecording {
        try decode(try CSVTable.parse(data, file: file, header: .present))
    }

    /// Decodes a parsed table (which must have a header).
    public static func decode(_ table: CSVTable) throws(InputError) -> TappingRecording {
        let tc = try table.requireColumn(namedAnyOf: ["t", "timestamp", "TapTimeStamp"])
        let xc = try table.requireColumn(namedAnyOf: ["x"])
        let yc = try table.requireColumn(namedAnyOf: ["y"])
        let bc = try table.requireColumn(namedAnyOf: ["buttonid", "TappedButtonId", "button"])
        let t = try table.numbers(column: tc)
        let x = try table.numbers(column: xc)
        let y = try table.numbers(column: yc)
        var samples: [TapSample] = []
        samples.reserveCapacity(table.rowCount)
        for row in 0..<table.rowCount {
            guard let button = TapSpellings.button(table.string(row: row, column: bc)) else {
                throw table.cellError(
                    row: row, column: bc, expected: TapSpellings.acceptedButtons,
                    found: table.quoted(row: row, column: bc),
                    message: "unknown TappedButtonId")
            }
            samples.append(
                TapSample(timestamp: t[row], duration: nil, button: button, location: ViewPoint(x: x[row], y: y[row])))
        }
        return TappingRecording(samples: samples)
    }
}
