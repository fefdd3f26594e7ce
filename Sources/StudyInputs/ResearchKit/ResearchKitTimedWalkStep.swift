extension ResearchKit {
    /// The configuration of a timed-walk trial (`ORKTimedWalkStep`); its `stepDuration` is the time limit.
    public struct TimedWalkStep: Sendable, Hashable, Codable {
        /// The active-step keys and the raw object.
        public var activeStep: ActiveStep
        /// Distance to walk, m; nil when absent.
        public var distanceInMeters: Double?

        /// Creates a timed-walk step configuration.
        public init(activeStep: ActiveStep, distanceInMeters: Double? = nil) {
            self.activeStep = activeStep
            self.distanceInMeters = distanceInMeters
        }

        /// The step identifier.
        public var identifier: String { activeStep.identifier }
    }
}
