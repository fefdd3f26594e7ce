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
