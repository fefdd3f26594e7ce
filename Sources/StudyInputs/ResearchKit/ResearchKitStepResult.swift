extension ResearchKit {
    /// The results of one visited step (`ORKStepResult`).
    ///
    /// For an active step ResearchKit orders the children as: results the view controller added, then one
    /// ``FileResult`` per recorder output file, then the step-specific result (tapping, dB HL, …).
    public struct StepResult: Sendable, Hashable, Codable {
        /// Class, step identifier, when the step was presented and dismissed, user info.
        public var header: ResultHeader
        /// True when the result was restored from an earlier visit rather than produced now; false when absent.
        public var isPreviousResult: Bool
        /// The UIKit notification identifier of VoiceOver or Switch Control when one was running; nil otherwise.
        public var enabledAssistiveTechnology: String?
        /// Child results in document order.
        public var results: [ResearchKitResult]

        /// Creates a step result.
        public init(
            header: ResultHeader, isPreviousResult: Bool = false, enabledAssistiveTechnology: String? = nil,
            results: [ResearchKitResult] = []
        ) {
            self.header = header
            self.isPreviousResult = isPreviousResult
            self.enabledAssistiveTechnology = enabledAssistiveTechnology
            self.results = results
        }

        /// The step identifier.
        public var identifier: String { header.identifier }

        /// The recorder output files directly inside this step result, in order.
        public var files: [FileResult] { results.compactMap(\.file) }
    }
}
