/// Why an input file could not be read: which file, where in it, what was expected and what was found.
///
/// `location` is a JSON path (`$.results[2].samples[5].timestamp`), a CSV position (`line 12, column 3`),
/// or both; `description` renders all of it on one line for error messages.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is, for programs that sort errors.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The file does not exist or cannot be opened.
        case unreadable
        /// The bytes are not valid JSON/CSV (truncated, garbage, bad token).
        case syntax
        /// Valid syntax, but a field has the wrong type, is missing, or is out of range.
        case schema
        /// The input is recognised but is not something taskproc can use (unknown class, empty log).
        case unsupported
        /// A file the input refers to is missing.
        case missingReference
    }

    /// The category of problem.
    public var kind: Kind
    /// The file concerned.
    public var file: String
    /// Where in the file: JSON path and/or line and column; nil when it concerns the whole file.
    public var location: String?
    /// What the reader expected there.
    public var expected: String?
    /// What it found instead.
    public var found: String?
    /// A short explanation when expected/found do not say it all.
    public var message: String?

    /// Creates an error; every field but `kind` and `file` is optional.
    public init(
        _ kind: Kind, file: String, location: String? = nil, expected: String? = nil, found: String? = nil,
        message: String? = nil
    ) {
        self.kind = kind
        self.file = file
        self.location = location
        self.expected = expected
        self.found = found.map { Self.quoted($0) }
        // Messages are taskproc's words, sometimes with input inside: cut only far beyond any message of ours.
        self.message = message.map { Self.quoted($0, maximum: 4_000) }
    }

    /// Most characters of input quoted in an error (`found`, `message`): a 20 MB cell is not an error message.
    public static let maximumQuotedCharacters = 300

    /// `text`, cut to ``maximumQuotedCharacters`` with what was left out said (`… (20000000 bytes in all)`).
    public static func quoted(_ text: String, maximum: Int = maximumQuotedCharacters) -> String {
        guard text.utf8.count > maximum * 4 || text.count > maximum else { return text }
        return String(text.prefix(maximum - 40)) + "… (\(text.utf8.count) bytes in all)"
    }

    /// One line: `file: at location: expected X, found Y: message`.
    public var description: String {
        var parts = [file]
        if let location { parts.append("at " + location) }
        var what: [String] = []
        if let expected { what.append("expected " + expected) }
        if let found { what.append("found " + found) }
        if !what.isEmpty { parts.append(what.joined(separator: ", ")) }
        if let message { parts.append(message) }
        return parts.joined(separator: ": ")
    }
}
