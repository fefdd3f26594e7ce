import ActiveTasks
import StudyInputs

/// The results of one or more inputs, of any kinds, rendered together: a JSON array, the tables one after another,
/// and for CSV one block per kind (header and rows; blocks separated by a blank line) in order of first appearance.
public struct AnalysedResults: RenderableResult, Sendable {
    /// The results, in order.
    public var results: [AnalysedResult]

    /// Wraps results.
    public init(_ results: [AnalysedResult]) { self.results = results }

    /// Encodes as a JSON array of the results.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for r in results { try r.result.encode(to: container.superEncoder()) }
    }

    /// Every result's sections, in order.
    public var tableSections: [(title: String, rows: [(String, String)])] { results.flatMap(\.result.tableSections) }

    /// The first kind's header and rows (see ``csvTables`` for every kind).
    public var csvTable: (header: [String], rows: [[String]]) { csvTables.first ?? ([], []) }

    /// One table per distinct header, in order of first appearance.
    public var csvTables: [(header: [String], rows: [[String]])] {
        var tables: [(header: [String], rows: [[String]])] = []
        for r in results {
            let t = r.result.csvTable
            if let k = tables.firstIndex(where: { $0.header == t.header }) {
                tables[k].rows += t.rows
            } else {
                tables.append(t)
            }
        }
        return tables
    }
}
