/// A decoded ResearchKit JSON file: its root object and the non-fatal irregularities met while decoding.
public struct ResearchKitDocument: Sendable, Hashable, Codable {
    /// The file the document was read from (as given to the decoder), for messages.
    public var file: String
    /// The root object: usually ``ResearchKitObject/result(_:)`` with a ``ResearchKitResult/task(_:)``.
    public var root: ResearchKitObject
    /// Irregularities that did not stop decoding, in document order.
    ///
    /// Unknown-key warnings come last, one per class and key. See ``ResearchKitWarning/Kind`` for what is
    /// reported.
    public var warnings: [ResearchKitWarning]

    /// Creates a document.
    public init(file: String, root: ResearchKitObject, warnings: [ResearchKitWarning] = []) {
        self.file = file
        self.root = root
        self.warnings = warnings
    }

    /// The root as a result, or nil when the root is a step configuration, device, sample or unit.
    public var result: ResearchKitResult? { if case .result(let r) = root { r } else { nil } }

    /// The root task result, or nil when the root is something else.
    public var taskResult: ResearchKit.TaskResult? { if case .result(.task(let t)) = root { t } else { nil } }

    /// The warnings of one kind.
    public func warnings(of kind: ResearchKitWarning.Kind) -> [ResearchKitWarning] {
        warnings.filter { $0.kind == kind }
    }
}
