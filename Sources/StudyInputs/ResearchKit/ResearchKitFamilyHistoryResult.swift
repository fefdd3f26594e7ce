extension ResearchKit {
    /// `ORKFamilyHistoryResult` (ResearchKit 3.1's family history step): one nested task of answers per relative.
    public struct FamilyHistoryResult: Sendable, Hashable, Codable {
        /// Class, step identifier, start/end and user info.
        public var header: ResultHeader
        /// The relatives the participant entered, in document order (`relatedPersons`).
        public var relatedPersons: [RelatedPerson]
        /// The identifiers of the health conditions the step offered (`displayedConditions`): the question's
        /// choices, not answers.
        public var displayedConditions: [String]

        /// Creates a family history result.
        public init(header: ResultHeader, relatedPersons: [RelatedPerson] = [], displayedConditions: [String] = []) {
            self.header = header
            self.relatedPersons = relatedPersons
            self.displayedConditions = displayedConditions
        }
    }

    /// `ORKRelatedPerson`: one relative of a family history result and the answers given about them.
    public struct RelatedPerson: Sendable, Hashable, Codable {
        /// The relative's identifier, unique within the result (a UUID in ResearchKit's step).
        public var identifier: String
        /// The relative group the person was entered in (the step's `ORKRelativeGroup` identifier, such as
        /// `parents` or `siblings`): the relation to the participant.
        public var groupIdentifier: String
        /// The identifier of the answer that titles the relative's cell (such as the name question); not a value.
        public var identifierForCellTitle: String
        /// The relative's answers: a task result whose step results hold question results; nil when absent.
        public var taskResult: TaskResult?

        /// Creates a relative.
        public init(
            identifier: String, groupIdentifier: String, identifierForCellTitle: String, taskResult: TaskResult?
        ) {
            self.identifier = identifier
            self.groupIdentifier = groupIdentifier
            self.identifierForCellTitle = identifierForCellTitle
            self.taskResult = taskResult
        }
    }
}
