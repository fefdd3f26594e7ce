extension ResearchKit {
    /// The keys every ResearchKit result carries (`ORKResult`): class, identifier, dates and user info.
    public struct ResultHeader: Sendable, Hashable, Codable {
        /// The Objective-C class name from `_class`, such as `ORKTappingIntervalResult`.
        public var className: String
        /// The step, task or recorder configuration identifier.
        ///
        /// Step results and task-specific results carry the step identifier, task results the task identifier,
        /// file results the recorder configuration identifier. May be empty in placeholder output.
        public var identifier: String
        /// Wall-clock start (second precision, device UTC offset kept); nil when absent or empty.
        public var startDate: ResultDate?
        /// Wall-clock end (second precision, device UTC offset kept); nil when absent or empty.
        public var endDate: ResultDate?
        /// The result's free-form `userInfo` dictionary, keys in document order; nil when absent.
        public var userInfo: JSONObject?

        /// Creates a header.
        public init(
            className: String, identifier: String, startDate: ResultDate? = nil, endDate: ResultDate? = nil,
            userInfo: JSONObject? = nil
        ) {
            self.className = className
            self.identifier = identifier
            self.startDate = startDate
            self.endDate = endDate
            self.userInfo = userInfo
        }

        /// `endDate − startDate`, s; nil unless both dates are known.
        public var duration: Double? {
            guard let startDate, let endDate else { return nil }
            return endDate.timeIntervalSince1970 - startDate.timeIntervalSince1970
        }
    }
}
