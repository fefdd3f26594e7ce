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
    /// The envelope fields, item-OID mapping and Rave field formats, read from a small JSON file.
    ///
    /// ```json
    /// {"envelope": {"subject_name": "P-0001", "study_uuid": "…", "folder_oid": "SCREENING", "form_oid": "TAPPING",
    ///               "log_line": 1},
    ///  "itemOIDs": {"tapping.right.numberTaps": "TAP_COUNT_RIGHT", "corXY": null,
    ///               "meanTapInterval": {"oid": "TAP_INTERVAL", "format": "4.3"}, "pain": {"format": "2"}}}
    /// ```
    /// `itemOIDs` keys are `<step>.<feature>` (most specific) or `<feature>`; a value is the OID, `null` to leave the
    /// feature out, or an object with `oid` (optional; `null` leaves it out) and `format` (a Rave field format,
    /// ``RaveFormat``). The envelope may instead be given as MORK's README writes a payload, `{"form_data": {…}}`
    /// (its `field_data`, if any, is ignored). Envelope values are strings or whole numbers (MORK's README writes
    /// `"log_line": 1`), written as given.
    public struct Configuration: Sendable, Hashable {
        /// Envelope fields by name (`subject_name`, `study_uuid`, `folder_oid`, `form_oid`, `site_oid`, …).
        public var envelope: [String: String] = [:]
        /// Envelope fields given as whole numbers (written as JSON numbers, as given).
        public var numericEnvelope: Set<String> = []
        /// Item-OID overrides: `<step>.<feature>` or `<feature>` → OID, or nil to leave the feature out.
        public var itemOIDs: [String: String?] = [:]
        /// Rave field formats: `<step>.<feature>` or `<feature>` → the format its value is written in.
        public var formats: [String: RaveFormat] = [:]

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
            for key in object.keys where !["envelope", "itemOIDs", "form_data"].contains(key) {
                throw ExportError(
                    "\(file): unknown key \"\(key)\" (expected \"envelope\", \"itemOIDs\" or \"form_data\")")
            }
            if object["envelope"] != nil, object["form_data"] != nil {
                throw ExportError("\(file): give the envelope once, as \"envelope\" or as \"form_data\", not both")
            }
            for name in ["envelope", "form_data"] {
                guard let given = object[name] else { continue }
                guard let fields = given.objectValue else {
                    throw ExportError("\(file): \"\(name)\" must be an object of strings, found \(given.summary)")
                }
                for (key, value) in fields.entries {
                    if name == "form_data", key == "field_data" { continue }  // a README payload's items: not config
                    guard MORKExport.envelopeFields.contains(key) else {
                        throw ExportError(
                            "\(file): \(name).\(key) is not a form_data field (expected one of "
                                + MORKExport.envelopeFields.joined(separator: ", ") + ")")
                    }
                    switch value {
                    case .string(let text): envelope[key] = text
                    case .number(let x) where x.isFinite && x == x.rounded() && abs(x) < 1e15:
                        envelope[key] = ResultEncoding.exact(x)
                        numericEnvelope.insert(key)
                    default:
                        throw ExportError(
                            "\(file): \(name).\(key) must be a string or a whole number, found \(value.summary)")
                    }
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
                    case .object(let item):
                        for field in item.keys where field != "oid" && field != "format" {
                            throw ExportError(
                                "\(file): itemOIDs.\(key).\(field) is not an item setting (expected \"oid\", \"format\")"
                            )
                        }
                        switch item["oid"] {
                        case nil: break
                        case .string(let oid)?: itemOIDs[key] = .some(oid)
                        case .null?: itemOIDs[key] = .some(nil)
                        case let other?:
                            throw ExportError(
                                "\(file): itemOIDs.\(key).oid must be a string or null, found \(other.summary)")
                        }
                        if let given = item["format"] {
                            guard let text = given.stringValue, let format = RaveFormat(text) else {
                                throw ExportError(
                                    "\(file): itemOIDs.\(key).format must be a Rave field format (\"3\" digits, "
                                        + "\"3+\" exactly 3 digits, \"5.2\" 5 digits with 2 decimals, \"$20\" text of "
                                        + "20 characters), found \(given.summary)")
                            }
                            formats[key] = format
                        }
                    default:
                        throw ExportError(
                            "\(file): itemOIDs.\(key) must be a string, null or {\"oid\", \"format\"}, found \(value.summary)"
                        )
                    }
                }
            }
        }
    }

    /// A Rave field format (Architect's `Format`), which an item's value is written in.
    ///
    /// - `n`: a whole number of at most n digits (rounded half away from zero);
    /// - `n+`: a whole number of exactly n digits;
    /// - `n.d`: a number of at most n digits of which d decimals, written with exactly d decimals (rounded half away
    ///   from zero);
    /// - `$x`: text of at most x characters.
    ///
    /// A value that does not fit is an error naming the item: Rave would reject it, and taskproc never truncates.
    public enum RaveFormat: Sendable, Hashable, CustomStringConvertible {
        /// `n` (`exact` false) or `n+` (`exact` true).
        case integer(digits: Int, exact: Bool)
        /// `n.d`.
        case decimal(digits: Int, decimals: Int)
        /// `$x`.
        case text(length: Int)

        /// Parses `3`, `3+`, `5.2`, `$20`; nil for anything else (digits 1…20, decimals below digits, length 1…4000).
        public init?(_ text: String) {
            func count(_ s: Substring) -> Int? {
                guard !s.isEmpty, s.count <= 4, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                return Int(s)
            }
            if text.hasPrefix("$") {
                guard let n = count(text.dropFirst()), (1...4000).contains(n) else { return nil }
                self = .text(length: n)
            } else if text.hasSuffix("+") {
                guard let n = count(text.dropLast()), (1...20).contains(n) else { return nil }
                self = .integer(digits: n, exact: true)
            } else if let dot = text.firstIndex(of: ".") {
                guard let n = count(text[..<dot]), let d = count(text[text.index(after: dot)...]),
                    (1...20).contains(n), (1..<n).contains(d)
                else { return nil }
                self = .decimal(digits: n, decimals: d)
            } else {
                guard let n = count(Substring(text)), (1...20).contains(n) else { return nil }
                self = .integer(digits: n, exact: false)
            }
        }

        /// The format as Rave writes it.
        public var description: String {
            switch self {
            case .integer(let n, let exact): String(n) + (exact ? "+" : "")
            case .decimal(let n, let d): "\(n).\(d)"
            case .text(let x): "$\(x)"
            }
        }

        /// `value` (the item's text: a number in shortest round-trip form, or any text) in this format; nil when it
        /// does not fit (too many digits or characters, or text where a number is needed).
        public func format(_ value: String) -> String? {
            switch self {
            case .text(let length):
                return value.count <= length ? value : nil
            case .integer(let digits, let exact):
                guard let x = Double(value), x.isFinite else { return nil }
                let rounded = x.rounded(.toNearestOrAwayFromZero)
                guard let whole = Int64(exactly: rounded) else { return nil }
                let text = String(whole.magnitude)
                guard exact ? text.count == digits : text.count <= digits else { return nil }
                return (rounded < 0 ? "-" : "") + text
            case .decimal(let digits, let decimals):
                guard let x = Double(value), x.isFinite, abs(x) < 1e15 else { return nil }
                let text = String(format: "%.\(decimals)f", abs(x))
                let whole = text.split(separator: ".").first.map(String.init) ?? text
                let used = (whole == "0" ? 0 : whole.count) + decimals
                guard used <= digits else { return nil }
                let negative = x < 0 && text.contains { $0 != "0" && $0 != "." }
                return (negative ? "-" : "") + text
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
        let (envelope, notes) = filledEnvelope(records, context: context, configuration: configuration)
        guard configuration.envelope.isEmpty, requiredFields.contains(where: { (envelope[$0] ?? "").isEmpty }) else {
            return (try payload(records, context: context, configuration: configuration), notes)
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
    /// `subject_name` defaults to the input's participant, `device_id` to its device identifier and
    /// `signature_date_time_entered` to the record's signature (see ``filledEnvelope(_:context:configuration:)``);
    /// other envelope fields not configured are empty strings. Fields configured as numbers are written as numbers.
    ///
    /// - Throws: ``ExportError`` listing the required envelope fields that are missing, duplicate item OIDs, and
    ///   values that do not fit their configured format.
    public static func payload(_ records: [ExportRecord], context: ExportContext, configuration: Configuration) throws
        -> JSONValue
    {
        let envelope = filledEnvelope(records, context: context, configuration: configuration).envelope
        let missing = requiredFields.filter { (envelope[$0] ?? "").isEmpty }
        guard missing.isEmpty else {
            throw ExportError(
                "the mork format needs the form_data fields " + missing.joined(separator: ", ")
                    + ": give them under \"envelope\" in --mork-config FILE (subject_name defaults to the participant when the input names one)")
        }
        let items = try fieldData(records, context: context, configuration: configuration)
        var form: [(key: String, value: JSONValue)] = envelopeFields.map { key in
            let text = envelope[key] ?? ""
            if configuration.numericEnvelope.contains(key), let x = Double(text) { return (key, .number(x)) }
            return (key, .string(text))
        }
        form.insert(("field_data", .array(items)), at: envelopeFields.firstIndex(of: "site_oid")!)
        return .object(JSONObject([("form_data", .object(JSONObject(form)))]))
    }

    /// The configured envelope with its defaults, and notes on the defaults that could not come from the record.
    ///
    /// `subject_name` the input's participant; `device_id` the device identifier the record holds
    /// (``ExportContext/deviceIdentifier``; left empty with a note when it holds none, as `ORKDevice` holds only the
    /// model); `signature_date_time_entered` when the participant signed: the survey result's consent decision
    /// (`consent.signedAt`, the signature result's end), else the export time with a note.
    static func filledEnvelope(_ records: [ExportRecord], context: ExportContext, configuration: Configuration)
        -> (envelope: [String: String], notes: [String])
    {
        var envelope = configuration.envelope
        var notes: [String] = []
        if envelope["subject_name"] == nil, let participant = context.participant { envelope["subject_name"] = participant }
        if envelope["device_id"] == nil {
            if let identifier = context.deviceIdentifier {
                envelope["device_id"] = identifier
            } else {
                notes.append(
                    "device_id left empty: the record holds no device identifier"
                        + (context.device.map { " (its device is \($0), a model, not an identifier)" } ?? "")
                        + "; give envelope.device_id in --mork-config")
            }
        }
        if envelope["signature_date_time_entered"] == nil {
            let signed = records.lazy.compactMap { record -> ResultDate? in
                guard record.shape == .answers else { return nil }
                return record.json["consent"]?.objectValue?["signedAt"]?.stringValue.flatMap { ResultDate($0) }
            }.first
            if let signed {
                envelope["signature_date_time_entered"] = signed.morkText
            } else {
                envelope["signature_date_time_entered"] = context.exportedAt.morkText
                notes.append(
                    "signature_date_time_entered is the export time: the record holds no signature (give "
                        + "envelope.signature_date_time_entered in --mork-config)")
            }
        }
        return (envelope, notes)
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
                let text = try formatted(
                    ResultEncoding.exact(value), step: step, name: feature, oid: oid, configuration: configuration)
                items.append(item(text, oid: oid, entered: entered))
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

    /// `value` in the format configured for `<step>.<name>` (most specific) or `<name>`; as it is without one.
    /// - Throws: ``ExportError`` when the value does not fit the format.
    static func formatted(_ value: String, step: String, name: String, oid: String, configuration: Configuration)
        throws -> String
    {
        guard let format = configuration.formats[step + "." + name] ?? configuration.formats[name] else { return value }
        guard let text = format.format(value) else {
            throw ExportError(
                "item \(oid) (\(step).\(name)): \(value) does not fit its Rave format \(format) (itemOIDs in "
                    + "--mork-config); widen the format, or leave the item out")
        }
        return text
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
    /// time) in that form. Answers without a value — skipped, "I don't know", withheld secrets — are not sent, nor
    /// are earlier answers the participant replaced (`previousAnswers`). A family history relative's answer is
    /// `<question>_<k>`, k the relative's place (1, 2, …) among the step's relatives in document order (overridable
    /// as `<step>.<question>_<k>` or `<question>_<k>`).
    static func answerItems(
        _ record: ExportRecord, context: ExportContext, configuration: Configuration, seen: inout [String: String]
    ) throws -> [JSONValue] {
        var items: [JSONValue] = []
        var relatives: [String: [String]] = [:]
        for element in record.json["answers"]?.arrayValue ?? [] {
            guard let answer = element.objectValue, answer["withheld"]?.stringValue == nil,
                var value = answer["value"]?.stringValue,
                let question = answer["questionIdentifier"]?.stringValue
            else { continue }
            let step = answer["stepIdentifier"]?.stringValue ?? question
            let kind = answer["answerType"]?.stringValue
            // With a signature field named, the signature is the form's (signature_oid and its date), not an item.
            if kind == "consentSignature" || kind == "signature",
                !(configuration.envelope["signature_oid"] ?? "").isEmpty
            {
                continue
            }
            if let date = answer["valueDate"]?.stringValue.flatMap({ ResultDate($0) }) { value = date.morkText }
            let type = answer["answerType"]?.stringValue
            if type == "boolean" || type == "consentSignature" || type == "signature", let number = answer["valueNumber"]?.numberValue {
                value = number == 0 ? "0" : "1"  // as every Boolean of this export
            }
            var name = question
            var origin = step + "." + question
            if let relative = answer["relativeIdentifier"]?.stringValue {
                // A family history relative: the relative's place among the step's relatives tells the items apart.
                var order = relatives[step, default: []]
                let place: Int
                if let known = order.firstIndex(of: relative) {
                    place = known + 1
                } else {
                    order.append(relative)
                    place = order.count
                }
                relatives[step] = order
                name = question + "_" + String(place)
                origin += " of relative " + relative
            }
            guard let oid = itemOID(step: step, name: name, configuration: configuration, default: name)
            else { continue }
            try claim(oid, origin: origin, seen: &seen)
            let end = answer["endDate"]?.stringValue.flatMap { ResultDate($0) }
            let entered = (end ?? context.endDate(of: step) ?? context.exportedAt).morkText
            items.append(
                item(
                    try formatted(value, step: step, name: name, oid: oid, configuration: configuration), oid: oid,
                    entered: entered))
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
