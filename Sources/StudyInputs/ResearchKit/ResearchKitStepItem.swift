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

        /// Creates an item.
        public init(stepIdentifier: String, result: Result) {
            self.stepIdentifier = stepIdentifier
            self.result = result
        }
    }
}

extension ResearchKit.StepItem: Codable where Result: Codable {}
