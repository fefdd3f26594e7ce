import Foundation

/// One analysed step, seen the way exporters need it: its kind, step, source, dates and every value, taken from
/// the result's own JSON so that every result type (walking, tapping, sound level, audiometry, …) exports without
/// exporter-specific code.
public struct ExportRecord: Sendable, Hashable {
    /// The result's `kind` key (`walking`, `tapping`, …), or `result` when it has none.
    public var kind: String
    /// The active step (`walking.outbound`, `tapping.right`, …) when known.
    public var stepIdentifier: String?
    /// The file the result came from, when known.
    public var source: String?
    /// The whole result as JSON (keys sorted), lossless.
    public var json: JSONObject

    /// Top-level scalar values (numbers and booleans; `null` kept as nil) in key order, excluding identifiers.
    ///
    /// Nested objects and arrays (step times, bouts, quality reports, series) are not scalars: exporters that
    /// need only derived per-step numbers (MORK, FHIR) use these.
    public var scalars: [(name: String, value: Double?)] {
        var out: [(name: String, value: Double?)] = []
        for (key, value) in json.entries where !Self.identifierKeys.contains(key) {
            switch value {
            case .number(let d): out.append((key, d))
            case .bool(let b): out.append((key, b ? 1 : 0))
            case .null: out.append((key, nil))
            default: continue
            }
        }
        return out
    }

    /// Keys that identify a result rather than measure it.
    static let identifierKeys: Set<String> = ["kind", "stepIdentifier", "source", "timeOrigin"]

    /// Creates a record from a JSON object.
    public init(json: JSONObject) {
        self.json = json
        kind = json["kind"]?.stringValue ?? "result"
        stepIdentifier = json["stepIdentifier"]?.stringValue
        source = json["source"]?.stringValue ?? json["file"]?.stringValue
    }

    /// The records of any encodable result: one per element of a JSON array (e.g. ``ResultList``), or one.
    ///
    /// - Throws: ``ExportError`` when the result does not encode as objects.
    public static func records(of result: some Encodable) throws -> [ExportRecord] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(result)
        let value: JSONValue
        do {
            value = try JSONParser.parse(data, file: "result")
        } catch {
            throw ExportError("the result did not encode as JSON: \(error)")
        }
        switch value {
        case .object(let o): return [ExportRecord(json: o)]
        case .array(let items):
            return try items.map {
                guard let o = $0.objectValue else { throw ExportError("a result element is \($0.summary), not an object") }
                return ExportRecord(json: o)
            }
        default: throw ExportError("the result is \(value.summary), not an object or array of objects")
        }
    }
}

/// Why an export could not be produced.
public struct ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line saying what is missing or wrong, and how to fix it.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
