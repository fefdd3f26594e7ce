/// An archive that cannot be used at all (unreadable, not a ZIP, over a whole-archive limit, or a write failure
/// while extracting it).
public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The archive's path.
    public var archive: String
    /// What is wrong, in one line.
    public var message: String
    /// Set when the extraction's own output failed (a full disk, a read-only folder): a fault of where taskproc
    /// writes, not of the archive, so the archive must not be reported as bad; the caller stops.
    public var outputFailure: FileFailure?

    /// Creates an error.
    public init(archive: String, message: String, outputFailure: FileFailure? = nil) {
        self.archive = archive
        self.message = message
        self.outputFailure = outputFailure
    }

    /// `archive: message`.
    public var description: String { archive + ": " + message }
}
