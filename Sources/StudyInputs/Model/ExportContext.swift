import Foundation

/// What exporters know about where results came from: task and step dates, identifiers, the device and the
/// participant, looked up in the loaded input and overridable by the user.
public struct ExportContext: Sendable {
    /// Start and end of one step, from its ResearchKit step result.
    public struct StepDates: Sendable, Hashable {
        /// Start of the step.
        public var start: ResultDate?
        /// End of the step.
        public var end: ResultDate?

        /// Creates step dates.
        public init(start: ResultDate?, end: ResultDate?) {
            self.start = start
            self.end = end
        }
    }

    /// The ResearchKit task identifier, when the input was a task result.
    public var taskIdentifier: String?
    /// The ResearchKit `taskRunUUID`, when known.
    public var taskRunUUID: String?
    /// The participant (Bridge `healthCode` or MyDataHelps `ParticipantIdentifier`, from the input's path as
    /// ``RecordKeys`` reads it, or given by the user).
    public var participant: String?
    /// The device that recorded the task (`ORKDevice` product and OS), when known.
    public var device: String?
    /// The identifier of the device that recorded the task, when the record holds one.
    ///
    /// An app's `identifierForVendor`, as MORK's README shows in `device_id`: the task result's `userInfo` key `deviceIdentifier`,
    /// `deviceId`, `device_id` or `identifierForVendor`. `ORKDevice` holds no identifier.
    public var deviceIdentifier: String?
    /// The `userInfo` keys ``deviceIdentifier`` is read from, in order.
    public static let deviceIdentifierKeys = ["deviceIdentifier", "deviceId", "device_id", "identifierForVendor"]
    /// Dates of each step, by step identifier.
    public var steps: [String: StepDates] = [:]
    /// Start and end of the whole task or result, when known.
    public var start: ResultDate?
    /// End of the whole task or result.
    public var end: ResultDate?
    /// When the export was made (the FHIR bundle's `timestamp`, MORK's signature time).
    public var exportedAt: ResultDate
    /// The FHIR reference to the participant (set by the FHIR export from its settings): a Patient reference or
    /// an identifier; nil when unknown.
    public var fhirSubject: JSONValue?

    /// An empty context: no dates known.
    public init(exportedAt: Date = Date()) {
        self.exportedAt = ResultDate(date: exportedAt, utcOffset: 0)
    }

    /// The context of a loaded input: ResearchKit task/step dates, task run, device; the participant from the
    /// input's path (``RecordKeys``).
    public init(input: LoadedInput, exportedAt: Date = Date()) {
        self.init(exportedAt: exportedAt)
        absorb(input)
    }

    private mutating func absorb(_ input: LoadedInput) {
        if let document = input.researchKit {
            if let task = document.taskResult {
                taskIdentifier = taskIdentifier ?? task.identifier
                taskRunUUID = taskRunUUID ?? task.taskRunUUID?.uuidString
                if let d = task.device {
                    let text = [d.product, d.platform, d.osVersion].compactMap { $0 }.joined(separator: " ")
                    if !text.isEmpty { device = device ?? text }
                }
                if deviceIdentifier == nil, let info = task.header.userInfo {
                    deviceIdentifier = Self.deviceIdentifierKeys.lazy.compactMap { info[$0]?.stringValue }
                        .first { !$0.isEmpty }
                }
                start = start ?? task.header.startDate
                end = end ?? task.header.endDate
                for step in task.stepResults where steps[step.identifier] == nil {
                    steps[step.identifier] = StepDates(start: step.header.startDate, end: step.header.endDate)
                }
            } else if let result = document.result {
                for item in result.stepItems where steps[item.stepIdentifier] == nil {
                    let header = item.result.header
                    steps[item.stepIdentifier] = StepDates(start: header.startDate, end: header.endDate)
                    start = start ?? header.startDate
                    end = end ?? header.endDate
                }
            }
        }
        if participant == nil {
            let keys = RecordKeys(path: input.path)
            participant = keys.healthCode ?? keys.participantIdentifier
        }
        for recording in input.tapping {
            if let step = recording.stepIdentifier, steps[step] == nil, recording.startDate != nil {
                steps[step] = StepDates(start: recording.startDate, end: recording.endDate)
            }
        }
        for child in input.children { absorb(child) }
    }

    /// The step's start, else the task's start; nil when the input carries no dates (a bare recorder log or CSV).
    public func startDate(of step: String?) -> ResultDate? {
        step.flatMap { steps[$0]?.start } ?? start
    }

    /// The step's end, else the task's end, else the start; nil when the input carries no dates.
    public func endDate(of step: String?) -> ResultDate? {
        step.flatMap { steps[$0]?.end } ?? end ?? startDate(of: step)
    }
}
