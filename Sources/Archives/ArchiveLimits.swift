/// Limits that keep a hostile or broken archive or gzip file from filling the memory, the disk or the run.
public struct ArchiveLimits: Sendable, Hashable, Codable {
    /// The one decompressed-size limit of a single file, bytes: 512 MiB.
    ///
    /// It applies alike to a ZIP entry and to a gzip file (`.json.gz`, `.csv.gz`, also inside archives), so a
    /// 3 MB gzip "bomb" cannot inflate to gigabytes in memory. Batch runs override it with `--max-entry-bytes`
    /// (``maxEntryBytes``).
    public static let defaultMaxEntryBytes: Int64 = 512 << 20

    /// Most entries one archive may hold (files and folders); more rejects the whole archive.
    public var maxEntries: Int = 1_000_000
    /// Most bytes one archive may decompress to in total, counting every entry; more rejects the whole archive.
    ///
    /// In a batch run, the budget of all archives together, nested ones included (``ZipArchive/extract(_:into:limits:budget:)``).
    public var maxTotalBytes: Int64 = 16 << 30
    /// Most bytes one ZIP entry or one gzip file may decompress to (``defaultMaxEntryBytes`` unless overridden);
    /// a larger one is rejected on its own.
    public var maxEntryBytes: Int64 = ArchiveLimits.defaultMaxEntryBytes
    /// How deep archives may nest (an archive inside an archive is depth 2).
    public var maxDepth: Int = 3

    /// Default limits: 1 000 000 entries, 16 GiB in total, 512 MiB per entry or gzip file, nesting depth 3.
    public init() {}

    /// The message for a file or entry over the per-file limit `limit` (bytes):
    /// `decompressed size exceeds the limit (max …, --max-entry-bytes)`.
    public static func exceededMessage(_ limit: Int64) -> String {
        "decompressed size exceeds the limit (max \(describeBytes(limit)), --max-entry-bytes)"
    }

    /// `512 MiB = 536870912 bytes`, or just `1000 bytes` when not a whole number of KiB, MiB or GiB.
    static func describeBytes(_ bytes: Int64) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= Int64(1) << shift {
            if bytes % (Int64(1) << shift) == 0 { return "\(bytes >> shift) \(unit) = \(bytes) bytes" }
        }
        return "\(bytes) bytes"
    }
}
