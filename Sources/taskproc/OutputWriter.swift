import ArgumentParser
import Foundation

/// Writes command output to standard output or, atomically, to a file.
enum OutputWriter {
    /// Writes `text` to `path` (atomically, refusing to replace an existing file unless `force`),
    /// or to standard output when `path` is nil.
    static func write(_ text: String, to path: String?, force: Bool) throws {
        guard let path else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        if !force && FileManager.default.fileExists(atPath: path) {
            throw ValidationError("\(path) exists; pass --force to overwrite it")
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
