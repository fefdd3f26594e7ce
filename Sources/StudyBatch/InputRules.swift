import ActiveTasks
import Foundation
import StudyInputs

/// Reader options by file pattern, for a folder that mixes devices (`batch --input-config FILE`): the first rule
/// whose pattern matches a record gives its reader options, in place of the command line's; a record no rule
/// matches is read with the command line's.
///
/// The file is JSON: `{"rules": [{"match": "shimmer/*.tsv", "options": ["--skip-lines", "3"]}, …]}`. A pattern
/// is matched against the record's path relative to the input it was found in (an archive's `a.zip!/x` as
/// `a.zip/x`); a pattern without `/` against the file name alone, wherever it is. `*` matches any characters but
/// `/`, `?` one such character, `**` (a whole path component) any number of components; everything else
/// matches itself, case-sensitively.
public struct InputRule: Sendable, Hashable, Codable {
    /// The pattern, as written in the file.
    public var match: String
    /// The rule's reader options, as written (for the run log and `run_info`).
    public var arguments: [String]
    /// The options records matching the rule are analysed with (set by the command line that parsed
    /// ``arguments``).
    public var analysis: AnalysisOptions

    /// Creates a rule.
    public init(match: String, arguments: [String], analysis: AnalysisOptions) {
        self.match = match
        self.arguments = arguments
        self.analysis = analysis
    }

    /// True when the rule's pattern matches a record at `relativePath` (relative to its input, `/`-separated).
    public func matches(_ relativePath: String) -> Bool {
        let path = relativePath.replacingOccurrences(of: "!/", with: "/")
        if !match.contains("/") {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return Self.matches(component: Array(match.utf8), Array(name.utf8))
        }
        let pattern = match.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return Self.matches(pattern[...], parts[...])
    }

    /// Path components against pattern components (`**` any number of them).
    static func matches(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return parts.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            var tail = parts
            while true {
                if matches(rest, tail) { return true }
                guard !tail.isEmpty else { return false }
                tail = tail.dropFirst()
            }
        }
        guard let part = parts.first, matches(component: Array(first.utf8), Array(part.utf8)) else { return false }
        return matches(pattern.dropFirst(), parts.dropFirst())
    }

    /// One component against one pattern component (`*`, `?`), by bytes; iterative, linear backtracking.
    static func matches(component pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t]) {
                if pattern[p] == UInt8(ascii: "?") {
                    // One character: skip its UTF-8 continuation bytes.
                    t += 1
                    while t < text.count && text[t] & 0xC0 == 0x80 { t += 1 }
                } else {
                    t += 1
                }
                p += 1
            } else if p < pattern.count && pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if let s = star {
                p = s + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    /// A record's path relative to the input it was found in (its file name when the input is the record).
    static func relativePath(of source: String, inputs: [RecordDiscovery.Input]) -> String {
        for input in inputs {
            let display = input.display
            if source == display { return (display as NSString).lastPathComponent }
            for separator in ["/", "!/"] where source.hasPrefix(display + separator) {
                let rest = String(source.dropFirst(display.count + separator.count))
                // An archive given as the input: its name first, as a folder walk would have it.
                return separator == "!/" ? (display as NSString).lastPathComponent + "/" + rest : rest
            }
        }
        return source
    }
}

/// The `--input-config` file.
public enum InputRulesFile {
    /// One rule as written: its pattern and reader options (the command line turns them into options).
    public struct Rule: Sendable, Hashable, Decodable {
        /// The pattern (``InputRule``).
        public var match: String
        /// Reader options, as on the command line (`["--delimiter", "tab", "--sample-rate", "100"]`).
        public var options: [String]
    }

    struct File: Decodable {
        var rules: [Rule]
    }

    /// Most bytes of a configuration file read.
    public static let maximumBytes = 1 << 20

    /// Reads the rules of the file at `path`.
    /// - Throws: ``BatchError`` naming the file and what is wrong (unreadable, not JSON, no `rules` array, a rule
    ///   without `match` or `options`, an empty pattern).
    public static func read(_ path: String) throws(BatchError) -> [Rule] {
        guard FileTree.fileType(path) == .regular || FileTree.fileType(path) == .link,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            throw BatchError("\(path): cannot read the --input-config file", kind: .invalid)
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumBytes + 1)) ?? Data()
        guard data.count <= maximumBytes else {
            throw BatchError("\(path): the --input-config file is over \(maximumBytes) bytes", kind: .invalid)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw BatchError(
                "\(path): expected {\"rules\": [{\"match\": \"<pattern>\", \"options\": [\"--option\", …]}, …]}: "
                    + Self.describe(error), kind: .invalid)
        }
        for (i, rule) in file.rules.enumerated() where rule.match.isEmpty {
            throw BatchError("\(path): rule \(i + 1) has an empty \"match\" pattern", kind: .invalid)
        }
        return file.rules
    }

    /// A decoding error in one line.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "$" : "$" + path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\" at \(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(at(context.codingPath))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "bad value at \(at(context.codingPath))"
        @unknown default: return "not JSON"
        }
    }
}
