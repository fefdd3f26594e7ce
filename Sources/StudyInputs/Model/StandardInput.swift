import Archives
import Foundation

/// An input read from standard input (`-` in `analyze` and `inspect`): its bytes are saved to a temporary file
/// whose name says what they are, and that file goes through the ``InputRecognizer`` like any other.
///
/// The name comes from the content, as the recogniser's extension rules need it: audio by its container
/// signature (`RIFF`/`RF64` WAV, `FORM` AIFF, `fLaC`, `OggS`, `caff`, `ftyp` MPEG-4), a ZIP archive by its
/// signature, JSON by its first significant character (`{` or `[`), anything else as a CSV table. Gzip input is
/// decompressed first (within the same size limit). The file is removed with the extracted archives
/// (``InputLoader/removeExtractedArchives()``).
public enum StandardInput {
    /// The most bytes read from standard input, and the most a gzip stream there may decompress to: 512 MiB, the
    /// decompressed-size limit of files and archive entries.
    public static let maximumBytes: Int64 = ArchiveLimits.defaultMaxEntryBytes

    /// Reads `handle` to its end and saves the bytes as `stdin.<extension>` in a new temporary folder.
    /// - Parameter limit: The most bytes accepted (read and, for gzip, decompressed).
    /// - Returns: The saved file's path.
    /// - Throws: ``InputError`` when the input is empty, larger than `limit`, unreadable or a corrupt gzip stream.
    public static func save(from handle: FileHandle, limit: Int64 = maximumBytes) throws(InputError) -> String {
        var data = Data()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw InputError(
                    .unreadable, file: "-", expected: "standard input", found: "a read error: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            guard Int64(data.count) + Int64(chunk.count) <= limit else {
                throw InputError(
                    .unsupported, file: "-", expected: "at most \(limit) bytes on standard input",
                    found: "more (give a file instead)")
            }
            data.append(chunk)
        }
        guard !data.isEmpty else {
            throw InputError(.syntax, file: "-", expected: "an input on standard input", found: "nothing (0 bytes)")
        }
        if FileBytes.isGzip(data) {
            do { data = try FileBytes.gunzip(data, path: "-", limit: limit) } catch {
                throw InputError(.syntax, file: "-", expected: "a gzip stream", found: "\(error)")
            }
        }
        let folder = InputLoader.temporaryFolder(prefix: "taskproc-stdin")
        let path = folder + "/stdin." + fileExtension(forContentStartingWith: data.prefix(64))
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw InputError(
                .unreadable, file: "-", expected: "standard input saved to \(path)",
                found: "a write error: \(error.localizedDescription)")
        }
        return path
    }

    /// The extension that makes the recogniser read content starting with `head` as what it is.
    public static func fileExtension(forContentStartingWith head: Data) -> String {
        let bytes = Array(head.prefix(16))
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let signature = Array(text.utf8)
            return bytes.count >= offset + signature.count && Array(bytes[offset..<(offset + signature.count)]) == signature
        }
        if starts("RIFF") || starts("RF64") { return "wav" }
        if starts("FORM") { return "aiff" }
        if starts("fLaC") { return "flac" }
        if starts("OggS") { return "ogg" }
        if starts("caff") { return "caf" }
        if starts("ftyp", at: 4) { return "m4a" }
        if InputRecognizer.startsWithZipSignature(head) { return "zip" }
        let first = head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? "json" : "csv"
    }
}
