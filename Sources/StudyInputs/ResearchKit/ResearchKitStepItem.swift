extension ResearchKit {
    /// A result found while walking a result tree, with the identifier of the step result that contains it.
    ///
    /// Produced by ``ResearchKitResult/stepItems`` and the typed walkers such as
    /// ``ResearchKitResult/tappingResults``.
    public struct StepItem<Result: Sendable & Hashable>: Sendable, Hashable {
        /// Identifier of the enclosing `ORKStepResult` (such as `tapping.right`); for a result that is not inside
        /// a step result (a lone result file), the result's own identifier.
        public var stepIdentifier: String
        /// The result.
        public var result: Result
        /// True when the enclosing step result is marked `isPreviousResult` (an earlier visit of a step the
        /// participant went back to: the answer was superseded).
        public var isPreviousResult: Bool

        /// Creates an item.
        public init(stepIdentifier: String, result: Result, isPreviousResult: Bool = false) {
            self.stepIdentifier = stepIdentifier
            self.result = result
            self.isPreviousResult = isPreviousResult
        }
    }
}

extension ResearchKit.StepItem: Codable where Result: Codable {
    enum CodingKeys: String, CodingKey { case stepIdentifier, result, isPreviousResult }

    /// Reads an item; an absent `isPreviousResult` is false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            stepIdentifier: try c.decode(String.self, forKey: .stepIdentifier),
            result: try c.decode(Result.self, forKey: .result),
            isPreviousResult: try c.decodeIfPresent(Bool.self, forKey: .isPreviousResult) ?? false)
    }
}
