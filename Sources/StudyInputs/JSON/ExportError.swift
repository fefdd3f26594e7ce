import Foundation

/// Why an export could not be produced.
public struct ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line saying what is missing or wrong, and how to fix it.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
