import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

/// Reads the consent records among a batch run's own inputs before anything is analysed
/// (`taskproc batch --consent-from-records`), so a participant who declined, or chose to share with the study only,
/// is handled by the ``ConsentPolicy`` in the same run that holds their consent.
///
/// A consent record is a task result holding a consent decision or a sharing choice (``ConsentDecision``, read
/// with the run's ``ConsentRules``): ResearchKit's legacy review, ResearchKit 3's web-view review and signature, or
/// a configured answer. Its participant is named by its path (`healthCode=…/`, `ParticipantIdentifier=…/`, or the
/// MyDataHelps `SurveyData/<participant>/` folder: ``RecordKeys/init(path:)``); a record's own `recordId` names no
/// participant, so a decision without a participant key cannot reach the participant's other records and is
/// reported as unattributed.
///
/// Only files that can hold a consent are read: result and table files (not audio, archives or documents) of at
/// most ``maximumCandidateBytes`` whose bytes name `ORKSignatureResult` (and so `ORKConsentSignatureResult`),
/// `consent` or `sharing` (lower case, capitalised or upper case), or a step or question a ``ConsentRules`` rule
/// names, alone or inside a task folder;
/// everything else is left to the analysis pass. Each record is read with the run's own loading options.
public enum ConsentScan {
    /// Files larger than this (bytes) are not read as consent candidates (a consent task result with its signature
    /// image is a few hundred kB at most).
    public static let maximumCandidateBytes = 8 << 20

    /// What the scan found.
    public struct Found: Sendable, Hashable {
        /// Sources of the records that hold a consent decision, in source order.
        public var records: [String] = []
        /// Participants (every key of the record's path) whose consent was declined.
        public var declined: Set<String> = []
        /// Sharing scopes by participant key; the narrowest when a participant has several.
        public var scopes: [String: SharingScope] = [:]
        /// Records with a decision but no participant key in their path: their decision applies to nothing else.
        public var unattributed: [String] = []
        /// Records holding a consent step or sharing question whose decision or scope cannot be read
        /// (`source: warning`): their participants are not withdrawn and get no scope from them, and the record
        /// says why in its warnings.
        public var undecided: [String] = []
        /// Candidate records that could not be read (`source: reason`); the analysis pass reports them too.
        public var unreadable: [String] = []

        /// The one-line account the run log and the command line print.
        public var summary: String {
            var text =
                "\(records.count) consent record\(records.count == 1 ? "" : "s") read: \(declined.count) "
                + "participant key\(declined.count == 1 ? "" : "s") declined, \(scopes.count) with a sharing choice"
            if !unattributed.isEmpty {
                text += "; \(unattributed.count) without a participant key in the path (applied to nothing else)"
            }
            if !undecided.isEmpty {
                text += "; \(undecided.count) whose decision or sharing choice cannot be read (see their warnings)"
            }
            if !unreadable.isEmpty { text += "; \(unreadable.count) unreadable" }
            return text
        }
    }

    /// Scans the inputs' records.
    /// - Parameters:
    ///   - inputs: The run's inputs.
    ///   - archiveFolder: The run's extraction folder (archives extracted here are reused by the analysis pass).
    ///   - limits: Archive limits.
    ///   - options: The run's loading and analysis options.
    /// - Throws: ``BatchError`` when an input does not exist.
    public static func scan(
        inputs: [RecordDiscovery.Input], archiveFolder: String, limits: ArchiveLimits, options: AnalysisOptions
    ) throws -> Found {
        var found = Found()
        for record in try RecordDiscovery.discover(inputs: inputs, archiveFolder: archiveFolder, limits: limits).records
        where record.rejection == nil && isCandidate(record, rules: options.consent ?? .default) {
            let input: LoadedInput
            do throws(InputError) {
                input = try AnalysisRegistry.load(path: record.location, options: options.loader)
            } catch {
                found.unreadable.append("\(record.source): \(error)")
                continue
            }
            let keys = RecordKeys(path: record.source)
            let fromPath = [keys.healthCode, keys.participantIdentifier].compactMap { $0 }.filter { !$0.isEmpty }
            var decided = false
            var unattributed = false
            for survey in surveys(input) {
                let decision = ConsentDecision(survey, rules: options.consent ?? .default)
                guard !decision.isEmpty else { continue }
                for warning in decision.warnings { found.undecided.append("\(record.source): \(warning)") }
                decided = true
                // A result that names its participant (a MyDataHelps row) is theirs; otherwise the path names them.
                let participants = survey.participantIdentifier.map { [$0] } ?? fromPath
                if participants.isEmpty { unattributed = true }
                for id in participants {
                    if decision.declined { found.declined.insert(id) }
                    if let scope = decision.scope { found.scopes[id] = min(scope, found.scopes[id] ?? scope) }
                }
            }
            if decided { found.records.append(record.source) }
            if unattributed { found.unattributed.append(record.source) }
        }
        return found
    }

    /// The survey results of an input and of its children: only the answers (the analysis pass measures recorded
    /// videos with FFmpeg; a consent decision needs none of that).
    static func surveys(_ input: LoadedInput) -> [SurveyResult] { AnalysisRegistry.answers(of: input) }

    /// True when the record has a file small enough to be a consent result whose bytes name a signature result,
    /// consent, sharing, or a step or question one of `rules` names.
    static func isCandidate(_ record: BatchRecord, rules: ConsentRules = .default) -> Bool {
        let files =
            record.isFolder
            ? RecordDiscovery.filesUnder(record.location).map { record.location + "/" + $0 } : [record.location]
        let configured = (rules.sharing.compactMap { $0.step ?? $0.question } + rules.decision.compactMap { $0.step ?? $0.question }
            + rules.signatureSteps).map { Data($0.utf8) }
        return files.contains { mentionsConsent($0, also: configured) }
    }

    private static let markers = [
        "SignatureResult", "consent", "Consent", "CONSENT", "sharing", "Sharing",
        "SHARING",
    ].map { Data($0.utf8) }

    static func mentionsConsent(_ path: String, also configured: [Data] = []) -> Bool {
        // Audio, archives (their entries are records of their own) and documents are never consent results.
        switch InputRecognizer.recognizeFile(path) {
        case .audio, .zipArchive, .skipped, .myDataHelpsJoinTable: return false
        default: break
        }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
            size.intValue <= maximumCandidateBytes, let data = FileManager.default.contents(atPath: path)
        else { return false }
        return (markers + configured).contains { data.range(of: $0) != nil }
    }
}

extension ConsentPolicy {
    /// Adds what a ``ConsentScan`` found: declined participants are withdrawn; a participant's scope becomes the
    /// narrowest of the scope on file and the record's choice.
    public mutating func add(_ found: ConsentScan.Found) {
        withdrawn.formUnion(found.declined)
        for (id, scope) in found.scopes { scopes[id] = min(scope, scopes[id] ?? scope) }
    }
}
