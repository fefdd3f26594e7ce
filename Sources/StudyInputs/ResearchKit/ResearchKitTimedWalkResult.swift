extension ResearchKit {
    /// The result of one timed-walk trial (`ORKTimedWalkResult`, steps `timed.walk.trial1`, `…trial2`,
    /// `timed.walk.turn.around`).
    public struct TimedWalkResult: Sendable, Hashable, Codable {
        /// Class, step identifier, start/end of the trial, user info.
        public var header: ResultHeader
        /// Distance to walk (from the step), m.
        public var distanceInMeters: Double
        /// Time limit (the step's `stepDuration`), s; nil when the task has no limit (ResearchKit writes the
        /// `CGFLOAT_MAX` sentinel).
        public var timeLimit: Double?
        /// Walk time measured by the step timer, s (0.1 s resolution).
        public var duration: Double

        /// Creates a timed-walk result.
        public init(header: ResultHeader, distanceInMeters: Double, timeLimit: Double?, duration: Double) {
            self.header = header
            self.distanceInMeters = distanceInMeters
            self.timeLimit = timeLimit
            self.duration = duration
        }

        /// The step identifier.
        public var identifier: String { header.identifier }
    }
}
