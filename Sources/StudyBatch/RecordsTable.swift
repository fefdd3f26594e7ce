import Foundation
import StudyInputs

/// A study's own record table (`--records-table FILE`: a Synapse or Bridge table export, a REDCap report), whose
/// columns are added to every row of every per-kind CSV and SQLite table of the record it describes.
///
/// A row describes the record whose `recordId` (else `taskRunUUID`) is the row's cell in the key column
/// (`--records-table-key`, default `recordId`). The table is read when the outputs are written, so `summarize`
/// reads it again (an updated table updates the outputs).
public struct RecordsTable: Sendable {
    /// The table's file.
    public let path: String
    /// The key column.
    public let key: String
    /// The added columns, in the table's order without the key: the table's names, `records_<name>` where a name
    /// is already a column of the outputs (ignoring case, as SQLite compares names).
    public let columns: [String]
    /// The table's own column name of each of ``columns``.
    public let sourceColumns: [String]
    /// Rows by key: the cells of ``columns``.
    let rows: [String: [String]]

    /// Reads the table.
    /// - Parameters:
    ///   - path: The CSV file (RFC 4180, UTF-8, a header row; `.csv.gz` too).
    ///   - key: The key column's name.
    ///   - taken: Column names of the outputs, to keep the added names apart.
    /// - Throws: ``BatchError``: the file is missing (66) or not CSV, has no column `key`, or two rows with the same
    ///   key and different cells (which one describes the record would be a guess).
    public static func load(path: String, key: String, taken: Set<String>) throws -> RecordsTable {
        guard FileManager.default.fileExists(atPath: path) else {
            throw BatchError("\(path): no such records table (--records-table)", kind: .noInput)
        }
        let table: CSVTable
        do { table = try CSVTable.read(path: path, header: .present) } catch {
            throw BatchError("--records-table: \(error.description)")
        }
        let header = table.header ?? []
        guard let keyIndex = header.firstIndex(of: key) else {
            throw BatchError(
                "\(path): no column \"\(key)\" to match records by (--records-table-key; the columns are "
                    + header.prefix(12).joined(separator: ", ") + (header.count > 12 ? ", …" : "") + ")")
        }
        var claimed = ColumnNames(taken: taken)
        let cellColumns = header.indices.filter { $0 != keyIndex }
        let sources = cellColumns.map { header[$0] }
        let names = sources.map { claimed.claim($0) { "records_" + $0 } }
        var rows: [String: [String]] = [:]
        rows.reserveCapacity(table.rowCount)
        for row in 0..<table.rowCount {
            let id = table.string(row: row, column: keyIndex)
            guard !id.isEmpty else { continue }
            let cells = cellColumns.map { table.string(row: row, column: $0) }
            if let earlier = rows[id], earlier != cells {
                throw BatchError(
                    "\(path): \(key) \(id) is on two rows with different cells (line \(table.line(ofRow: row))); "
                        + "which describes the record cannot be told")
            }
            rows[id] = cells
        }
        return RecordsTable(path: path, key: key, columns: names, sourceColumns: sources, rows: rows)
    }

    /// The cells for a record: the row whose key is its `recordId`, else its `taskRunUUID`; nil when none is.
    func cells(for keys: RecordKeys) -> [String]? {
        for id in [keys.recordId, keys.taskRunUUID].compactMap({ $0 }) where !id.isEmpty {
            if let row = rows[id] { return row }
        }
        return nil
    }

    /// The rows of the table.
    public var rowCount: Int { rows.count }
}
