import Foundation

/// Bridge's `userSharingScope`: how widely a participant agreed to share their data, narrowest first.
public enum SharingScope: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The participant shares with nobody (data may not be analysed for the study).
    case noSharing = "no_sharing"
    /// Shared with the study's sponsors and partners.
    case sponsorsAndPartners = "sponsors_and_partners"
    /// Shared with all qualified researchers (the broadest scope).
    case allQualifiedResearchers = "all_qualified_researchers"

    /// Orders scopes from narrowest to broadest.
    public static func < (a: SharingScope, b: SharingScope) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Parses Bridge's spellings (`sponsors_and_partners`, `SPONSORS_AND_PARTNERS`, `sponsors-and-partners`).
    public init?(text: String) {
        let normalised = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "-", with: "_")
        guard let scope = SharingScope(rawValue: normalised) else { return nil }
        self = scope
    }

    /// The scope of a sharing choice as ResearchKit's `ORKConsentSharingStep` records it: a single-choice answer
    /// (`answerType` `singleChoice` or `choice`) in a step whose identifier contains `sharing` (any case), whose
    /// first choice is 1 or true (share broadly: ``allQualifiedResearchers``), or 0 or false (the study only:
    /// ``sponsorsAndPartners``), or 2 (ResearchKit 3's ORKCatalog form step: "Only institution and its partners",
    /// ``sponsorsAndPartners``). Nil for any other answer (``ConsentRules`` maps others).
    public init?(sharingChoiceIn stepIdentifier: String, answerType: String, choice: JSONValue?) {
        guard stepIdentifier.lowercased().contains("sharing"), answerType == "singleChoice" || answerType == "choice"
        else { return nil }
        switch choice {
        case .number(1), .bool(true): self = .allQualifiedResearchers
        case .number(0), .bool(false), .number(2): self = .sponsorsAndPartners
        default: return nil
        }
    }
}

/// Which records a study may process: a minimum sharing scope and a list of participants who declined or
/// withdrew. Records it excludes are never analysed or exported; the batch summary only counts them.
public struct ConsentPolicy: Sendable, Hashable, Codable {
    /// The canonical base of taskproc's FHIR definitions (`<base>/StructureDefinition/…`, `<base>/CodeSystem/…`),
    /// published in `docs/fhir/`.
    public static let fhirCanonicalBase = "http://taskproc.org/fhir"

    /// The extension URL of a consent's sharing scope on a FHIR `Consent` (`valueCode`), as taskproc's FHIR export
    /// writes it: the canonical URL of its StructureDefinition (`docs/fhir/StructureDefinition-sharing-scope.json`).
    public static let sharingScopeExtension = fhirCanonicalBase + "/StructureDefinition/sharing-scope"

    /// The URL earlier versions wrote for ``sharingScopeExtension`` (not a StructureDefinition URL); still read.
    public static let legacySharingScopeExtension = "urn:taskproc:fhir:sharingScope"

    /// The code system of the sharing scope's codes (Bridge's names).
    public static let sharingScopeSystem = fhirCanonicalBase + "/CodeSystem/sharing-scope"

    /// The extension URL C3-PRO puts on a `Contract` signer for the sharing choice (`valueBoolean`, true = share
    /// broadly).
    public static let c3proSharingExtension =
        "http://fhir-registry.smarthealthit.org/StructureDefinition/consents-to-data-sharing"

    /// Why a record was excluded.
    public enum Exclusion: String, Sendable, Hashable, Codable, CaseIterable {
        /// The participant declined or withdrew.
        case withdrawn
        /// The participant's sharing scope is narrower than required.
        case sharingScope
        /// A scope is required but the record's participant has none on file.
        case sharingScopeUnknown
    }

    /// Records must have at least this scope; nil = no scope filter.
    public var minimumScope: SharingScope?
    /// Sharing scopes by participant key (healthCode, ParticipantIdentifier, externalId or recordId).
    public var scopes: [String: SharingScope] = [:]
    /// Participant identifiers (any key) who declined or withdrew.
    public var withdrawn: Set<String> = []

    /// No filtering.
    public init() {}

    /// Also read the consent records among the batch inputs before analysing (`--consent-from-records`): a declined
    /// consent signature withdraws its participant, a sharing choice gives the participant's scope (see
    /// ``ConsentScan``). Nil or false: only the lists given.
    public var fromRecords: Bool?

    /// True when the policy excludes nothing.
    public var isOpen: Bool { minimumScope == nil && withdrawn.isEmpty && fromRecords != true }

    /// The decision for a record with these keys and, when the record itself names one (a
    /// `userSharingScope=…/` path component), its scope: nil to include, or why it is excluded.
    ///
    /// Withdrawal wins over scope; with a scope filter, a record whose participant has no scope on file is
    /// excluded (consent must be shown, not assumed).
    public func exclusion(keys: RecordKeys, recordScope: SharingScope? = nil) -> Exclusion? {
        let ids = [keys.healthCode, keys.participantIdentifier, keys.recordId].compactMap { $0 }.filter { !$0.isEmpty }
        if ids.contains(where: withdrawn.contains) { return .withdrawn }
        guard let minimumScope else { return nil }
        guard let scope = recordScope ?? ids.lazy.compactMap({ scopes[$0] }).first else { return .sharingScopeUnknown }
        return scope < minimumScope ? .sharingScope : nil
    }

    /// The `userSharingScope=…` component of a record's path, if any.
    public static func scope(inPath path: String) -> SharingScope? {
        for part in path.split(separator: "/") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            if part[..<eq].lowercased() == "usersharingscope" { return SharingScope(text: String(part[part.index(after: eq)...])) }
        }
        return nil
    }

    // MARK: Reading the lists

    /// Adds participants' scopes from a file: a CSV (see ``addScopes(csvFile:)``) or FHIR JSON — `Consent`
    /// resources alone, in an array, in a `Bundle`, or in the JSON Lines `export.fhir.jsonl` of `taskproc batch
    /// --format fhir` (`{"export": <Bundle>, "source": …}` per line), as taskproc's own FHIR export writes a consent
    /// signature (see `FHIRExport+Survey.swift`): the extension ``sharingScopeExtension`` gives the scope
    /// of the Consent's `patient`; a `rejected` or `inactive` Consent (the participant declined) gives `no_sharing`;
    /// C3-PRO's signed `Contract` gives its signer's `consents-to-data-sharing` choice (true: all qualified
    /// researchers, false: sponsors and partners), or `no_sharing` when rejected or revoked.
    /// A participant with several scopes keeps the narrowest: consent is shown, not assumed.
    ///
    /// - Returns: How many participants the file gave a scope.
    /// - Throws: ``ExportError`` naming the file and what is wrong.
    @discardableResult
    public mutating func addScopes(file path: String) throws -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { throw ExportError("\(path): cannot read") }
        let text = String(decoding: data.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") || text.hasPrefix("[") else {
            let before = scopes.count
            try addScopes(csvFile: path)
            return scopes.count - before
        }
        var found: [String: SharingScope] = [:]
        for value in try Self.jsonValues(data, file: path) { try Self.collectScopes(value, file: path, into: &found) }
        for (id, scope) in found { scopes[id] = min(scope, scopes[id] ?? scope) }
        return found.count
    }

    /// The JSON values of a file: one JSON document, or JSON Lines (one value per non-empty line).
    static func jsonValues(_ data: Data, file: String) throws -> [JSONValue] {
        do { return [try JSONParser.parse(data, file: file)] } catch {
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            guard lines.count > 1 else { throw ExportError("\(error)") }
            var values: [JSONValue] = []
            for (i, line) in lines.enumerated() {
                do { values.append(try JSONParser.parse(Data(line), file: file)) } catch {
                    throw ExportError("\(file): line \(i + 1): not JSON (\(error))")
                }
            }
            return values
        }
    }

    static func collectScopes(_ value: JSONValue, file: String, into found: inout [String: SharingScope]) throws {
        switch value {
        case .array(let items): for item in items { try collectScopes(item, file: file, into: &found) }
        case .object(let o):
            if o["resourceType"] == nil, let inner = o["export"] {  // a line of export.fhir.jsonl
                try collectScopes(inner, file: file, into: &found)
                return
            }
            switch o["resourceType"]?.stringValue {
            case "Bundle":
                for entry in o["entry"]?.arrayValue ?? [] {
                    if let resource = entry.objectValue?["resource"] { try collectScopes(resource, file: file, into: &found) }
                }
            case "Consent":
                var scope: SharingScope?
                if ["rejected", "inactive"].contains(o["status"]?.stringValue ?? "") { scope = .noSharing }
                for e in o["extension"]?.arrayValue?.compactMap(\.objectValue) ?? []
                where [Self.sharingScopeExtension, Self.legacySharingScopeExtension]
                    .contains(e["url"]?.stringValue ?? "")
                {
                    guard let code = e["valueCode"]?.stringValue, let given = SharingScope(text: code) else {
                        throw ExportError(
                            "\(file): a Consent's sharing scope must be one of "
                                + SharingScope.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    scope = min(given, scope ?? given)
                }
                guard let scope else { return }
                for id in participants(o["patient"]) { found[id] = min(scope, found[id] ?? scope) }
            case "Contract":
                // C3-PRO's signed Contract: a signer's consents-to-data-sharing extension (true = share broadly);
                // a rejected or revoked contract: no_sharing.
                let declined = ["revoked", "terminated", "cancelled", "rejected"].contains(o["status"]?.stringValue ?? "")
                for signer in o["signer"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                    var scope: SharingScope? = declined ? .noSharing : nil
                    for e in signer["extension"]?.arrayValue?.compactMap(\.objectValue) ?? []
                    where e["url"]?.stringValue == Self.c3proSharingExtension {
                        guard let broadly = e["valueBoolean"]?.boolValue else {
                            throw ExportError("\(file): a Contract signer's consents-to-data-sharing must be a valueBoolean")
                        }
                        let given: SharingScope = broadly ? .allQualifiedResearchers : .sponsorsAndPartners
                        scope = min(given, scope ?? given)
                    }
                    guard let scope else { continue }
                    for id in participants(signer["party"]) { found[id] = min(scope, found[id] ?? scope) }
                }
            default:
                return  // Observations, QuestionnaireResponses: nothing about consent
            }
        default:
            throw ExportError("\(file): expected FHIR resources, found \(value.summary)")
        }
    }

    /// Adds participants' scopes from a CSV with a header: a `userSharingScope` column and a participant column
    /// (`healthCode`, `ParticipantIdentifier`, `externalId` or `recordId`; every one present is used).
    ///
    /// - Throws: ``ExportError`` naming the file, line and column that cannot be read.
    public mutating func addScopes(csvFile path: String) throws {
        let table: CSVTable
        do { table = try CSVTable.read(path: path) } catch { throw ExportError(error.description) }
        guard let scopeColumn = table.columnIndex(named: "userSharingScope") else {
            throw ExportError(
                "\(path): no userSharingScope column (found \((table.header ?? []).joined(separator: ", ")))")
        }
        let idColumns = ["healthCode", "ParticipantIdentifier", "externalId", "recordId"].compactMap {
            table.columnIndex(named: $0)
        }
        guard !idColumns.isEmpty else {
            throw ExportError("\(path): no participant column (expected healthCode, ParticipantIdentifier, externalId or recordId)")
        }
        for row in 0..<table.rowCount {
            guard let scope = SharingScope(text: table.string(row: row, column: scopeColumn)) else {
                throw ExportError(
                    "\(path): \(table.location(row: row, column: scopeColumn)): userSharingScope must be one of "
                        + SharingScope.allCases.map(\.rawValue).joined(separator: ", "))
            }
            for c in idColumns where !table.isBlank(row: row, column: c) { scopes[table.string(row: row, column: c)] = scope }
        }
    }

    /// Adds withdrawn participants from a file: plain text (one identifier per line, `#` comments), or JSON — an
    /// array of identifiers, or FHIR `Consent`/`Contract` resources (alone, in an array or in a `Bundle`) — or JSON
    /// Lines of such values (`export.fhir.jsonl` of `taskproc batch --format fhir`, whose `{"export": …}` lines are
    /// unwrapped; its Observations and QuestionnaireResponses are ignored).
    ///
    /// A `Consent` counts as declined or withdrawn when its `status` is `rejected` or `inactive` or its
    /// `provision.type` is `deny`; a `Contract` when its `status` is `revoked`, `terminated`, `cancelled` or
    /// `rejected`, or an extension of one of its `signer`s says `declined`, `withdrawn`, `revoked` or `rejected`.
    /// The participant is the resource's `patient` / `subject` / signer `party`: `identifier.value`, or the id
    /// of a `Patient/<id>` reference.
    ///
    /// - Returns: How many participants the file withdrew.
    /// - Throws: ``ExportError`` naming the file and what is wrong.
    @discardableResult
    public mutating func addWithdrawals(file path: String) throws -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { throw ExportError("\(path): cannot read") }
        let before = withdrawn.count
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") || text.hasPrefix("[") else {
            for line in text.split(whereSeparator: \.isNewline) {
                let id = line.trimmingCharacters(in: .whitespaces)
                if !id.isEmpty && !id.hasPrefix("#") { withdrawn.insert(id) }
            }
            return withdrawn.count - before
        }
        for value in try Self.jsonValues(data, file: path) { try addWithdrawals(value, file: path) }
        return withdrawn.count - before
    }

    private mutating func addWithdrawals(_ value: JSONValue, file: String) throws {
        switch value {
        case .string(let id): withdrawn.insert(id)
        case .array(let items): for item in items { try addWithdrawals(item, file: file) }
        case .object(let o):
            if o["resourceType"] == nil, let inner = o["export"] {  // a line of export.fhir.jsonl
                try addWithdrawals(inner, file: file)
                return
            }
            switch o["resourceType"]?.stringValue {
            case "Bundle":
                for entry in o["entry"]?.arrayValue ?? [] {
                    if let resource = entry.objectValue?["resource"] { try addWithdrawals(resource, file: file) }
                }
            case "Observation", "QuestionnaireResponse":
                return  // other resources of an export bundle say nothing about consent
            case "Consent":
                let status = o["status"]?.stringValue ?? ""
                let denied = o["provision"]?.objectValue?["type"]?.stringValue == "deny"
                if ["rejected", "inactive"].contains(status) || denied {
                    withdrawn.formUnion(Self.participants(o["patient"]))
                }
            case "Contract":
                let status = o["status"]?.stringValue ?? ""
                let signers = o["signer"]?.arrayValue?.compactMap(\.objectValue) ?? []
                let declinedSigners = signers.filter { Self.saysDeclined($0["extension"]) }
                if ["revoked", "terminated", "cancelled", "rejected"].contains(status) {
                    for subject in o["subject"]?.arrayValue ?? [] { withdrawn.formUnion(Self.participants(subject)) }
                    for signer in signers { withdrawn.formUnion(Self.participants(signer["party"])) }
                } else {
                    for signer in declinedSigners { withdrawn.formUnion(Self.participants(signer["party"])) }
                }
            default:
                throw ExportError(
                    "\(file): expected participant identifiers or FHIR Consent/Contract resources, found \(value.summary)")
            }
        default:
            throw ExportError("\(file): expected participant identifiers or FHIR resources, found \(value.summary)")
        }
    }

    /// Identifiers of a FHIR Reference: `identifier.value` and the id of a `Patient/<id>` reference.
    static func participants(_ reference: JSONValue?) -> [String] {
        guard let r = reference?.objectValue else { return [] }
        var ids: [String] = []
        if let value = r["identifier"]?.objectValue?["value"]?.stringValue { ids.append(value) }
        if let ref = r["reference"]?.stringValue, let slash = ref.lastIndex(of: "/") {
            ids.append(String(ref[ref.index(after: slash)...]))
        }
        return ids
    }

    /// True when an extension list holds a value saying the signer declined or withdrew.
    static func saysDeclined(_ extensions: JSONValue?) -> Bool {
        let words: Set<String> = ["declined", "withdrawn", "withdrew", "revoked", "rejected"]
        for e in extensions?.arrayValue?.compactMap(\.objectValue) ?? [] {
            let values = [
                e["valueCode"]?.stringValue, e["valueString"]?.stringValue,
                e["valueCoding"]?.objectValue?["code"]?.stringValue,
                e["valueCodeableConcept"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue?["code"]?.stringValue,
            ]
            if values.contains(where: { $0.map { words.contains($0.lowercased()) } ?? false }) { return true }
        }
        return false
    }
}
