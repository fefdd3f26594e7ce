import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

/// The consent artefacts of a batch run with `--consent-contract` (C3-PRO's consent module out): the folder
/// `consent/` of the output, written with the other outputs from the run's survey results.
///
/// For every record holding a consent decision that is signed or declined (``ConsentDecision``), in source order:
/// - `consent/<name>.html`: the self-contained consent document (``ConsentDocument``), printable to PDF;
/// - `consent/<name>.contract.json`: the signed (or rejected) FHIR R4 `Contract` following the study's consent
///   (``FHIRExport/signedContract(decision:eligibility:template:participant:settings:attachment:exportedAt:seed:)``),
///   its `legallyBindingAttachment` the document (`url` its file name, SHA-1 `hash`, SHA-256 extension).
///
/// `<name>` is the participant and the task run (`<participant>.<taskRunUUID>`; the record's content hash's first 12
/// digits without a task run; `record` without a participant), with characters other than letters, digits, `.`,
/// `_` and `-` replaced by `_`. Eligibility is checked over **all** the participant's answers in the run (the
/// latest answer to a question counts, by its end date), so an eligibility survey taken before the consent task
/// counts; a participant without a key in the record's path is checked on that record's answers alone.
/// `consent/index.csv` lists each document (participant, record, task run, status, signed at, sharing scope,
/// eligibility, document, SHA-256) and `consent/SHA256SUMS` their hashes in `sha256sum -c` form. Files of an earlier
/// run that this run does not write are removed.
public final class ConsentArtefacts {
    /// The folder, inside the output folder.
    public static let folderName = "consent"
    /// The index's columns.
    public static let indexColumns = [
        "participant", "recordSource", "taskRunUUID", "status", "signedAt", "sharingScope", "eligibility",
        "document", "sha256",
    ]

    let contract: ConsentContract
    let generatedAt: ResultDate
    let settings: FHIRExport.Settings
    /// Answers by participant, with their records' order.
    var answers: [String: [SurveyAnswer]] = [:]
    /// The decisions, in source order.
    var decisions: [(participant: String?, source: String, hash: String, result: SurveyResult)] = []
    let decoder = JSONDecoder()

    /// Collects for `contract`; documents are dated `generatedAt` (the run's start: resumed runs and merges write
    /// the same bytes); `settings` gives the Contract's subject system.
    public init(contract: ConsentContract, generatedAt: Date, settings: FHIRExport.Settings) {
        self.contract = contract
        self.generatedAt = ResultDate(date: generatedAt, utcOffset: 0)
        self.settings = settings
    }

    /// Reads an analysed entry's survey results (a line without a survey result is not parsed).
    func add(_ entry: BatchEntry) throws {
        // kind-names: answers and consent decisions are survey results' (the line is parsed only when it holds one)
        guard entry.line.contains("\"kind\":\"\(TaskKind.survey.rawValue)\"") else { return }
        let root: JSONValue
        do { root = try JSONParser.parse(Data(entry.line.utf8), file: entry.source) } catch {
            throw BatchError("\(entry.source): its journal line cannot be read back: \(error)")
        }
        let keys = root.objectValue?["keys"]?.objectValue
        let key = keys?["healthCode"]?.stringValue ?? keys?["participantIdentifier"]?.stringValue
        let results = root.objectValue?["results"]?.arrayValue ?? []
        // kind-names: the survey results among the record's results, which alone hold answers and consent
        for item in results where item.objectValue?["kind"]?.stringValue == TaskKind.survey.rawValue {
            let result: SurveyResult
            do {
                result = try decoder.decode(SurveyResult.self, from: Data(try ResultEncoding.compactJSON(item).utf8))
            } catch {
                throw BatchError("\(entry.source): its survey result cannot be read back: \(error)")
            }
            let participant = result.participantIdentifier ?? key
            if let participant { answers[participant, default: []] += result.answers }
            if let status = result.consent?.status, status != .unknown {
                decisions.append((participant, entry.source, entry.contentHash, result))
            }
        }
    }

    /// Writes `consent/` into `folder` (nothing, and an earlier run's folder removed, when no record holds a
    /// decision).
    /// - Returns: How many documents were written.
    @discardableResult
    func write(to folder: String) throws -> Int {
        let directory = folder + "/" + Self.folderName
        let fm = FileManager.default
        var written: Set<String> = []
        if !decisions.isEmpty {
            do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw BatchError("\(directory): cannot create: \(error)")
            }
        }
        var index = [BatchOutputs.csvLine(Self.indexColumns)]
        var sums: [String] = []
        var names: [String: Int] = [:]
        for (participant, source, hash, result) in decisions {
            guard let decision = result.consent else { continue }
            let pool =
                participant.map { p in
                    (answers[p] ?? []).enumerated().sorted {
                        ($0.element.endDate?.date ?? .distantPast, $0.offset) < (
                            $1.element.endDate?.date ?? .distantPast, $1.offset
                        )
                    }.map(\.element)
                } ?? result.answers
            let eligibility = contract.eligibility(of: pool)
            var name =
                Self.safe(participant ?? "record") + "." + Self.safe(result.taskRunUUID ?? String(hash.prefix(12)))
            if let n = names[name] {
                names[name] = n + 1
                name += "-\(n + 1)"
            } else {
                names[name] = 1
            }
            let document = ConsentDocument(
                contract: contract,
                signing: ConsentDocument.Signing(
                    participant: participant, decision: decision, record: source, taskRunUUID: result.taskRunUUID,
                    taskIdentifier: result.taskIdentifier),
                eligibility: eligibility, generatedAt: generatedAt)
            let attachment = document.attachment(
                url: name + ".html", title: "Consent of " + (participant ?? "the participant"))
            guard
                let signed = FHIRExport.signedContract(
                    decision: decision, eligibility: eligibility, template: contract, participant: participant,
                    settings: settings, attachment: attachment, exportedAt: generatedAt,
                    seed: ["consent", participant ?? "", source, hash].joined(separator: "\u{1F}"))
            else { continue }
            try Self.put(document.html, at: directory + "/" + name + ".html")
            try Self.put(try ResultEncoding.json(.object(signed)) + "\n", at: directory + "/" + name + ".contract.json")
            written.formUnion([name + ".html", name + ".contract.json"])
            index.append(
                BatchOutputs.csvLine([
                    participant ?? "", source, result.taskRunUUID ?? "", decision.status?.rawValue ?? "",
                    decision.signedAt?.description ?? "", decision.scope?.rawValue ?? "",
                    eligibility?.status.rawValue ?? "", name + ".html", document.sha256,
                ]))
            sums.append(document.sha256 + "  " + name + ".html\n")
        }
        if !written.isEmpty {
            try Self.put(index.joined(), at: directory + "/index.csv")
            try Self.put(sums.joined(), at: directory + "/SHA256SUMS")
            written.formUnion(["index.csv", "SHA256SUMS"])
        }
        // An earlier run's documents that this run does not write.
        for file in (try? fm.contentsOfDirectory(atPath: directory)) ?? [] where !written.contains(file) {
            if file.hasSuffix(".html") || file.hasSuffix(".contract.json") || file == "index.csv"
                || file == "SHA256SUMS"
            {
                try? fm.removeItem(atPath: directory + "/" + file)
            }
        }
        if written.isEmpty { try? fm.removeItem(atPath: directory) }
        return sums.count
    }

    /// `text` with characters other than ASCII letters, digits, `.`, `_` and `-` replaced by `_` (and no leading
    /// `.`).
    static func safe(_ text: String) -> String {
        var out = String(
            text.unicodeScalars.map { c -> Character in
                c.isASCII && (CharacterSet.alphanumerics.contains(c) || "._-".unicodeScalars.contains(c))
                    ? Character(c) : "_"
            })
        if out.hasPrefix(".") { out = "_" + out.dropFirst() }
        return out.isEmpty ? "_" : out
    }

    /// Writes `text` to a sibling and renames it over `path`.
    static func put(_ text: String, at path: String) throws {
        let file = try BufferedFile(path + ".partial")
        try file.append(text)
        try file.close()
        do { try FileSystem.rename(path + ".partial", to: path) } catch { throw BatchError(error) }
    }
}
