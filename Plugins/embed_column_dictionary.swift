// swift embed_column_dictionary.swift TABLE OUTPUT
//
// The build step of the EmbedColumnDictionary plugin, run with the toolchain's `swift` (immediate mode) whenever
// TABLE (batch's column dictionary, `ColumnDictionary.tsv`) changes: checks TABLE and writes OUTPUT, a Swift file
// defining `ColumnDictionary.table` as TABLE's text, verbatim. A malformed line fails the build with
// `TABLE:LINE: error: …`, so the parser at run time never meets one.
//
// A script, not an executable target of the package: `make fuzz-build` builds every module, host tools included,
// with `-sanitize=fuzzer`, which gives an executable libFuzzer's `main` beside its own. Outside every target's
// folder, so no target compiles it.
import Foundation

/// Checks and renders `ColumnDictionary.tsv`.
enum ColumnDictionaryFormat {
    /// What is wrong with the table, at which line (1-based).
    struct Malformed: Error, Equatable {
        /// The line, 1-based.
        let line: Int
        /// What is wrong with it.
        let message: String
    }

    /// Checks the format `ColumnDictionary.entries` parses: lines ending in a newline, each a `#` comment, a
    /// `[kind kind …]` section line or a row of token, unit and definition separated by tabs, after a section; no
    /// token twice for a kind.
    static func check(_ text: String) throws(Malformed) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard text.hasSuffix("\n") else {
            throw Malformed(line: lines.count, message: "the file does not end with a newline")
        }
        var kinds: [Substring] = []
        var seen: Set<String> = []
        for (index, line) in lines.dropLast().enumerated() {
            let number = index + 1
            if line.isEmpty { throw Malformed(line: number, message: "an empty line") }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    throw Malformed(line: number, message: "a section line ends with ]")
                }
                kinds = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: false)
                guard !kinds.isEmpty, !kinds.contains(where: \.isEmpty) else {
                    throw Malformed(line: number, message: "a section names kinds separated by one space")
                }
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 else {
                throw Malformed(
                    line: number, message: "\(fields.count) tab-separated fields, not 3 (token, unit, definition)")
            }
            guard !fields[0].isEmpty, !fields[2].isEmpty else {
                throw Malformed(line: number, message: "a row needs a token and a definition")
            }
            guard !kinds.isEmpty else {
                throw Malformed(line: number, message: "a row before the first [kinds] line")
            }
            for kind in kinds where !seen.insert("\(kind)\t\(fields[0])").inserted {
                throw Malformed(line: number, message: "\(fields[0]) is defined twice for \(kind)")
            }
        }
    }

    /// The Swift file defining `ColumnDictionary.table` as `text` (a checked table), verbatim.
    static func swift(table text: String, from fileName: String) -> String {
        // enough `#`s that no `"""#…` or `\#…` inside ends or escapes the raw literal; one more line break, since
        // the one before the closing `"""` is not part of a multi-line literal
        var hashes = "#"
        while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        return """
            // GENERATED at build time by the EmbedColumnDictionary plugin from \(fileName) -- do not edit.

            extension ColumnDictionary {
                /// The text of `\(fileName)`, verbatim (the format: ``entries``).
                static let table = \(hashes)\"\"\"
            \(text)
            \"\"\"\(hashes)
            }

            """
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: swift embed_column_dictionary.swift TABLE OUTPUT\n".utf8))
    exit(2)
}
let (input, output) = (arguments[1], arguments[2])
do {
    let text = try String(contentsOfFile: input, encoding: .utf8)
    try ColumnDictionaryFormat.check(text)
    let swift = ColumnDictionaryFormat.swift(table: text, from: URL(fileURLWithPath: input).lastPathComponent)
    try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch let error as ColumnDictionaryFormat.Malformed {
    FileHandle.standardError.write(Data("\(input):\(error.line): error: \(error.message)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("\(input): error: \(error)\n".utf8))
    exit(1)
}
