import Foundation

/// What an input records, as far as the reader can tell: a task kind's name (`walking`, `tapping`,
/// `dBHLToneAudiometry`, …), which names its batch CSV file and SQLite table and is the `kind` of its results.
///
/// This module names no kind but ``unknown``: each kind declares its value in its own folder of ActiveTasks
/// (`extension TaskKind { public static let walking = TaskKind("walking") }`), and the analysis registry lists
/// them all (`AnalysisRegistry.taskKinds`). The loader never decides a kind itself: it records what an input holds
/// (``LoadedInput/content``, the ResearchKit result) and asks what the kinds claim (``KindRecognition``).
public struct TaskKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind's name, as in results' `kind` key and batch file names.
    public var rawValue: String

    /// A kind of this name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A kind of this name (for the declarations in the kinds' folders).
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Several kinds, or none recognised.
    public static let unknown = TaskKind("unknown")

    /// The name.
    public var description: String { rawValue }

    /// Decodes the name from a string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the name as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
