import ActiveTasks
import Foundation
import StudyInputs

/// One analysed step, seen the way exporters need it: its kind, step, source and dates, every value as JSON, and
/// the coded measures its analysis reads from the typed result.
///
/// Records are made from typed results (``records(of:)``): the JSON is the result's own encoding built as a tree
/// (``JSONTreeEncoder``, no text in between) and the measures come from the analysis registered for the result's
/// type (``TaskAnalysis/exportMeasures(of:skipped:)``). A record made from stored JSON (``init(json:)``, for the
/// report) has no coded measures.
public struct ExportRecord: Sendable {
    /// The result's `kind` key (`walking`, `tapping`, …), or `result` when it has none.
    public var kind: String
    /// How the exporters write it: as coded measures, or as answers (its analysis's ``TaskAnalysis/exportShape``,
    /// found by ``kind``).
    public var shape: ExportShape
    /// The active step (`walking.outbound`, `tapping.right`, …) when known.
    public var stepIdentifier: String?
    /// The file the result came from, when known.
    public var source: String?
    /// The whole result as JSON (keys sorted), lossless.
    public var json: JSONObject
    /// The coded measures of the result (FHIR Observations), from its analysis.
    public var measures: [ExportMeasure] = []
    /// What its analysis could not code, one line each, such as a frequency without a LOINC code.
    public var uncoded: [String] = []

    /// Every scalar measure of the result (numbers and booleans as 1/0; `null` kept as nil), in key order, named by
    /// its path with dots: top-level values by their key (`stepCount`), values inside per-ear, per-channel or
    /// per-frequency lists by the element's identifying value (`right.pta4`, `right.1000.calculatedThreshold`).
    ///
    /// Lists whose elements have no identifying key (`ear`, `channel`, `frequency`, `band`, `stepIdentifier`,
    /// `identifier`) — time series such as step times, bouts or SPL windows — and diagnostic subtrees
    /// (`quality`, `calibration`, `volume`, …) are not scalars; exporters that need only derived per-step numbers
    /// (MORK) use these. A repeated identifying value (a 1 kHz retest) gets `#2`, `#3`, ….
    public var scalars: [(name: String, value: Double?)] {
        var out: [(name: String, value: Double?)] = []
        Self.flatten(json, prefix: [], into: &out)
        return out
    }

    /// Keys whose objects are diagnostics or series, not measures.
    static let excludedKeys: Set<String> = [
        "quality", "hygiene", "resampling", "calibration", "volume", "issues", "warnings", "stepTimes", "bouts",
        "splMeterSamples", "samples", "units", "series",
    ]
    /// Keys whose value only groups measures (their name is left out of paths).
    static let transparentKeys: Set<String> = ["ears", "frequencies", "summary", "channels", "levels", "results"]
    /// Keys that identify an element of a list.
    static let elementKeys = ["ear", "channel", "frequency", "band", "stepIdentifier", "identifier"]

    static func flatten(_ object: JSONObject, prefix: [String], into out: inout [(name: String, value: Double?)]) {
        for (key, value) in object.entries where !excludedKeys.contains(key) {
            if prefix.isEmpty && identifierKeys.contains(key) { continue }
            if elementKeys.contains(key) && !prefix.isEmpty { continue }
            let path = transparentKeys.contains(key) ? prefix : prefix + [key]
            switch value {
            case .number(let d): out.append((path.joined(separator: "."), d))
            case .bool(let b): out.append((path.joined(separator: "."), b ? 1 : 0))
            case .null: out.append((path.joined(separator: "."), nil))
            case .object(let o): flatten(o, prefix: path, into: &out)
            case .array(let items):
                let objects = items.compactMap(\.objectValue)
                guard objects.count == items.count, !objects.isEmpty,
                    let idKey = elementKeys.first(where: { k in objects.allSatisfy { $0[k].map(isIdentifying) ?? false }
                        })
                else { continue }
                var seen: [String: Int] = [:]
                for element in objects {
                    var id = element[idKey].map(identifyingText) ?? "?"
                    seen[id, default: 0] += 1
                    if let n = seen[id], n > 1 { id += "#\(n)" }
                    flatten(element, prefix: path + [id], into: &out)
                }
            case .string: continue
            }
        }
    }

    static func isIdentifying(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): !s.isEmpty
        case .number: true
        default: false
        }
    }

    static func identifyingText(_ value: JSONValue) -> String {
        switch value {
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case .string(let s): s
        default: "?"
        }
    }

    /// Keys that identify a result rather than measure it.
    static let identifierKeys: Set<String> = ["kind", "stepIdentifier", "source", "timeOrigin"]

    /// Creates a record from a JSON object.
    public init(json: JSONObject) {
        self.json = json
        kind = json["kind"]?.stringValue ?? "result"
        shape = AnalysisRegistry.exportShape(ofResultKind: kind)
        stepIdentifier = json["stepIdentifier"]?.stringValue
        source = json["source"]?.stringValue ?? json["file"]?.stringValue
    }

    /// The records of a result: one per element of a result list (``AnalysedResults``, ``ResultList``), else one;
    /// each with the coded measures of its analysis.
    ///
    /// - Throws: ``ExportError`` when a result does not encode as one JSON object (a non-finite number it does not
    ///   handle, for instance).
    public static func records(of result: some RenderableResult) throws -> [ExportRecord] {
        try ((result as? any ResultCollection)?.elements ?? [result]).map(record)
    }

    /// The record of one result.
    static func record(_ result: any RenderableResult) throws -> ExportRecord {
        let tree: JSONValue
        do { tree = try JSONTreeEncoder.encode(result) } catch {
            throw ExportError("the result did not encode as JSON: \(error)")
        }
        guard let object = tree.objectValue else {
            throw ExportError("the result is \(tree.summary), not an object")
        }
        var record = ExportRecord(json: object)
        var uncoded: [String] = []
        record.measures = AnalysisRegistry.exportMeasures(of: result, skipped: &uncoded) ?? []
        record.uncoded = uncoded
        return record
    }
}

/// A result made of other results (a list), exported one record per element.
protocol ResultCollection {
    /// The results, in order.
    var elements: [any RenderableResult] { get }
}

extension AnalysedResults: ResultCollection {
    var elements: [any RenderableResult] { results.map(\.result) }
}

extension ResultList: ResultCollection {
    var elements: [any RenderableResult] { results }
}

extension ExportContext {
    /// Takes the dates of steps the input did not date from results that carry their own (`stepIdentifier` with
    /// `startDate` and `endDate`).
    public mutating func absorbDates(of records: [ExportRecord]) {
        for record in records {
            guard let step = record.stepIdentifier, steps[step] == nil,
                let start = record.json["startDate"]?.stringValue.flatMap(ResultDate.init)
            else { continue }
            steps[step] = StepDates(start: start, end: record.json["endDate"]?.stringValue.flatMap(ResultDate.init))
        }
    }
}
