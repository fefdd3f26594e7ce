import ActiveTasks
import Foundation
import StudyInputs

/// The `mork` export: a Medidata Rave Patient Cloud `form_data` payload (the shape Medidata's MORK library POSTs)
/// holding taskproc's derived per-step scalars.
///
/// Every top-level numeric or boolean value of every result becomes one `field_data` item
/// `{"data_value", "item_oid", "date_time_entered"}` (all strings: numbers in shortest round-trip form, booleans
/// `1`/`0`, dates in MORK's form `yyyy-MM-dd'T'HH:mm:ss` in the device's local time, 24-hour — the step's end, or the
/// export time when the input has no dates); every answer of a survey result becomes one item keyed by its question
/// identifier. Undefined (`null`) values are not sent. Item OIDs default
/// to `<STEP>_<FEATURE>` in upper snake case (`walking.outbound` + `stepCount` → `WALKING_OUTBOUND_STEP_COUNT`) and can be
/// overridden, or a feature left out, by ``Configuration/itemOIDs``.
public enum MORKExport {
    /// The envelope fields and item-OID mapping, read from a small JSON file.
    ///
    /// ```json
    /// {"envelope": {"subject_name": "P-0001", "study_uuid": "…", "folder_oid": "SCREENING", "form_oid": "TAPPING"},
    ///  "itemOIDs": {"tapping.right.numberTaps": "TAP_COUNT_RIGHT", "corXY": null}}
    /// ```
    /// `itemOIDs` keys are `<step>.<feature>` (most specific) or `<feature>`; a `null` value leaves the feature out.
    public struct Configuration: Sendable, Hashable {
        /// Envelope fields by name (`subject_name`, `study_uuid`, `folder_oid`, `form_oid`, `site_oid`, …).
        public var envelope: [String: String] = [:]
        /// Item-OID overrides: `<step>.<feature>` or `<feature>` → OID, or nil to leave the feature out.
        public var itemOIDs: [String: String?] = [:]

        /// An empty configuration.
        public init() {}

        /// Reads a configuration file.
        ///
        /// - Throws: ``ExportError`` naming the file and the offending key.
        public init(file: String) throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ExportError("\(file): cannot read the MORK configuration file")
            }
            let root: JSONValue
            do { root = try JSONParser.parse(data, file: file) } catch { throw ExportError("\(error)") }
            guard let object = root.objectValue else {
                throw ExportError("\(file): expected a JSON object with \"envelope\" and \"itemOIDs\", found \(root.summary)")
            }
            for key in object.keys where key != "envelope" && key != "itemOIDs" {
                throw ExportError("\(file): unknown key \"\(key)\" (expected \"envelope\" and \"itemOIDs\")")
            }
            if let given = object["envelope"] {
                guard let fields = given.objectValue else {
                    throw ExportError("\(file): \"envelope\" must be an object of strings, found \(given.summary)")
                }
                for (key, value) in fields.entries {
                    guard let text = value.stringValue else {
                        throw ExportError("\(file): envelope.\(key) must be a string, found \(value.summary)")
                    }
                    guard MORKExport.envelopeFields.contains(key) else {
                        throw ExportError(
                            "\(file): envelope.\(key) is not a form_data field (expected one of "
                                + MORKExport.envelopeFields.joined(separator: ", ") + ")")
                    }
                    envelope[key] = text
                }
            }
            if let mapping = object["itemOIDs"] {
                guard let entries = mapping.objectValue else {
                    throw ExportError("\(file): \"itemOIDs\" must be an object, found \(mapping.summary)")
                }
                for (key, value) in entries.entries {
                    switch value {
                    case .string(let oid): itemOIDs[key] = .some(oid)
                    case .null: itemOIDs[key] = .some(nil)
                    default: throw ExportError("\(file): itemOIDs.\(key) must be a string or null, found \(value.summary)")
                    }
                }
            }
        }
    }

    /// The `form_data` fields of MORK's payload other than `field_data`, in its README's order.
    public static let envelopeFields = [
        "subject_name", "log_line", "study_uuid", "signature_date_time_entered", "folder_oid", "form_oid", "site_oid",
        "version", "device_id", "signature_oid", "rave_url", "study_name", "record_oid", "subject_uuid",
    ]

    /// Fields that must be known to address the form in Rave.
    public static let requiredFields = ["subject_name", "study_uuid", "folder_oid", "form_oid"]

    /// What `--format mork` writes: the ``payload(_:context:configuration:)``, or — without any configured
    /// envelope, so that the required fields are not all known — the ``fieldData(_:context:configuration:)`` array
    /// alone, with a note, for a caller who fills in its own `form_data`.
    ///
    /// - Throws: ``ExportError`` as the payload does (a configured envelope that lacks a required field, duplicate
    ///   item OIDs).
    public static func document(_ records: [ExportRecord], context: ExportContext, configuration: Configuration)
        throws -> (document: JSONValue, notes: [String])
    {
        // A form is one subject's: survey results that name their participants (MyDataHelps tables) must name one.
        var context = context
        let named = records.compactMap { $0.shape == .answers ? $0.json["participantIdentifier"]?.stringValue : nil }
        let participants = Array(Set(named)).sorted()
        if participants.count > 1 {
            throw ExportError(
                "a MORK form holds one subject's answers, but the input holds survey results of \(participants.count) "
                    + "participants (\(participants.prefix(3).joined(separator: ", "))\(participants.count > 3 ? ", …" : "")): "
                    + "export one participant's results, or use --format fhir")
        }
        if let only = participants.first { context.participant = only }
        let envelope = filledEnvelope(context: context, configuration: configuration)
        guard configuration.envelope.isEmpty, requiredFields.contains(where: { (envelope[$0] ?? "").isEmpty }) else {
            return (try payload(records, context: context, configuration: configuration), [])
        }
        return (
            .array(try fieldData(records, context: context, configuration: configuration)),
            [
                "no form_data envelope (give subject_name, study_uuid, folder_oid, form_oid under \"envelope\" in "
                    + "--mork-config FILE): wrote the field_data array alone"
            ]
        )
    }

    /// The `{"form_data": {…}}` payload for `records`.
    ///
    /// `subject_name` defaults to the input's participant, `device_id` to its device and
    /// `signature_date_time_entered` to the export time; other envelope fields not configured are empty strings.
    ///
    /// - Throws: ``ExportError`` listing the required envelope fields that are missing, and duplicate item OIDs.
    public static func payload(_ records: [ExportRecord], context: ExportContext, configuration: Configuration) throws
        -> JSONValue
    {
        let envelope = filledEnvelope(context: context, configuration: configuration)
        let missing = requiredFields.filter { (envelope[$0] ?? "").isEmpty }
        guard missing.isEmpty else {
            throw ExportError(
                "the mork format needs the form_data fields " + missing.joined(separator: ", ")
                    + ": give them under \"envelope\" in --mork-config FILE (subject_name defaults to the participant when the input names one)")
        }
        let items = try fieldData(records, context: context, configuration: configuration)
        var form: [(key: String, value: JSONValue)] = envelopeFields.map { ($0, .string(envelope[$0] ?? "")) }
        form.insert(("field_data", .array(items)), at: envelopeFields.firstIndex(of: "site_oid")!)
        return .object(JSONObject([("form_data", .object(JSONObject(form)))]))
    }

    /// The configured envelope with its defaults: `subject_name` from the input's participant, `device_id` from its
    /// device, `signature_date_time_entered` the export time (MORK's date form).
    static func filledEnvelope(context: ExportContext, configuration: Configuration) -> [String: String] {
        var envelope = configuration.envelope
        if envelope["subject_name"] == nil, let participant = context.participant { envelope["subject_name"] = participant }
        if envelope["device_id"] == nil, let device = context.device { envelope["device_id"] = device }
        if envelope["signature_date_time_entered"] == nil {
            envelope["signature_date_time_entered"] = context.exportedAt.morkText
        }
        return envelope
    }

    /// The `field_data` items of `records`, in order: every derived scalar of an active-task result, every answer
    /// with a value of a survey result (see ``answerItems(_:context:configuration:seen:)``).
    ///
    /// - Throws: ``ExportError`` when two items would get the same item OID.
    public static func fieldData(_ records: [ExportRecord], context: ExportContext, configuration: Configuration)
        throws -> [JSONValue]
    {
        var items: [JSONValue] = []
        var seen: [String: String] = [:]
        for record in records {
            if record.shape == .answers {
                items += try answerItems(record, context: context, configuration: configuration, seen: &seen)
                continue
            }
            let step = record.stepIdentifier ?? record.kind
            let entered = (context.endDate(of: record.stepIdentifier) ?? context.exportedAt).morkText
            let stepPart = oidPart(step, splitCamel: true)
            for (feature, value) in record.scalars {
                guard let value else { continue }
                guard let oid = itemOID(step: step, name: feature, configuration: configuration,
                    default: stepPart + "_" + featureOIDPart(feature))
                else { continue }
                try claim(oid, origin: step + "." + feature, seen: &seen)
                items.append(item(ResultEncoding.exact(value), oid: oid, entered: entered))
            }
        }
        return items
    }

    /// The OID of `<step>.<name>`: the most specific override in ``Configuration/itemOIDs`` (nil when it leaves the
    /// item out), else `default`.
    static func itemOID(step: String, name: String, configuration: Configuration, default fallback: String) -> String? {
        let oids = configuration.itemOIDs
        let specific: String?? = oids.index(forKey: step + "." + name).map { oids[$0].value }
        let general: String?? = oids.index(forKey: name).map { oids[$0].value }
        if let mapped = specific ?? general { return mapped }
        return fallback
    }

    static func claim(_ oid: String, origin: String, seen: inout [String: String]) throws {
        if let other = seen[oid], other != origin {
            throw ExportError(
                "item OID \(oid) is produced by both \(other) and \(origin): map one of them to another OID in itemOIDs")
        }
        seen[oid] = origin
    }

    static func item(_ value: String, oid: String, entered: String) -> JSONValue {
        .object(
            JSONObject([
                ("data_value", .string(value)), ("item_oid", .string(oid)), ("date_time_entered", .string(entered)),
            ]))
    }

    /// A survey result's answers as MORK sends question results: `item_oid` the question identifier (as MORK
    /// does; overridable by `<step>.<question>` or `<question>` in ``Configuration/itemOIDs``), `data_value` the
    /// answer's `value` (a date in MORK's form `yyyy-MM-dd'T'HH:mm:ss`, device-local time; a Boolean or consent
    /// `1`/`0`; choices joined by `|`, of which MORK sends only the first), `date_time_entered` the answer's end (else the step's, else the export
    /// time) in that form. Answers without a value — skipped, "I don't know", withheld secrets — are not sent.
    static func answerItems(
        _ record: ExportRecord, context: ExportContext, configuration: Configuration, seen: inout [String: String]
    ) throws -> [JSONValue] {
        var items: [JSONValue] = []
        for element in record.json["answers"]?.arrayValue ?? [] {
            guard let answer = element.objectValue, answer["withheld"]?.stringValue == nil,
                var value = answer["value"]?.stringValue,
                let question = answer["questionIdentifier"]?.stringValue
            else { continue }
            let step = answer["stepIdentifier"]?.stringValue ?? question
            if let date = answer["valueDate"]?.stringValue.flatMap({ ResultDate($0) }) { value = date.morkText }
            let type = answer["answerType"]?.stringValue
            if type == "boolean" || type == "consentSignature" || type == "signature", let number = answer["valueNumber"]?.numberValue {
                value = number == 0 ? "0" : "1"  // as every Boolean of this export
            }
            guard let oid = itemOID(step: step, name: question, configuration: configuration, default: question)
            else { continue }
            try claim(oid, origin: step + "." + question, seen: &seen)
            let end = answer["endDate"]?.stringValue.flatMap { ResultDate($0) }
            let entered = (end ?? context.endDate(of: step) ?? context.exportedAt).morkText
            items.append(item(value, oid: oid, entered: entered))
        }
        return items
    }

    /// `walking.outbound` + `stepCount` → `WALKING_OUTBOUND_STEP_COUNT`; `LAeq` → `LAEQ`.
    public static func defaultOID(step: String, feature: String) -> String {
        oidPart(step, splitCamel: true) + "_" + featureOIDPart(feature)
    }

    /// The feature's part of a default OID: camel case is split only when the name starts lower-case (`LAeq` →
    /// `LAEQ`, `stepCount` → `STEP_COUNT`).
    static func featureOIDPart(_ feature: String) -> String {
        oidPart(feature, splitCamel: feature.first?.isLowercase ?? true)
    }

    /// One part of a default OID: letters and digits upper-cased, every run of other characters one `_`, none at
    /// either end; with `splitCamel`, a `_` also before an upper-case letter between a lower-case letter or digit and
    /// a lower-case letter (`stepCount` → `STEP_COUNT`, but `dBHL` → `DBHL`).
    static func oidPart(_ s: String, splitCamel: Bool) -> String {
        asciiOIDPart(s, splitCamel: splitCamel) ?? unicodeOIDPart(s, splitCamel: splitCamel)
    }

    /// ``oidPart(_:splitCamel:)`` on bytes, for ASCII text (every name taskproc gives; a test compares it with
    /// ``unicodeOIDPart(_:splitCamel:)``); nil for other text.
    static func asciiOIDPart(_ s: String, splitCamel: Bool) -> String? {
        let bytes = Array(s.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
        func isUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let underscore = UInt8(ascii: "_")
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for (i, b) in bytes.enumerated() {
            if isLower(b) || isUpper(b) || isDigit(b) {
                if splitCamel, isUpper(b), i > 0, isLower(bytes[i - 1]) || isDigit(bytes[i - 1]), i + 1 < bytes.count,
                    isLower(bytes[i + 1])
                {
                    out.append(underscore)
                }
                out.append(isLower(b) ? b - 0x20 : b)
            } else if out.last != underscore {
                out.append(underscore)
            }
        }
        guard let first = out.firstIndex(where: { $0 != underscore }),
            let last = out.lastIndex(where: { $0 != underscore })
        else { return "" }
        return String(decoding: out[first...last], as: UTF8.self)
    }

    /// ``oidPart(_:splitCamel:)`` for any text, by Unicode character properties.
    static func unicodeOIDPart(_ s: String, splitCamel: Bool) -> String {
        var out = ""
        let chars = Array(s)
        for (i, c) in chars.enumerated() {
            if c.isLetter || c.isNumber {
                if splitCamel, c.isUppercase, i > 0, chars[i - 1].isLowercase || chars[i - 1].isNumber,
                    i + 1 < chars.count, chars[i + 1].isLowercase
                {
                    out += "_"
                }
                out += c.uppercased()
            } else if !out.hasSuffix("_") {
                out += "_"
            }
        }
        return out.trimmingCharacters(in: CharacterSet(charactersIn: "_"))
    }

}
