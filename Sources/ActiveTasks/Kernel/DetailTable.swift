import Foundation

/// A per-event table of one result, written by `batch` beside the kinds' CSVs.
///
/// Walking's `steps.csv` has one row per step. Each kind declares its own (``TaskAnalysis/detailTables(of:)``);
/// columns in `docs/batch.md`.
public struct DetailTable: Sendable, Hashable {
    /// The table's name: the CSV's base name and the SQLite table (`steps`).
    public var name: String
    /// The columns, after batch's key columns.
    public var header: [String]
    /// The rows, one cell per column of ``header``.
    public var rows: [[String]]

    /// Creates a table.
    public init(name: String, header: [String], rows: [[String]]) {
        self.name = name
        self.header = header
        self.rows = rows
    }
}

extension TaskAnalysis {
    /// The detail tables of `result` when it is this analysis's result type; none otherwise.
    public static func detailTables(ofAny result: any RenderableResult) -> [DetailTable] {
        guard let typed = result as? Result else { return [] }
        return detailTables(of: typed)
    }
}
