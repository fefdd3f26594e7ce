import Foundation

/// Renames one path to another in text and in JSON text: a record's on-disk location to its source name (batch),
/// a ZIP archive's temporary extraction folder to `archive.zip!` (``LoadedInput/archiveRenames``).
public struct PathRename: Sendable, Hashable {
    /// The path replaced.
    public let from: String
    /// What replaces it.
    public let to: String
    /// Both as JSON string content (escaped as the project's JSON writers escape them).
    let fromJSON: String
    let toJSON: String

    /// A rename of `from` to `to`.
    public init(from: String, to: String) {
        self.from = from
        self.to = to
        fromJSON = Self.jsonContent(from)
        toJSON = Self.jsonContent(to)
    }

    /// `s` as JSON string content, without the quotes.
    static func jsonContent(_ s: String) -> String {
        var out = [UInt8]()
        JSONTextWriter.appendString(s, to: &out)
        return String(decoding: out.dropFirst().dropLast(), as: UTF8.self)
    }

    /// True when nothing is renamed.
    public var isIdentity: Bool { from.isEmpty || from == to }

    /// `s` with `from` replaced by `to`.
    public func text(_ s: String) -> String { isIdentity ? s : s.replacingOccurrences(of: from, with: to) }

    /// JSON text `s` with `from` replaced by `to`, both as they appear inside JSON strings.
    public func json(_ s: String) -> String { isIdentity ? s : s.replacingOccurrences(of: fromJSON, with: toJSON) }

    /// `s` renamed by every one of `renames`, the last first (innermost archive first); `json` when `s` is JSON.
    public static func apply(_ renames: [PathRename], to s: String, json: Bool) -> String {
        renames.reversed().reduce(s) { json ? $1.json($0) : $1.text($0) }
    }
}
