import Foundation

extension ResearchKit {
    /// One run of a task (`ORKTaskResult`): the device and one step result per visited step, in order.
    public struct TaskResult: Sendable, Hashable, Codable {
        /// Class, task identifier, start/end of the run and user info.
        public var header: ResultHeader
        /// The run's UUID (`taskRunUUID`, upper-case canonical text in the file); nil when the file has none
        /// (ResearchKit's own 2024 test results omit it).
        public var taskRunUUID: UUID?
        /// The device the task ran on; nil in files from ResearchKit before 2.0.
        public var device: Device?
        /// Child results in document order: normally one ``ResearchKitResult/step(_:)`` per visited step.
        public var results: [ResearchKitResult]

        /// Creates a task result.
        public init(header: ResultHeader, taskRunUUID: UUID?, device: Device? = nil, results: [ResearchKitResult] = []) {
            self.header = header
            self.taskRunUUID = taskRunUUID
            self.device = device
            self.results = results
        }

        /// The task identifier.
        public var identifier: String { header.identifier }

        /// The step results in document order (other children, which ResearchKit does not produce, are skipped).
        public var stepResults: [StepResult] { results.compactMap(\.step) }

        /// The step results in document order as (step identifier, child results) pairs.
        ///
        /// A step visited twice (navigation back and forth) appears twice.
        public var resultsByStep: [(stepIdentifier: String, results: [ResearchKitResult])] {
            stepResults.map { ($0.identifier, $0.results) }
        }
    }
}
