import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

/// Writes a batch run's output files from its journals, in source order, atomically.
///
/// Files (in the output folder): `results.jsonl` (ok and partial records), `errors.jsonl` (failed records),
/// `<kind>.csv` per task kind, `columns.csv` (the unit and definition of every column of those CSVs, from
/// ``ColumnDictionary``), `taskproc.sqlite`, and `export.<format>.jsonl` when the run exports. Each is written to `<name>.partial` and renamed into
/// place, so a reader (or a killed run) never sees half a file. The content depends only on the set of journal
/// entries, not on their order, the number of workers or shards: a resumed or merged run writes the same bytes
/// (the SQLite `run_log` table holds the only timestamps).
public enum BatchOutputs {
    /// Columns that start every CSV row and per-kind SQLite table, before the processor's columns: the record,
    /// its join keys, ``recordColumns`` and its status.
    public static let keyColumns =
        ["recordSource", "contentHash"] + RecordKeys.columns + recordColumns + ["status", "error"]

    /// The columns derived from the record when the outputs are written: `participant` (``RecordKeys/participant``),
    /// `date` (the local date of the task run's start) and `startTime` (ISO 8601 with the device's offset); blank
    /// when the record names none.
    public static let recordColumns = ["participant", "date", "startTime"]

    /// The key columns a journal entry's rows start with (``keyColumns`` without ``recordColumns``, which are
    /// derived when the outputs are written, so a journal of any version gives the same columns).
    static let storedKeyColumns = ["recordSource", "contentHash"] + RecordKeys.columns + ["status", "error"]

    /// A journal row with ``recordColumns`` inserted after the join keys.
    static func expanded(_ row: [String], entry: BatchEntry) -> [String] {
        let split = 2 + RecordKeys.columns.count
        guard row.count >= split else { return row }
        var out: [String] = []
        out.reserveCapacity(row.count + recordColumns.count)
        out += row[..<split]
        out += [entry.keys.participant ?? "", entry.date ?? "", entry.startTime ?? ""]
        out += row[split...]
        return out
    }

    /// A processor's header with any name that clashes with a key column prefixed by `result_`; names are compared
    /// ignoring case, as SQLite compares column names (the survey's `participantIdentifier` and the key column
    /// `ParticipantIdentifier` are one name to it).
    static func processorColumns(_ header: [String]) -> [String] {
        header.map { keyColumnsLowercased.contains($0.lowercased()) ? "result_" + $0 : $0 }
    }

    private static let keyColumnsLowercased = Set(keyColumns.map { $0.lowercased() })

    /// Counts of what was written.
    public struct Counts: Sendable, Hashable, Codable {
        /// Records with results (ok or partial).
        public var succeeded = 0
        /// Of those, records with some part unreadable.
        public var partial = 0
        /// Failed records.
        public var failed = 0
        /// Records skipped as not data (``BatchEntry/Status/skipped``), listed in `skipped.csv`.
        public var notData = 0
        /// Result rows per task kind.
        public var rowsByKind: [String: Int] = [:]
        /// Records written to the export file.
        public var exported = 0
        /// Records with results that could not be exported, with why (source first), in source order.
        public var exportErrors: [String] = []
        /// Export notes, such as FHIR measures without a code, counted by text (the record's source as
        /// `<record>`).
        public var exportNotes: [String: Int] = [:]
        /// Columns of the written CSVs that the documentation does not define (`file: column`), in `columns.csv`
        /// order; `columns.csv` gives them the definition ``ColumnDictionary/undocumented``.
        public var undocumentedColumns: [String] = []
        /// Consent documents written to `consent/` (``ConsentArtefacts``); nil without `--consent-contract`.
        public var consentDocuments: Int?
        /// With `--records-table`: how many records found their row.
        public var recordsTable: RecordsTableCounts?

        /// How a records table matched.
        public struct RecordsTableCounts: Sendable, Hashable, Codable {
            /// Records with results that found their row.
            public var matched: Int
            /// Records with results.
            public var records: Int
            /// Rows of the table.
            public var rows: Int
        }
        /// Creates zero counts.
        public init() {}
    }

    /// One line of the run log.
    public struct LogEvent: Sendable, Hashable, Codable {
        /// ISO 8601 time, UTC.
        public var time: String
        /// Which shard's run wrote it (`K/N`), or empty for a single run.
        public var shard: String
        /// What happened: `start`, `resume`, `discovered`, `finished`, `merge`, `summarize`.
        public var event: String
        /// Details in words.
        public var detail: String

        /// Creates an event at the current time.
        public init(shard: String, event: String, detail: String, time: Date = Date()) {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            self.time = formatter.string(from: time)
            self.shard = shard
            self.event = event
            self.detail = detail
        }
    }

    struct IndexItem {
        var source: String
        var journal: Int
        var start: Int
        var end: Int
        /// Kinds whose CSV rows in this entry have a processor header, as bits of the writer's kind table (an
        /// index entry stays a few tens of bytes: it is kept for every record of the run).
        var kinds: UInt64
    }

    /// The output file names this writer may create (for `--force` cleanup), given the kinds present.
    public static func fixedFileNames() -> [String] {
        ["results.jsonl", "errors.jsonl", skippedFileName, "taskproc.sqlite", columnsFileName]
            + StudyTables.names.map { $0 + ".csv" }
    }

    /// The name of the column dictionary written beside the CSVs.
    public static let columnsFileName = "columns.csv"

    /// The rows of `columns.csv` for CSVs of `kinds` with the given columns: `file`, `column`, `unit`,
    /// `definition`, by file name, then in the file's column order; and the `file: column` of each column the
    /// documentation does not define.
    static func columnDictionary(
        kinds: [String], columns: (String) -> [String], extra: [String: ColumnDictionary.Entry] = [:],
        type: (String, Int, String) -> ColumnType = { _, _, _ in .text }
    ) -> (rows: [[String]], undocumented: [String]) {
        var rows: [[String]] = [["file", "column", "unit", "definition", "type"]]
        var undocumented: [String] = []
        for kind in kinds.sorted(by: { fileName(kind: $0) < fileName(kind: $1) }) {
            let file = fileName(kind: kind)
            for (i, column) in columns(kind).enumerated() {
                let declared = type(kind, i, column).rawValue
                if let entry = ColumnDictionary.entry(kind: kind, column: column) ?? extra[column] {
                    rows.append([file, column, entry.unit, entry.definition, declared])
                } else {
                    rows.append([file, column, "", ColumnDictionary.undocumented, declared])
                    undocumented.append(file + ": " + column)
                }
            }
        }
        return (rows, undocumented)
    }

    /// Writes every output from the entries of `journals` into `folder`.
    ///
    /// - Parameters:
    ///   - journals: Journal files; an entry's source must appear in at most one of them (other-shard entries
    ///     are ignored).
    ///   - folder: The output folder (exists).
    ///   - runLog: The run log, in order.
    ///   - runInfo: Key/value facts about the run (inputs, options, version) for the `run_info` table.
    ///   - export: The run's export format: `export.<format>.jsonl` is written from the entries' export lines.
    ///   - only: When given, the sources to write: entries of other records (inputs deleted since the entry was
    ///     written) are left out.
    ///   - consent: With `--consent-contract`: collects the survey results and writes `consent/`
    ///     (``ConsentArtefacts``).
    /// - Returns: The counts.
    /// - Throws: ``BatchError`` for a duplicated source or an I/O failure.
    @discardableResult
    public static func write(
        journals: [String], to folder: String, runLog: [LogEvent], runInfo: [(String, String)],
        export: OutputFormat? = nil, only: Set<SourceKey>? = nil, consent: ConsentArtefacts? = nil,
        recordsTable: (path: String, key: String)? = nil
    ) throws -> Counts {
        // Pass 1: index every entry; the CSV header of a kind is that of its first record (in source order)
        // with results.
        var index: [IndexItem] = []
        var kindNames: [String] = []  // bit i of an item's mask is kindNames[i]
        for (j, journal) in journals.enumerated() {
            try BatchJournal.scan(journal) { entry, _, start, end in
                guard entry.status != .otherShard && entry.status != .excluded else { return }
                if let only, !only.contains(SourceKey(entry.source)) { return }
                var mask: UInt64 = 0
                for kind in entry.kindsWithHeader {
                    let bit = kindNames.firstIndex(of: kind) ?? kindNames.count
                    if bit == kindNames.count {
                        guard bit < 64 else { throw BatchError("\(journal): more than 64 task kinds in one run") }
                        kindNames.append(kind)
                    }
                    mask |= 1 << UInt64(bit)
                }
                index.append(IndexItem(source: entry.source, journal: j, start: start, end: end, kinds: mask))
            }
        }
        // Source order; of one journal's entries of a record, the latest counts (it supersedes: the record changed
        // between sessions, or two writers once shared the journal).
        index.sort {
            if $0.source.utf8.elementsEqual($1.source.utf8) {
                return ($0.journal, $0.start) < ($1.journal, $1.start)
            }
            return RecordDiscovery.precedes($0.source, $1.source)
        }
        var unique: [IndexItem] = []
        unique.reserveCapacity(index.count)
        for item in index {
            if let last = unique.last, last.source.utf8.elementsEqual(item.source.utf8) {
                guard last.journal == item.journal else {
                    throw BatchError("record \(item.source) appears twice in the journals (overlapping shards?)")
                }
                unique[unique.count - 1] = item
                continue
            }
            unique.append(item)
        }
        index = unique
        let handles = try journals.map { path in
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw BatchError("\(path): cannot read the journal")
            }
            return handle
        }
        defer { for handle in handles { try? handle.close() } }
        // The header of each kind comes from the first record in source order that has one: read just those.
        var headers: [String: (source: String, header: [String])] = [:]
        let decoder = JSONDecoder()
        var unseen: UInt64 = kindNames.isEmpty ? 0 : UInt64.max >> UInt64(64 - kindNames.count)
        for item in index where item.kinds & unseen != 0 {
            unseen &= ~item.kinds
            let entry = try BatchJournal.read(
                handles[item.journal], start: item.start, end: item.end, decoder: decoder)
            for table in entry.tables where !table.header.isEmpty && headers[table.kind] == nil {
                headers[table.kind] = (entry.source, table.header)
            }
        }

        // Pass 2: write everything in source order.
        let fm = FileManager.default
        var counts = Counts()
        let results = try BufferedFile(folder + "/results.jsonl.partial")
        let errors = try BufferedFile(folder + "/errors.jsonl.partial")
        let skipped = try BufferedFile(folder + "/" + skippedFileName + ".partial")
        try skipped.append(csvLine(skippedColumns))
        var csvs: [String: BufferedFile] = [:]
        let exportFile = try export.map { try BufferedFile(folder + "/" + BatchExport.fileName($0) + ".partial") }
        let bulk = export == .fhir ? try FHIRBulkFiles(folder: folder) : nil
        let baseColumnsByKind = headers.mapValues { keyColumns + processorColumns($0.header) }
        // The study's record table, its columns after every kind's own.
        let records = try recordsTable.map { table in
            var taken = Set(keyColumns + QualityFlags.columns + [RecordAnalysis.taskAnswersColumn])
            for columns in baseColumnsByKind.values { taken.formUnion(columns) }
            return try RecordsTable.load(path: table.path, key: table.key, taken: taken)
        }
        let recordsColumns = records?.columns ?? []
        let columnsByKind = baseColumnsByKind.mapValues { $0 + recordsColumns }
        @Sendable func columns(_ kind: String) -> [String] { columnsByKind[kind] ?? keyColumns + recordsColumns }
        func aligned(_ table: BatchEntry.Table, _ entry: BatchEntry) -> [[String]] {
            let full = baseColumnsByKind[table.kind] ?? keyColumns
            let own = keyColumns + processorColumns(table.header)
            var rows = table.rows.map { expanded($0, entry: entry) }
            if own != full {
                rows = rows.map { row in
                    full.map { name in own.firstIndex(of: name).map { $0 < row.count ? row[$0] : "" } ?? "" }
                }
            }
            guard let records else { return rows }
            let cells = records.cells(for: entry.keys) ?? Array(repeating: "", count: recordsColumns.count)
            return rows.map { $0 + cells }
        }
        var matched = 0
        // The database is written on its own thread from the entries this thread decodes (in the same order), so
        // the two halves of the outputs overlap; the bytes of each file are as if written one after the other.
        let channel = EntryChannel(capacity: 256)
        let database = SQLiteWriter(
            path: folder + "/taskproc.sqlite.partial", channel: channel, runLog: runLog, runInfo: runInfo,
            columns: columns)
        database.start()
        let study = StudyTables()
        var types = ColumnTypes()
        do {
            for item in index {
                let entry = try BatchJournal.read(
                    handles[item.journal], start: item.start, end: item.end, decoder: decoder)
                switch entry.status {
                case .ok, .partial:
                    counts.succeeded += 1
                    if entry.status == .partial { counts.partial += 1 }
                    study.add(entry: entry)
                    if records?.cells(for: entry.keys) != nil { matched += 1 }
                    try results.append(entry.line + "\n")
                    try consent?.add(entry)
                    if let exportFile {
                        if let line = entry.export {
                            try exportFile.append(line + "\n")
                            try bulk?.add(line: line)
                            counts.exported += 1
                        } else {
                            let why = entry.exportError ?? "not exported (the run did not export then)"
                            counts.exportErrors.append(entry.source + ": " + why)
                        }
                        for note in entry.exportNotes ?? [] {
                            let text = note.replacingOccurrences(of: entry.source, with: "<record>")
                            counts.exportNotes[text, default: 0] += 1
                        }
                    }
                case .error:
                    counts.failed += 1
                    try errors.append(entry.line + "\n")
                case .skipped:
                    counts.notData += 1
                    try skipped.append(csvLine([entry.source, entry.contentHash, entry.reason ?? ""]))
                case .otherShard, .excluded:
                    continue
                }
                // The rows as the outputs have them (record columns, the kind's full columns, the records table),
                // made once here for the CSVs, the study tables and the database thread.
                var written = entry
                written.tables = entry.tables.map { .init(kind: $0.kind, header: $0.header, rows: aligned($0, entry)) }
                guard channel.put(written) else { break }  // the database failed: its error is thrown below
                for table in written.tables {
                    if csvs[table.kind] == nil {
                        let file = try BufferedFile(folder + "/" + fileName(kind: table.kind) + ".partial")
                        try file.append(csvLine(columns(table.kind)))
                        csvs[table.kind] = file
                    }
                    let rows = table.rows
                    for row in rows {
                        try csvs[table.kind]?.append(csvLine(row))
                        types.add(kind: table.kind, row: row)
                        counts.rowsByKind[table.kind, default: 0] += 1
                    }
                    if entry.status == .ok || entry.status == .partial {
                        study.add(kind: table.kind, columns: columns(table.kind), rows: rows)
                    }
                }
            }
        } catch {
            channel.fail()
            _ = database.wait()
            throw error
        }
        let studyTables = study.tables()
        database.studyTables = studyTables
        database.kindTypes = Dictionary(
            uniqueKeysWithValues: csvs.keys.map { kind in
                (kind, columns(kind).enumerated().map { types.type(kind: kind, index: $0, name: $1) })
            })
        channel.close()
        if let error = database.wait() { throw error }
        for table in studyTables {
            let file = try BufferedFile(folder + "/" + table.name + ".csv.partial")
            try file.append(csvLine(table.columns.map(\.name)))
            for row in table.rows { try file.append(csvLine(row)) }
            try file.close()
        }
        try results.close()
        try errors.close()
        try skipped.close()
        for file in csvs.values { try file.close() }
        try exportFile?.close()
        var bulkFiles = try bulk?.close() ?? []
        if bulk != nil {
            // The definitions the export refers to (FHIRDefinitions), for the server that loads it.
            let definitions = try BufferedFile(folder + "/" + FHIRBulkFiles.definitionsFileName + ".partial")
            try definitions.append(ResultEncoding.json(FHIRDefinitions.bundle) + "\n")
            try definitions.close()
            bulkFiles.append(FHIRBulkFiles.definitionsFileName)
        }
        if let consent { counts.consentDocuments = try consent.write(to: folder) }
        var extra: [String: ColumnDictionary.Entry] = [:]
        if let records {
            let file = URL(fileURLWithPath: records.path).lastPathComponent
            for (name, source) in zip(records.columns, records.sourceColumns) {
                extra[name] = ColumnDictionary.Entry(
                    unit: "",
                    definition: "the records table \(file) (--records-table): its column \(source) on the row whose "
                        + "\(records.key) is the record's recordId (else taskRunUUID); blank when no row is")
            }
            counts.recordsTable = .init(matched: matched, records: counts.succeeded, rows: records.rowCount)
        }
        let dictionary = columnDictionary(kinds: Array(csvs.keys), columns: columns, extra: extra) {
            types.type(kind: $0, index: $1, name: $2)
        }
        counts.undocumentedColumns = dictionary.undocumented
        let columnsFile = try BufferedFile(folder + "/" + columnsFileName + ".partial")
        for row in dictionary.rows { try columnsFile.append(csvLine(row)) }
        try columnsFile.close()

        // Rename into place; remove CSVs of kinds no longer present.
        var finals = fixedFileNames()
        finals += csvs.keys.sorted().map { fileName(kind: $0) }
        if let export { finals.append(BatchExport.fileName(export)) }
        finals += bulkFiles
        for name in finals {
            let target = folder + "/" + name
            do { try FileSystem.rename(target + ".partial", to: target) } catch { throw BatchError(error) }
        }
        for kind in (AnalysisRegistry.taskKinds + [.unknown]).map(\.rawValue) where csvs[kind] == nil {
            try? fm.removeItem(atPath: folder + "/" + fileName(kind: kind))
        }
        for name in BatchExport.fileNames where name != export.map(BatchExport.fileName) {
            try? fm.removeItem(atPath: folder + "/" + name)
        }
        // Bulk files of an earlier run: of another format, or of resource types this run has none of.
        for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? []
        where FHIRBulkFiles.isBulkFile(name) && !bulkFiles.contains(name) {
            try? fm.removeItem(atPath: folder + "/" + name)
        }
        return counts
    }

    /// The file listing the records skipped as not data: ``skippedColumns``, one line per record, source order.
    public static let skippedFileName = "skipped.csv"
    /// The columns of ``skippedFileName``: the record, its content hash and why it is not data.
    public static let skippedColumns = ["recordSource", "contentHash", "reason"]

    /// The CSV file name of a task kind.
    public static func fileName(kind: String) -> String { kind + ".csv" }

    /// One RFC 4180 CSV line with a trailing LF.
    static func csvLine(_ fields: [String]) -> String {
        fields.map(ResultEncoding.csvField).joined(separator: ",") + "\n"
    }
}

/// An output file written through a 1 MiB buffer; every failure a ``BatchError`` naming the file (73 when it
/// cannot be created, 74 for a full disk or another I/O error).
final class BufferedFile {
    private let output: BufferedOutput
    var path: String { output.path }

    /// Creates `path`, replacing a leftover file of an interrupted run.
    init(_ path: String) throws {
        do { output = try BufferedOutput(replacing: path) } catch { throw BatchError(error) }
    }

    func append(_ text: String) throws {
        do { try output.append(text) } catch { throw BatchError(error) }
    }

    func close() throws {
        do { try output.close() } catch { throw BatchError(error) }
    }
}

/// A bounded queue of journal entries from the thread that decodes them to the thread that writes the database.
final class EntryChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [BatchEntry] = []
    private var closed = false
    private var failed = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Queues an entry, waiting while the queue is full; false once the consumer has failed.
    func put(_ entry: BatchEntry) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !failed { condition.wait() }
        guard !failed else { return false }
        items.append(entry)
        condition.broadcast()
        return true
    }

    /// Every queued entry, waiting for one; nil when the producer closed the queue and it is empty, or on failure.
    func takeAll() -> [BatchEntry]? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed && !failed { condition.wait() }
        guard !failed, !items.isEmpty else { return nil }
        let batch = items
        items.removeAll(keepingCapacity: true)
        condition.broadcast()
        return batch
    }

    /// No more entries will come.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// One side failed: both stop.
    func fail() {
        condition.lock()
        failed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Writes `taskproc.sqlite` on its own thread from an ``EntryChannel``.
final class SQLiteWriter: @unchecked Sendable {
    private let path: String
    private let channel: EntryChannel
    private let runLog: [BatchOutputs.LogEvent]
    private let runInfo: [(String, String)]
    private let columns: @Sendable (String) -> [String]
    private let finished = DispatchSemaphore(value: 0)
    private var error: (any Error)?
    /// The study tables, set before the channel is closed (the channel's lock orders the write before the read).
    var studyTables: [StudyTables.Table] = []
    /// The declared type of each column of each kind's table, set with ``studyTables``.
    var kindTypes: [String: [ColumnType]] = [:]

    init(
        path: String, channel: EntryChannel, runLog: [BatchOutputs.LogEvent], runInfo: [(String, String)],
        columns: @escaping @Sendable (String) -> [String]
    ) {
        self.path = path
        self.channel = channel
        self.runLog = runLog
        self.runInfo = runInfo
        self.columns = columns
    }

    func start() {
        Thread { [self] in
            do {
                try SQLiteSink.session(path: path) { sqlite in
                    while let batch = channel.takeAll() {
                        for entry in batch {
                            try sqlite.insertRecord(entry)
                            for table in entry.tables {
                                let full = columns(table.kind)
                                try sqlite.ensureTable(kind: table.kind, columns: full)
                                for row in table.rows {  // aligned by the producer
                                    try sqlite.insertRow(kind: table.kind, columns: full, values: row)
                                }
                            }
                        }
                    }
                    for (kind, types) in kindTypes.sorted(by: { $0.key < $1.key }) {
                        try sqlite.declareTypes(kind: kind, columns: columns(kind), types: types)
                    }
                    for table in studyTables { try sqlite.insertStudyTable(table) }
                    try sqlite.finish(runLog: runLog, runInfo: runInfo)
                }
            } catch {
                self.error = error
                channel.fail()
            }
            finished.signal()
        }.start()
    }

    /// Waits for the database to be written; its error, if any.
    func wait() -> (any Error)? {
        finished.wait()
        return error
    }
}
