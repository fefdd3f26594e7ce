import ActiveTasks
import Foundation
import StudyInputs

/// The `fhir` export: a FHIR R4 `Bundle` of type `collection` (or `transaction`, ``Settings/bundleType``) holding one
/// `Observation` per measure that has an established code.
///
/// - Walking step counts: LOINC 55423-8 "Number of steps in unspecified time Pedometer", UCUM `{steps}`, category
///   `activity`; a step without motion data (`stepCount` null) gives none.
/// - dB HL tone audiometry (`ORKdBHLToneAudiometryResult`): one Observation per ear and frequency with the
///   recorded `calculatedThreshold` in dB HL (UCUM `dB`), category `exam`, LOINC hearing-threshold codes for
///   500–8000 Hz (``AudiometryAnalysis/hearingThresholdCodes``). Frequencies without a LOINC code (250 Hz) and the no-threshold
///   sentinel are skipped and listed. Legacy `ORKToneAudiometryResult` amplitudes are uncalibrated and never
///   exported as hearing thresholds.
/// - Sound levels of a calibrated recording (`soundLevel.unit` `dB SPL`), per channel: `LAeq`, `LCeq`, `LZeq`,
///   `LAFmax`, `LASmax`, `LAFmin`, `LCpeak`, `LA10`, `LA50`, `LA90` with the code system ``AudioRecordingAnalysis/acousticsSystem``
///   (no LOINC code exists) and UCUM `dB[SPL]`, category `exam`; `LAeq` also carries HealthKit's environmental
///   audio exposure code, as HealthKitOnFHIR maps it. Uncalibrated (dBFS) levels are not sound pressure levels
///   and are skipped.
/// - Survey results: a `QuestionnaireResponse` per task and a `Consent` per consent signature (see
///   `FHIRExport+Survey.swift`).
/// - Results without a mapping give no Observation; ``Output/skipped`` lists them so the caller can say so.
///
/// Every Observation has `status` `final`, the subject (`subject.identifier`, when the input names the participant),
/// the step's dates as `effectivePeriod` (left out when the input carries no dates), the recording device as `device.display`, and `method` naming taskproc's
/// algorithm and version. Ids and `fullUrl`s are deterministic (`urn:uuid:` derived from the record and measure), so
/// the same input always gives the same bundle.
public enum FHIRExport {
    /// A bundle and what could not be expressed in it.
    public struct Output: Sendable {
        /// The `Bundle` resource.
        public var bundle: JSONValue
        /// One line per record or measure with no FHIR mapping.
        public var skipped: [String]
    }

    /// The code system of taskproc's methods (`Observation.method`).
    public static let methodSystem = "urn:taskproc:method"

    /// How the bundle is shaped (`--fhir-bundle`, `--fhir-subject-system`, `--fhir-patient`, `--fhir-consent`).
    public struct Settings: Sendable, Hashable {
        /// A consent signature as an R4 `Consent` or C3-PRO's `Contract`.
        public var consentShape: FHIRConsentShape = .consent
        /// `collection` (a set of resources to read) or `transaction` (to POST to a server, which creates them).
        public var bundleType: FHIRBundleType = .collection
        /// The `system` of the participant's identifier (a URI naming the study's participant identifiers); none
        /// when nil.
        public var subjectSystem: String?
        /// Write a `Patient` for the participant and reference it from every resource, instead of a bare
        /// identifier.
        public var includesPatient = false
        /// The study's consent contract (`--consent-contract`): a consent decision's `Contract` follows it (its
        /// terms, eligibility group and authority) and, with the `Consent`, points to the consent document
        /// (``ConsentDocument``) by its hashes; nil: neither.
        public var consentContract: ConsentContract?
        /// The consent document's `url` in the attachment (the file `analyze --consent-document` writes); nil: none.
        public var consentDocumentURL: String?

        /// The defaults: a collection, identifiers without a system, no Patient, R4 Consents.
        public init() {}
    }

    /// Builds the bundle for `records`.
    public static func bundle(
        _ records: [ExportRecord], context: ExportContext, consentShape: FHIRConsentShape = .consent
    ) -> Output {
        var settings = Settings()
        settings.consentShape = consentShape
        return bundle(records, context: context, settings: settings)
    }

    /// Builds the bundle for `records`, shaped by `settings`.
    ///
    /// Every resource carries an `identifier` (`urn:ietf:rfc:3986`, `urn:uuid:<id>`; a QuestionnaireResponse the
    /// task run's), so a `transaction` creates each one once: every entry has a `request` `POST <type>` with
    /// `ifNoneExist` `identifier=<system>|<value>`, and references to the Patient are its entry's `fullUrl`, which
    /// the server resolves to the Patient it creates or finds.
    public static func bundle(_ records: [ExportRecord], context: ExportContext, settings: Settings) -> Output {
        var resources: [(id: String, resource: JSONObject)] = []
        var patients: [(id: String, resource: JSONObject)] = []
        var skipped: [String] = []
        for record in records {
            // A result that names its participant (a MyDataHelps row) is theirs, whatever the record's path says.
            var context = context
            if let participant = record.json["participantIdentifier"]?.stringValue { context.participant = participant }
            context.fhirSubject = subject(context: context, settings: settings)
            if let patient = patient(context: context, settings: settings), !patients.contains(where: { $0.id == patient.id }) {
                patients.append(patient)
            }
            if record.shape == .answers {
                let found = surveyResources(
                    record, context: context, settings: settings, skipped: &skipped)
                if found.isEmpty {
                    skipped.append("\(record.source ?? record.kind): no answer with a value and no consent signature")
                }
                resources += found
                continue
            }
            let observations = observations(for: record, context: context, skipped: &skipped)
            if observations.isEmpty {
                skipped.append(
                    "\(record.stepIdentifier ?? record.source ?? record.kind): no FHIR mapping for \(record.kind) results with these values")
            }
            resources += observations
        }
        var entries: [JSONValue] = []
        for (id, resource) in patients + resources {
            var resource = resource
            resource.entries.insert(("id", .string(id)), at: 1)
            let type = resource["resourceType"]?.stringValue ?? ""
            if !resource.keys.contains("identifier") {
                // After `id` (and a leading `extension`): identifier is the first element of every resource.
                let at = resource.keys.contains("extension") ? 3 : 2
                let own = JSONValue.object(
                    JSONObject([("system", .string("urn:ietf:rfc:3986")), ("value", .string("urn:uuid:" + id))]))
                resource.entries.insert(("identifier", type == "QuestionnaireResponse" ? own : .array([own])), at: at)
            }
            var entry: [(key: String, value: JSONValue)] = [
                ("fullUrl", .string("urn:uuid:" + id)), ("resource", .object(resource)),
            ]
            if settings.bundleType == .transaction {
                var request: [(key: String, value: JSONValue)] = [("method", .string("POST")), ("url", .string(type))]
                if let query = conditionalCreate(resource) { request.append(("ifNoneExist", .string(query))) }
                entry.append(("request", .object(JSONObject(request))))
            }
            entries.append(.object(JSONObject(entry)))
        }
        // FHIR JSON has no empty arrays: a bundle with nothing to say has no `entry`.
        var fields: [(key: String, value: JSONValue)] = [
            ("resourceType", .string("Bundle")), ("type", .string(settings.bundleType.rawValue)),
        ]
        // A transaction's timestamp is not used; a collection's is when it was assembled.
        if settings.bundleType == .collection { fields.append(("timestamp", .string(context.exportedAt.description))) }
        if !entries.isEmpty { fields.append(("entry", .array(entries))) }
        let bundle = JSONValue.object(JSONObject(fields))
        return Output(bundle: bundle, skipped: skipped)
    }

    /// A measure to emit: its code, value and the method that produced it.
    typealias Measure = ExportMeasure

    static func observations(for record: ExportRecord, context: ExportContext, skipped: inout [String]) -> [(
        id: String, resource: JSONObject
    )] {
        measures(of: record, skipped: &skipped).map { observation($0, record: record, context: context) }
    }

    /// The measures of a record that have an established code, as its analysis read them from the typed result
    /// (see ``TaskAnalysis/exportMeasures(of:skipped:)``); what could not be coded goes to `skipped`.
    static func measures(of record: ExportRecord, skipped: inout [String]) -> [Measure] {
        skipped += record.uncoded
        return record.measures
    }

    static func observation(_ m: Measure, record: ExportRecord, context: ExportContext) -> (
        id: String, resource: JSONObject
    ) {
        let step = m.step ?? record.stepIdentifier
        let id = deterministicUUID(
            [context.taskRunUUID ?? "", record.source ?? "", step ?? "", m.system, m.code, String(m.occurrence),
             m.extra.map { "\($0.key)=\($0.value.summary)" }.joined(separator: ";")].joined(separator: "\u{1F}"))
        var r: [(key: String, value: JSONValue)] = [
            ("resourceType", .string("Observation")),
            ("status", .string("final")),
            (
                "category",
                .array([
                    .object(
                        JSONObject([
                            (
                                "coding",
                                .array([
                                    ExportMeasure.coding(
                                        system: "http://terminology.hl7.org/CodeSystem/observation-category",
                                        code: m.category, display: categoryDisplay[m.category] ?? m.category)
                                ])
                            )
                        ]))
                ])
            ),
            (
                "code",
                .object(
                    JSONObject([
                        (
                            "coding",
                            .array(
                                [ExportMeasure.coding(system: m.system, code: m.code, display: m.display)]
                                    + m.additionalCodings)
                        ),
                        ("text", .string(m.display)),
                    ]))
            ),
        ]
        if let subject = context.fhirSubject { r.append(("subject", subject)) }
        if let start = context.startDate(of: step), let end = context.endDate(of: step) {
            r.append(
                (
                    "effectivePeriod",
                    .object(JSONObject([("start", .string(start.description)), ("end", .string(end.description))]))
                ))
        }
        switch m.valueType {
        case .boolean: r.append(("valueBoolean", .bool(m.value != 0)))
        case .integer: r.append(("valueInteger", .number(m.value.rounded())))
        case .quantity:
            r.append(
                (
                    "valueQuantity",
                    .object(
                        JSONObject([
                            ("value", .number(m.value)), ("unit", .string(m.unit)),
                            ("system", .string("http://unitsofmeasure.org")), ("code", .string(m.unitCode)),
                        ]))
                ))
        }
        r += m.extra
        if let device = context.device { r.append(("device", .object(JSONObject([("display", .string(device))])))) }
        r.append(
            (
                "method",
                .object(
                    JSONObject([
                        ("coding", .array([ExportMeasure.coding(system: methodSystem, code: m.method, display: m.methodDisplay)])),
                        ("text", .string("taskproc \(taskprocVersion): \(m.methodDisplay)")),
                    ]))
            ))
        if let step {
            r.append(("note", .array([.object(JSONObject([("text", .string("ResearchKit step \(step)"))]))])))
        }
        return (id, JSONObject(r))
    }

    /// The participant as a reference: by identifier (with ``Settings/subjectSystem`` when given), and to the
    /// bundle's Patient too (``Settings/includesPatient``; R4 allows both in one Reference, so readers that match
    /// identifiers keep working); nil when the participant is unknown.
    static func subject(context: ExportContext, settings: Settings) -> JSONValue? {
        guard let participant = context.participant else { return nil }
        var fields: [(key: String, value: JSONValue)] = []
        if let patient = patient(context: context, settings: settings) {
            fields.append(("reference", .string("urn:uuid:" + patient.id)))
        }
        fields.append(("identifier", participantIdentifier(participant, settings: settings)))
        return .object(JSONObject(fields))
    }

    /// The participant's `Identifier`: `system` (when configured) and `value`.
    static func participantIdentifier(_ participant: String, settings: Settings) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = []
        if let system = settings.subjectSystem { fields.append(("system", .string(system))) }
        fields.append(("value", .string(participant)))
        return .object(JSONObject(fields))
    }

    /// The participant's `Patient` (only its identifier: taskproc knows nothing else about them), when asked for
    /// and the participant is known.
    static func patient(context: ExportContext, settings: Settings) -> (id: String, resource: JSONObject)? {
        guard settings.includesPatient, let participant = context.participant else { return nil }
        let id = deterministicUUID(["Patient", settings.subjectSystem ?? "", participant].joined(separator: "\u{1F}"))
        return (
            id,
            JSONObject([
                ("resourceType", .string("Patient")),
                ("identifier", .array([participantIdentifier(participant, settings: settings)])),
            ])
        )
    }

    /// The `ifNoneExist` query of a resource: its first identifier, `identifier=<system>|<value>` (URL-encoded).
    static func conditionalCreate(_ resource: JSONObject) -> String? {
        let first: JSONObject?
        switch resource["identifier"] {
        case .array(let list)?: first = list.first?.objectValue
        case .object(let one)?: first = one
        default: first = nil
        }
        guard let identifier = first, let value = identifier["value"]?.stringValue else { return nil }
        let token = (identifier["system"]?.stringValue.map { $0 + "|" } ?? "") + value
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#?")
        return "identifier=" + (token.addingPercentEncoding(withAllowedCharacters: allowed) ?? token)
    }

    /// Displays of the HL7 observation categories the measures use (``ExportMeasure/category``).
    static let categoryDisplay = ["activity": "Activity", "exam": "Exam"]

    /// A version-4-shaped UUID derived from `text` (two FNV-1a 64-bit hashes), lower case.
    static func deterministicUUID(_ text: String) -> String {
        func fnv(_ seed: UInt64) -> UInt64 {
            var h = seed
            for b in text.utf8 {
                h ^= UInt64(b)
                h &*= 0x100_0000_01b3
            }
            return h
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        let a = fnv(0xcbf2_9ce4_8422_2325)
        let b = fnv(0x8422_2325_cbf2_9ce4)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
            String(hex[hex.index(hex.startIndex, offsetBy: r.lowerBound)..<hex.index(hex.startIndex, offsetBy: r.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}

/// The type of the `fhir` export's Bundle (`--fhir-bundle`).
public enum FHIRBundleType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A set of resources to read (a server stores it as one document and creates nothing from it).
    case collection
    /// Resources to create on a server: each entry a conditional `POST`.
    case transaction
}
