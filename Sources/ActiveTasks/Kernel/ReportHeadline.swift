import Foundation
import StudyInputs

/// One headline value of a result in the report: the key in the result JSON, its label and its unit
/// (`docs/report.md`). Each kind declares its own (``TaskAnalysis/reportHeadlines(_:)``).
public struct ReportHeadline: Sendable, Hashable {
    /// The key in the result JSON (a top-level key of the result).
    public var key: String
    /// The label the report shows.
    public var label: String
    /// The unit the report shows (`steps/min`, `—` for a dimensionless value, empty for none).
    public var unit: String

    /// Creates a headline.
    public init(key: String, label: String, unit: String) {
        self.key = key
        self.label = label
        self.unit = unit
    }

    /// A headline value as the report writes it: numbers to 4 significant digits, Booleans as yes/no, "—" when
    /// absent or `null`.
    public static func text(_ value: JSONValue?) -> String {
        switch value {
        case .number(let d)?: ResultEncoding.number(d, digits: 4)
        case .string(let t)?: t
        case .bool(let b)?: b ? "yes" : "no"
        default: "—"
        }
    }

    /// The rows of `headlines` for `result`: (label, value, unit) in order; a missing key shows as "—".
    public static func rows(_ headlines: [ReportHeadline], of result: JSONObject) -> [(
        label: String, value: String, unit: String
    )] {
        headlines.map { ($0.label, text(result[$0.key]), $0.unit) }
    }
}

/// A measure whose distribution over a study the report's overview draws (a histogram over every record of
/// ``kind``). Each kind declares its own (``TaskAnalysis/reportDistributions``).
public struct ReportDistribution: Sendable, Hashable {
    /// The records' task kind.
    public var kind: TaskKind
    /// The key collected anywhere in the records' results (except inside a walking result's `bouts`).
    public var key: String
    /// The histogram's title and axis label.
    public var label: String

    /// Creates a distribution.
    public init(kind: TaskKind, key: String, label: String) {
        self.kind = kind
        self.key = key
        self.label = label
    }
}

/// One number a result gives its kind's section of the report's study overview.
///
/// The section draws the summary table (n, median, IQR, range per ``label`` and ``unit``), the figure (a histogram
/// per ``key`` and ``unit``) and the per-participant trend of the kind's headline measure. Each kind gives its own
/// (``TaskAnalysis/reportValues(_:)``); by default its ``TaskAnalysis/studyMeasures``.
public struct ReportValue: Sendable, Hashable {
    /// What the value measures (`pta4`): the figure's and the trend's key (``ReportDistribution/key``).
    public var key: String
    /// The summary table's row label (`PTA4 (left ear)`); values of one key may carry several labels.
    public var label: String
    /// The value's unit as the result states it (`dBFS` or `dB SPL` for one key, by calibration).
    public var unit: String
    /// The value, in ``unit``.
    public var value: Double

    /// Creates a value.
    public init(key: String, label: String, unit: String, value: Double) {
        self.key = key
        self.label = label
        self.unit = unit
        self.value = value
    }

    /// The finite numbers under `key` in `result`: the top-level value when it is a number, else every number of
    /// that name anywhere inside (one per ear, channel or trial), except inside a walking result's `bouts` (whose
    /// per-bout `cadence` is not a record's cadence).
    public static func numbers(_ key: String, in result: JSONObject) -> [Double] {
        if case .number(let d)? = result[key] { return d.isFinite ? [d] : [] }
        var out: [Double] = []
        for (k, v) in result.entries where k != key && k != "bouts" { collect(key, in: v, into: &out) }
        return out
    }

    private static func collect(_ key: String, in value: JSONValue, into out: inout [Double]) {
        switch value {
        case .object(let o):
            for (k, v) in o.entries where k != "bouts" {
                if k == key, let d = v.numberValue {
                    if d.isFinite { out.append(d) }
                } else {
                    collect(key, in: v, into: &out)
                }
            }
        case .array(let a): for v in a { collect(key, in: v, into: &out) }
        default: break
        }
    }
}
