import Foundation

/// Join keys of a record, carried into every output row so results can be joined to the study's tables.
public struct RecordKeys: Sendable, Hashable, Codable {
    /// Bridge/Synapse record identifier.
    public var recordId: String?
    /// Bridge/Synapse participant code.
    public var healthCode: String?
    /// MyDataHelps participant identifier.
    public var participantIdentifier: String?
    /// ResearchKit task run UUID.
    public var taskRunUUID: String?
    /// A participant named by a folder of the path other than `healthCode=` and `ParticipantIdentifier=`
    /// (``participantFolderKeys``); nil when none.
    public var folderParticipant: String?

    enum CodingKeys: String, CodingKey {
        case recordId, healthCode, participantIdentifier = "ParticipantIdentifier", taskRunUUID
        case folderParticipant = "participant"
    }

    /// The record's participant.
    ///
    /// One rule: `healthCode` (Bridge, Synapse), else `ParticipantIdentifier`
    /// (MyDataHelps, also from its `SurveyData/<participant>/` folder), else a ``participantFolderKeys`` path folder;
    /// nil when the record names no participant. The `participant` column of every batch table.
    public var participant: String? {
        [healthCode, participantIdentifier, folderParticipant].lazy.compactMap { $0 }.first { !$0.isEmpty }
    }

    /// Path folders `name=value` that name a participant when neither `healthCode=` nor `ParticipantIdentifier=`
    /// does (names compared ignoring case): `participant=`, `participantId=`, `subject=`, `subjectId=`,
    /// `externalId=`, `userId=`.
    public static let participantFolderKeys = [
        "participant", "participantid", "subject", "subjectid", "externalid", "userid",
    ]

    /// Column names of the keys, in CSV order.
    public static let columns = ["recordId", "healthCode", "ParticipantIdentifier", "taskRunUUID"]

    /// The keys in ``columns`` order, blank when unknown.
    public var values: [String] { [recordId ?? "", healthCode ?? "", participantIdentifier ?? "", taskRunUUID ?? ""] }

    /// No keys.
    public init() {}

    /// Keys found in a loaded record: those of its path (see ``init(path:)``) and the ResearchKit task result's
    /// `taskRunUUID`.
    public init(input: LoadedInput) {
        self.init(path: input.path)
        if taskRunUUID == nil, let uuid = input.researchKit?.taskResult?.taskRunUUID { taskRunUUID = uuid.uuidString }
    }

    /// Keys a path names, without reading anything: `name=value` components (`recordId=…/`, `healthCode=…/`,
    /// `ParticipantIdentifier=…/`, `taskRunUUID=…/`, as in partitioned exports) and the participant folder of a
    /// MyDataHelps `SurveyData/<participant>/…` path.
    public init(path: String) {
        let parts = path.split(separator: "/").map(String.init)
        for part in parts {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let name = part[..<eq].lowercased()
            let value = String(part[part.index(after: eq)...])
            switch name {
            case "recordid": recordId = value
            case "healthcode": healthCode = value
            case "participantidentifier": participantIdentifier = value
            case "taskrunuuid": taskRunUUID = value
            case _ where Self.participantFolderKeys.contains(name) && folderParticipant == nil:
                folderParticipant = value
            default: break
            }
        }
        if participantIdentifier == nil, let root = parts.lastIndex(where: { $0.lowercased() == "surveydata" }),
            root + 1 < parts.count
        {
            participantIdentifier = parts[root + 1]
        }
    }
}
