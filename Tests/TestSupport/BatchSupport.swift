import Archives
import Foundation
import GRDB
import SensorSignal

/// Helpers shared by the batch tests and the tests that run a batch over their inputs: temporary folders, the export
/// generator, a minimal ZIP writer, output comparison.
public enum BatchSupport {
    /// A fresh temporary folder.
    public static func temporaryFolder(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "taskproc-batch-tests-\(name)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The repository root.
    public static func repositoryRoot() -> String { repositoryPath("") }

    /// One record of the generator's manifest.
    public struct ManifestRecord: Decodable {
        /// The record's path, as batch reports it.
        public var source: String
        /// The record's kind, as the generator wrote it.
        public var kind: String
        /// How the record was broken on purpose (`truncated`, `missing`, …), `nil` for a good record.
        public var broken: String?
    }

    /// The generator's manifest (`<folder>.manifest.json`).
    public struct Manifest: Decodable {
        /// Every record written.
        public var records: [ManifestRecord]
        /// The files that are not inputs, which batch must skip.
        public var skipped: [String]
    }

    /// Runs `Tools/batch/make_export.py` into `folder` and returns its manifest.
    public static func generateExport(at folder: String, records: Int, seed: Int, extra: [String] = []) throws
        -> Manifest
    {
        let generated = try generateStudyExport(at: folder, records: records, seed: seed, extra: extra)
        guard generated.status == 0 else {
            throw BatchTestError("make_export.py failed (\(generated.status)): \(generated.output)")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + ".manifest.json"))
        return try JSONDecoder().decode(Manifest.self, from: data)
    }

    /// The `source` of each JSON line of a `.jsonl` file, with its `status`/`reason`.
    public static func jsonLines(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The files of a batch output folder that must be byte-identical between equivalent runs.
    public static func textOutputs(_ folder: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder)
        where name.hasSuffix(".jsonl") || name.hasSuffix(".csv") {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return out
    }

    /// Every table of the SQLite output except `run_log`, as rows of text (typed values shown with their type).
    public static func sqliteTables(_ folder: String) throws -> [String: [[String]]] {
        let queue = try DatabaseQueue(path: folder + "/taskproc.sqlite")
        defer { try? queue.close() }
        return try queue.read { db in
            var tables: [String: [[String]]] = [:]
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for name in names where name != "run_log" {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(name)\" ORDER BY rowid")
                tables[name] = rows.map { row in
                    row.columnNames.map { column in
                        let value: DatabaseValue = row[column]
                        return "\(column)=\(value.storage)"
                    }
                }
            }
            return tables
        }
    }

    /// The `run_log` rows (event names only).
    public static func runLogEvents(_ folder: String) throws -> [String] {
        let queue = try DatabaseQueue(path: folder + "/taskproc.sqlite")
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT event FROM run_log ORDER BY seq") }
    }

    /// A ZIP archive of stored (uncompressed) entries, written by hand (see ``ZipFixture``).
    public typealias ZipEntry = ZipFixture.Entry

    /// The archive of `entries`.
    public static func zip(_ entries: [ZipEntry]) -> Data { ZipFixture.zip(entries) }
}

/// A batch test's own failure (a generator that failed), with what went wrong.
public struct BatchTestError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
