extension ResearchKit {
    /// The configuration of a two-finger tapping step (`ORKTappingIntervalStep`); it has no keys beyond the
    /// active-step ones (`stepDuration` = tapping duration, s).
    public struct TappingIntervalStep: Sendable, Hashable, Codable {
        /// The active-step keys and the raw object.
        public var activeStep: ActiveStep

        /// Creates a tapping step configuration.
        public init(activeStep: ActiveStep) { self.activeStep = activeStep }

        /// The step identifier (`tapping.left`, `tapping.right`, `tapping`).
        public var identifier: String { activeStep.identifier }
    }
}
