import ActiveTasks
import Foundation
import StudyInputs

/// The type of a CSV column, as `columns.csv` declares it.
///
/// What every non-blank cell of the column in this run reads as (`docs/batch.md`, "`columns.csv`"). A blank cell is
/// null in every type.
public enum ColumnType: String, Sendable, CaseIterable {
    /// Whole numbers (DuckDB `BIGINT`, SQLite `INTEGER`).
    case integer
    /// Numbers (DuckDB `DOUBLE`, SQLite `REAL`); a column of whole numbers and fractions is real.
    case real
    /// `true` or `false` (DuckDB `BOOLEAN`; SQLite stores the words).
    case boolean
    /// ISO 8601 date-times with an offset, `2024-05-03T09:00:00-04:00` (DuckDB `TIMESTAMPTZ`; SQLite stores the text).
    case timestamp
    /// Anything else (DuckDB `VARCHAR`, SQLite `TEXT`).
    case text

    /// The SQLite declared type.
    var sqlite: String {
        switch self {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .boolean: "BOOLEAN"
        case .timestamp: "TIMESTAMP"
        case .text: "TEXT"
        }
    }

    /// The type one cell reads as; nil for a blank cell.
    static func of(cell: String) -> ColumnType? {
        if cell.isEmpty { return nil }
        if cell == "true" || cell == "false" { return .boolean }
        if Int64(cell) != nil { return .integer }
        // Decimal notation only (Swift also reads hexadecimal floats and `nan`, which other readers do not).
        let decimal = cell.utf8.allSatisfy { c in
            (0x30...0x39).contains(c) || c == 0x2E || c == 0x2D || c == 0x2B || c == 0x65 || c == 0x45
        }
        if decimal, let x = Double(cell), x.isFinite { return .real }
        // An offset with a colon (`-04:00`) or `Z` ends it: the third byte from the end is the colon.
        let utf8 = cell.utf8
        let colon = utf8.count >= 3 && utf8[utf8.index(utf8.endIndex, offsetBy: -3)] == UInt8(ascii: ":")
        if utf8.count >= 20, utf8.last == UInt8(ascii: "Z") || colon, ResultDate(cell) != nil { return .timestamp }
        return .text
    }

    /// The type of a column holding cells of both types.
    static func join(_ a: ColumnType?, _ b: ColumnType?) -> ColumnType? {
        guard let a else { return b }
        guard let b, a != b else { return a }
        if Set([a, b]) == [.integer, .real] { return .real }
        return .text
    }
}

/// The column types of the CSVs a run writes, from their cells (``ColumnType``).
struct ColumnTypes {
    private var seen: [String: [ColumnType?]] = [:]

    /// Adds one row of `kind`'s CSV.
    mutating func add(kind: String, row: [String]) {
        // Mutated in place (a copy taken out of the dictionary would be copied again on every row), and a column
        // already text is not looked at again: nothing can change it.
        Self.add(row, to: &seen[kind, default: []])
    }

    private static func add(_ row: [String], to types: inout [ColumnType?]) {
        if types.count < row.count { types += Array(repeating: nil, count: row.count - types.count) }
        for (i, cell) in row.enumerated() where !cell.isEmpty && types[i] != .text {
            let type = ColumnType.of(cell: cell)
            if types[i] != type { types[i] = ColumnType.join(types[i], type) }
        }
    }

    /// The type of `kind`'s column `index` named `name`.
    ///
    /// The key columns are text (`startTime` a timestamp), the others what their cells read as. A column blank in every row of the run is typed by what it is: `flag_*` boolean,
    /// another column real when its article gives it a unit other than `—` (a measure no record had), else text.
    func type(kind: String, index: Int, name: String) -> ColumnType {
        let found = seen[kind].flatMap { index < $0.count ? $0[index] : nil }
        if name == "startTime" { return found == nil || found == .timestamp ? .timestamp : .text }
        // The join keys are names, even when a study's are all digits.
        if index < BatchOutputs.keyColumns.count { return .text }
        if let found { return found }
        if QualityFlags.columns.contains(name) { return .boolean }
        if name == RecordAnalysis.taskAnswersColumn { return .text }
        if let unit = ColumnDictionary.entry(kind: kind, column: name)?.unit, !unit.isEmpty, unit != "—" {
            return .real
        }
        return .text
    }
}
