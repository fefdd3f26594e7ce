/// An archive that cannot be used at all (unreadable, not a ZIP, over a whole-archive limit, or a write failure
/// while extracting it).
public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The archive's path.
    public var archive: String
    /// What is wrong, in one line.
    public var message: String

    /// Creates an error.
    public init(archive: String, message: String) {
        self.archive = archive
        self.message = message
    }

    /// `archive: message`.
    public var description: String { archive + ": " + message }
}
