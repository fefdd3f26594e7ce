import Archives
import Foundation

/// File access shared by every reader (ResearchKit results, recorder logs, CSV, mPower, MyDataHelps, the loader):
/// whole-file reads with gzip handled, and ``FileReadError`` mapped to ``InputError`` in one place.
enum DialectFiles {
    /// Most bytes a gzip file may decompress to while loading: ``InputLoader/Options/maxDecompressedBytes`` of the
    /// load in progress (``InputLoader/load(path:options:)`` binds it), else ``ArchiveLimits/defaultMaxEntryBytes``.
    /// Task-local so that every reader obeys the one limit without each taking a parameter.
    @TaskLocal static var decompressedLimit: Int64 = ArchiveLimits.defaultMaxEntryBytes
    /// Most bytes one JSON or CSV input may have in memory: ``InputLoader/Options/maxParsedBytes`` of the load in
    /// progress, else ``InputLimits/maximumParsedBytes``.
    @TaskLocal static var parsedLimit: Int64 = InputLimits.maximumParsedBytes

    /// The file's bytes, gunzipped when it is a gzip stream.
    /// - Parameter limit: A tighter limit for this read, bytes (the smaller of it and ``decompressedLimit`` holds).
    /// - Throws: ``InputError``: `.unreadable` (missing, unreadable), `.syntax` (corrupt gzip),
    ///   `.unsupported` (larger than the decompression limit).
    static func read(path: String, limit: Int64? = nil) throws(InputError) -> Data {
        let parsed = parsedLimit
        // The parse limit binds when it is the smallest: say so, rather than pointing at --max-entry-bytes.
        let parseBinds = parsed < min(limit ?? .max, decompressedLimit)
        let data: Data
        let plainLimit = min(limit ?? .max, parsed)
        do {
            data = try FileBytes.read(
                path: path, limit: min(limit ?? .max, decompressedLimit, parsed), plainLimit: plainLimit)
        } catch .overSize(_, let size, _) where plainLimit == parsed {
            throw InputError(
                .unsupported, file: path, message: InputLimits.parsedBytesMessage(size: Int(clamping: size)))
        } catch .tooLarge(_, _) where parseBinds {
            throw InputError(.unsupported, file: path, message: InputLimits.parsedBytesMessage(size: nil))
        } catch {
            switch error {
            case .fileNotFound: throw InputError(.unreadable, file: path, message: "no such file")
            case .unreadable(_, let reason):
                throw InputError(.unreadable, file: path, message: "cannot read file: \(reason)")
            case .corruptCompressedData(_, let reason):
                throw InputError(.syntax, file: path, expected: "a complete gzip stream", found: reason)
            case .tooLarge(_, let limit), .overSize(_, _, let limit):
                throw InputError(.unsupported, file: path, message: ArchiveLimits.exceededMessage(limit))
            case .notRegularFile(_, let type):
                throw InputError(.unsupported, file: path, message: InputFiles.notRegularMessage(type))
            }
        }
        return data
    }
}

/// The one rule of what may be an input: regular files (and `-`, standard input, saved to one), never a device,
/// FIFO or socket, which could be read forever (`/dev/zero`) or block forever (a FIFO with no writer).
public enum InputFiles {
    /// Why a path that is not a regular file is not an input (`is a FIFO (named pipe), …`).
    public static func notRegularMessage(_ type: String) -> String {
        "is \(type), not a regular file: only regular files (and - for standard input) are inputs"
    }

    /// Throws for a path that exists and is neither a regular file nor a folder (after following links).
    /// - Throws: ``InputError`` (`unsupported`) naming what it is.
    public static func requireRegularOrFolder(_ path: String) throws(InputError) {
        guard let type = FileBytes.nonRegularType(path), type != "a directory" else { return }
        throw InputError(.unsupported, file: path, message: notRegularMessage(type))
    }
}
