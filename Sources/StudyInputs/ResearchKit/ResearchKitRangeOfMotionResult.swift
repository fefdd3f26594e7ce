extension ResearchKit {
    /// The result of a knee or shoulder range-of-motion step (`ORKRangeOfMotionResult`); all angles in degrees.
    public struct RangeOfMotionResult: Sendable, Hashable, Codable {
        /// Class, step identifier (`knee.range.of.motion`, `shoulder.range.of.motion`), start/end, user info.
        public var header: ResultHeader
        /// Angle at the start of the movement, degrees.
        public var start: Double
        /// Angle at the end of the movement, degrees.
        public var finish: Double
        /// Smallest angle reached, degrees.
        public var minimum: Double
        /// Largest angle reached, degrees.
        public var maximum: Double
        /// The range of motion reported by ResearchKit (the span between the extreme angles), degrees.
        public var range: Double

        /// Creates a range-of-motion result.
        public init(
            header: ResultHeader, start: Double, finish: Double, minimum: Double, maximum: Double, range: Double
        ) {
            self.header = header
            self.start = start
            self.finish = finish
            self.minimum = minimum
            self.maximum = maximum
            self.range = range
        }

        /// The step identifier.
        public var identifier: String { header.identifier }
    }
}
