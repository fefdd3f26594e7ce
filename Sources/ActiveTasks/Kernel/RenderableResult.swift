import Foundation
import SensorSignal
import StudyInputs

/// A result that can be rendered in every ``OutputFormat``.
public protocol RenderableResult: Encodable {
    /// Rows for the aligned-text form: (label, value) pairs in reading order, grouped by section titles.
    var tableSections: [(title: String, rows: [(String, String)])] { get }
    /// Header and rows for the CSV form.
    var csvTable: (header: [String], rows: [[String]]) { get }
}

/// Several results of one kind (e.g. one walking result per step of a task), rendered together:
/// a JSON array, the tables one after another, or one CSV with a single header row.
public struct ResultList<Element: RenderableResult>: RenderableResult {
    /// The results, in order.
    public var results: [Element]

    /// Wraps results.
    public init(_ results: [Element]) { self.results = results }

    /// Encodes as a JSON array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for r in results { try container.encode(r) }
    }

    /// Every element's sections, in order.
    public var tableSections: [(title: String, rows: [(String, String)])] { results.flatMap(\.tableSections) }

    /// The first element's header and every element's rows.
    public var csvTable: (header: [String], rows: [[String]]) {
        (results.first?.csvTable.header ?? [], results.flatMap(\.csvTable.rows))
    }
}
