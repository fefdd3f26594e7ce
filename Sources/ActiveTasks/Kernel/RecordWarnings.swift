import StudyInputs

/// A result that carries the warnings of its record: the registry adds what the input's reading found that
/// changes what the result holds (``AnalysisRegistry/recordWarnings(_:)``).
public protocol RecordWarnings: RenderableResult, Sendable {
    /// Appends warnings (one sentence each) to the result's own.
    mutating func addWarnings(_ warnings: [String])
}
