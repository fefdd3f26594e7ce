import ActiveTasks
import Foundation
import StudyInputs

/// The `fhir` export: a FHIR R4 `Bundle` of type `collection` holding one `Observation` per measure that has an
/// established code.
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

    /// Builds the bundle for `records`.
    public static func bundle(
        _ records: [ExportRecord], context: ExportContext, consentShape: FHIRConsentShape = .consent
    ) -> Output {
        var entries: [JSONValue] = []
        var skipped: [String] = []
        for record in records {
            if record.shape == .answers {
                let resources = surveyResources(record, context: context, consentShape: consentShape, skipped: &skipped)
                if resources.isEmpty {
                    skipped.append("\(record.source ?? record.kind): no answer with a value and no consent signature")
                }
                for (id, resource) in resources {
                    var resource = resource
                    resource.entries.insert(("id", .string(id)), at: 1)
                    entries.append(
                        .object(JSONObject([("fullUrl", .string("urn:uuid:" + id)), ("resource", .object(resource))])))
                }
                continue
            }
            let observations = observations(for: record, context: context, skipped: &skipped)
            if observations.isEmpty {
                skipped.append(
                    "\(record.stepIdentifier ?? record.source ?? record.kind): no FHIR mapping for \(record.kind) results with these values")
            }
            for observation in observations {
                let id = observation.id
                var resource = observation.resource
                resource.entries.insert(("id", .string(id)), at: 1)
                entries.append(
                    .object(JSONObject([("fullUrl", .string("urn:uuid:" + id)), ("resource", .object(resource))])))
            }
        }
        // FHIR JSON has no empty arrays: a bundle with nothing to say has no `entry`.
        var fields: [(key: String, value: JSONValue)] = [
            ("resourceType", .string("Bundle")), ("type", .string("collection")),
            ("timestamp", .string(context.exportedAt.description)),
        ]
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
        if let participant = context.participant {
            r.append(("subject", .object(JSONObject([("identifier", .object(JSONObject([("value", .string(participant))])))]))))
        }
        if let start = context.startDate(of: step), let end = context.endDate(of: step) {
            r.append(
                (
                    "effectivePeriod",
                    .object(JSONObject([("start", .string(start.description)), ("end", .string(end.description))]))
                ))
        }
        r.append(
            (
                "valueQuantity",
                .object(
                    JSONObject([
                        ("value", .number(m.value)), ("unit", .string(m.unit)),
                        ("system", .string("http://unitsofmeasure.org")), ("code", .string(m.unitCode)),
                    ]))
            ))
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
