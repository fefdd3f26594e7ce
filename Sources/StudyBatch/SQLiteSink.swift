import ActiveTasks
import Foundation
import GRDB
import StudyInputs
import StudyOutputs

/// Writes a batch run's SQLite database (GRDB), inside one transaction.
///
/// Tables:
/// - `results`: one row per record with results: `source` (primary key), `contentHash`, `status` (`ok` or
///   `partial`), `kind`, `dialect`, the join keys, and `json` (the record's `results.jsonl` line).
/// - `errors`: one row per failed record: the same columns with `reason` instead of `status` (`json` is the
///   `errors.jsonl` line).
/// - one table per task kind (`walking`, `audio`, …) with the same columns as its CSV; key columns are TEXT,
///   processor columns hold integers, reals, text or NULL (a blank CSV cell).
/// - `run_log` (`seq`, `time`, `shard`, `event`, `detail`) and `run_info` (`key`, `value`).
struct SQLiteSink {
    let db: Database
    private var tables: Set<String> = []

    /// Creates the database at `path` (replacing a leftover partial file) and runs `body` in one transaction.
    /// - Throws: `body`'s errors; SQLite's as a ``BatchError`` naming the file (a full disk is an I/O error, 74; a
    ///   read-only or forbidden folder cannot be created, 73).
    static func session<T>(path: String, _ body: (inout SQLiteSink) throws -> T) throws -> T {
        do { return try unwrappedSession(path: path, body) } catch let error as DatabaseError {
            let cannotCreate: [ResultCode] = [.SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM]
            throw BatchError(
                "\(path): cannot write the database: \(error.message ?? error.resultCode.description)",
                kind: cannotCreate.contains(error.resultCode.primaryResultCode) ? .cannotCreate : .io)
        }
    }

    private static func unwrappedSession<T>(path: String, _ body: (inout SQLiteSink) throws -> T) throws -> T {
        let fm = FileManager.default
        for suffix in ["", "-journal", "-wal", "-shm"] { try? fm.removeItem(atPath: path + suffix) }
        let queue = try DatabaseQueue(path: path)
        let value = try queue.inDatabase { db -> T in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode=OFF")
            try db.execute(sql: "PRAGMA synchronous=OFF")
            var result: T?
            try db.inTransaction {
                var sink = SQLiteSink(db: db)
                try sink.createFixedTables()
                result = try body(&sink)
                return .commit
            }
            return result!
        }
        try queue.close()
        return value
    }

    init(db: Database) { self.db = db }

    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    mutating func createFixedTables() throws {
        let keys = RecordKeys.columns.map { Self.quote($0) + " TEXT" }.joined(separator: ", ")
        try db.execute(
            sql: """
                CREATE TABLE results (source TEXT PRIMARY KEY, contentHash TEXT NOT NULL, status TEXT NOT NULL, \
                kind TEXT, dialect TEXT, \(keys), json TEXT NOT NULL);
                CREATE TABLE errors (source TEXT PRIMARY KEY, contentHash TEXT NOT NULL, kind TEXT, dialect TEXT, \
                \(keys), reason TEXT NOT NULL, json TEXT NOT NULL);
                CREATE TABLE skipped (source TEXT PRIMARY KEY, contentHash TEXT NOT NULL, reason TEXT NOT NULL);
                CREATE TABLE run_log (seq INTEGER PRIMARY KEY, time TEXT NOT NULL, shard TEXT NOT NULL, \
                event TEXT NOT NULL, detail TEXT NOT NULL);
                CREATE TABLE run_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
    }

    /// Adds a record to `results` or `errors`.
    func insertRecord(_ entry: BatchEntry) throws {
        let keys: [(any DatabaseValueConvertible)?] = entry.keys.values.map { $0.isEmpty ? nil : $0 }
        switch entry.status {
        case .ok, .partial:
            let statement = try db.cachedStatement(sql: "INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?)")
            try statement.execute(
                arguments: StatementArguments(
                    [entry.source, entry.contentHash, entry.status.rawValue, entry.kind, entry.dialect] + keys + [
                        entry.line
                    ]))
        case .error:
            let statement = try db.cachedStatement(sql: "INSERT INTO errors VALUES (?,?,?,?,?,?,?,?,?,?)")
            try statement.execute(
                arguments: StatementArguments(
                    [entry.source, entry.contentHash, entry.kind, entry.dialect] + keys + [
                        entry.reason ?? "", entry.line,
                    ]))
        case .skipped:
            let statement = try db.cachedStatement(sql: "INSERT INTO skipped VALUES (?,?,?)")
            try statement.execute(arguments: [entry.source, entry.contentHash, entry.reason ?? ""])
        case .otherShard, .excluded:
            break
        }
    }

    /// Creates a task kind's table on first use.
    mutating func ensureTable(kind: String, columns: [String]) throws {
        guard tables.insert(kind).inserted else { return }
        let keyCount = BatchOutputs.keyColumns.count
        let definitions = columns.enumerated().map { i, name in Self.quote(name) + (i < keyCount ? " TEXT" : "") }
        try db.execute(sql: "CREATE TABLE \(Self.quote(kind)) (\(definitions.joined(separator: ", ")))")
    }

    /// Adds one CSV row to its kind's table, typing processor cells (integer, real, text; blank → NULL).
    func insertRow(kind: String, columns: [String], values: [String]) throws {
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ",")
        let statement = try db.cachedStatement(sql: "INSERT INTO \(Self.quote(kind)) VALUES (\(marks))")
        let keyCount = BatchOutputs.keyColumns.count
        let typed: [(any DatabaseValueConvertible)?] = values.enumerated().map { i, cell in
            if cell.isEmpty { return nil }
            if i < keyCount { return cell }
            if let n = Int64(cell) { return n }
            if let x = Double(cell), x.isFinite { return x }
            return cell
        }
        try statement.execute(arguments: StatementArguments(typed))
    }

    /// Gives a kind's table the declared types of `columns.csv` (``ColumnType``), once every row is in: the table is
    /// copied into one whose columns declare them (the cells keep the types they were stored with).
    func declareTypes(kind: String, columns: [String], types: [ColumnType]) throws {
        guard tables.contains(kind), columns.count == types.count else { return }
        let typed = Self.quote(kind + "_typed")
        let definitions = zip(columns, types).map { Self.quote($0) + " " + $1.sqlite }
        try db.execute(sql: "CREATE TABLE \(typed) (\(definitions.joined(separator: ", ")))")
        try db.execute(sql: "INSERT INTO \(typed) SELECT * FROM \(Self.quote(kind))")
        try db.execute(sql: "DROP TABLE \(Self.quote(kind))")
        try db.execute(sql: "ALTER TABLE \(typed) RENAME TO \(Self.quote(kind))")
    }

    /// Writes a study table (``StudyTables``) with its declared column types and its indexes; blank cells are NULL,
    /// cells of an untyped column are typed one by one (integer, real, text).
    func insertStudyTable(_ table: StudyTables.Table) throws {
        let definitions = table.columns.map { Self.quote($0.name) + ($0.type.isEmpty ? "" : " " + $0.type) }
        try db.execute(sql: "CREATE TABLE \(Self.quote(table.name)) (\(definitions.joined(separator: ", ")))")
        let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ",")
        let statement = try db.makeStatement(sql: "INSERT INTO \(Self.quote(table.name)) VALUES (\(marks))")
        for row in table.rows {
            let typed: [(any DatabaseValueConvertible)?] = zip(table.columns, row).map { column, cell in
                if cell.isEmpty { return nil }
                switch column.type {
                case "TEXT": return cell
                case "INTEGER": return Int64(cell) ?? cell
                case "REAL": return Double(cell) ?? cell
                default:
                    if let n = Int64(cell) { return n }
                    if let x = Double(cell), x.isFinite { return x }
                    return cell
                }
            }
            try statement.execute(arguments: StatementArguments(typed))
        }
        for (i, columns) in table.indexes.enumerated() {
            let name = Self.quote(table.name + "_index\(i + 1)")
            let list = columns.map(Self.quote).joined(separator: ", ")
            try db.execute(sql: "CREATE INDEX \(name) ON \(Self.quote(table.name)) (\(list))")
        }
    }

    /// Writes the run log and run facts.
    func finish(runLog: [BatchOutputs.LogEvent], runInfo: [(String, String)]) throws {
        let log = try db.cachedStatement(sql: "INSERT INTO run_log VALUES (?,?,?,?,?)")
        for (i, event) in runLog.enumerated() {
            try log.execute(arguments: [i + 1, event.time, event.shard, event.event, event.detail])
        }
        let info = try db.cachedStatement(sql: "INSERT OR REPLACE INTO run_info VALUES (?,?)")
        for (key, value) in runInfo { try info.execute(arguments: [key, value]) }
    }
}
