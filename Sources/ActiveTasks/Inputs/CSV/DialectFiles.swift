import Archives
import Foundation

/// File access shared by every reader (ResearchKit results, recorder logs, CSV, mPower, MyDataHelps, the loader):
/// whole-file reads with gzip handled, and ``FileReadError`` mapped to ``InputError`` in one place.
enum DialectFiles {
    /// The file's bytes, gunzipped when it is a gzip stream.
    /// - Throws: ``InputError``: `.unreadable` (missing, unreadable), `.syntax` (corrupt gzip),
    ///   `.unsupported` (larger than the decompression limit).
    static func read(path: String, limit: Int64 = ArchiveLimits.defaultMaxEntryBytes) throws(InputError) -> Data {
        do {
            return try FileBytes.read(path: path, limit: limit)
        } catch {
            switch error {
            case .fileNotFound: throw InputError(.unreadable, file: path, message: "no such file")
            case .unreadable(_, let reason):
                throw InputError(.unreadable, file: path, message: "cannot read file: \(reason)")
            case .corruptCompressedData(_, let reason):
                throw InputError(.syntax, file: path, expected: "a complete gzip stream", found: reason)
            case .tooLarge(_, let limit):
                throw InputError(.unsupported, file: path, message: "decompressed size exceeds \(limit) bytes")
            }
        }
    }
}
