import Foundation

/// The identifiers that join a MyDataHelps result row to the rest of the export.
public struct MyDataHelpsKeys: Sendable, Hashable, Codable {
    /// `ParticipantIdentifier`.
    public var participantIdentifier: String
    /// `SurveyResultKey`: the survey (task) run.
    public var surveyResultKey: String
    /// `SurveyStepResultKey`: the step result; nil when the file has no such column or the cell is empty.
    public var surveyStepResultKey: String?
    /// The table's own row key (`SurveyTappingIntervalResultKey`, `SurveyToneAudiometryResultKey`); nil when
    /// absent.
    public var resultKey: String?

    /// Creates keys.
    public init(
        participantIdentifier: String, surveyResultKey: String, surveyStepResultKey: String? = nil,
        resultKey: String? = nil
    ) {
        self.participantIdentifier = participantIdentifier
        self.surveyResultKey = surveyResultKey
        self.surveyStepResultKey = surveyStepResultKey
        self.resultKey = resultKey
    }
}

/// One row of a MyDataHelps result table: its keys, its line, and the decoded value or the row's error.
///
/// A bad row never stops the others (batch runs write it as an error row).
public struct MyDataHelpsRow<Value: Sendable>: Sendable {
    /// The row's identifiers, as written (also for failed rows).
    public var keys: MyDataHelpsKeys
    /// The line the row starts on in the CSV file.
    public var line: Int
    /// The decoded value, or the error located at the cell (`line L, column C[, cell <JSON path>]`).
    public var result: Result<Value, InputError>

    /// Creates a row.
    public init(keys: MyDataHelpsKeys, line: Int, result: Result<Value, InputError>) {
        self.keys = keys
        self.line = line
        self.result = result
    }

    /// The value, or the row's error.
    public func get() throws(InputError) -> Value { try result.get() }
}

/// Column lookup and cell decoding shared by the MyDataHelps CSV readers.
struct MyDataHelpsTable {
    let table: CSVTable
    let participant: Int
    let surveyResult: Int
    let stepResult: Int?
    let resultKey: Int?

    /// Resolves the key columns; `ParticipantIdentifier` and `SurveyResultKey` are required.
    init(_ table: CSVTable, resultKeyColumn: String) throws(InputError) {
        self.table = table
        participant = try table.requireColumn(namedAnyOf: ["ParticipantIdentifier"])
        surveyResult = try table.requireColumn(namedAnyOf: ["SurveyResultKey"])
        stepResult = table.columnIndex(named: "SurveyStepResultKey")
        resultKey = table.columnIndex(named: resultKeyColumn)
    }

    func keys(row: Int) -> MyDataHelpsKeys {
        func optional(_ c: Int?) -> String? {
            guard let c, !table.isBlank(row: row, column: c) else { return nil }
            return table.string(row: row, column: c)
        }
        return MyDataHelpsKeys(
            participantIdentifier: table.string(row: row, column: participant),
            surveyResultKey: table.string(row: row, column: surveyResult), surveyStepResultKey: optional(stepResult),
            resultKey: optional(resultKey))
    }

    /// Rows without a participant or survey result key cannot be joined: they fail.
    func checkKeys(row: Int) throws(InputError) {
        for c in [participant, surveyResult] where table.isBlank(row: row, column: c) {
            throw table.cellError(
                row: row, column: c, expected: "a \(table.columnName(c))", found: "an empty cell",
                message: "the row cannot be joined without it")
        }
    }

    /// A date cell: nil when the column is absent or the cell blank; ISO 8601 with a UTC offset otherwise.
    func date(row: Int, column: Int?) throws(InputError) -> ResultDate? { try table.date(row: row, column: column) }

    /// A JSON cell, nil when the column is absent, the cell blank or `null`.
    func json(row: Int, column: Int?) throws(InputError) -> JSONValue? {
        guard let column, !table.isBlank(row: row, column: column) else { return nil }
        let value = try table.json(row: row, column: column)
        return value == .null ? nil : value
    }
}

extension CSVTable {
    /// A failed row for each record set aside as ragged (``CSVTable/RaggedRecords/setAside``): its cells cannot be
    /// told apart, so it has no keys, only its line and the error.
    func raggedRows<Value: Sendable>() -> [MyDataHelpsRow<Value>] {
        raggedRecords.map { item in
            MyDataHelpsRow(
                keys: MyDataHelpsKeys(participantIdentifier: "", surveyResultKey: ""), line: item.line,
                result: .failure(item.error))
        }
    }
}

extension Array {
    /// The rows and the ragged rows of `table`, in line order.
    func withRaggedRows<Value: Sendable>(of table: CSVTable) -> [MyDataHelpsRow<Value>]
    where Element == MyDataHelpsRow<Value> {
        guard !table.raggedRecords.isEmpty else { return self }
        return (self + table.raggedRows()).sorted { $0.line < $1.line }
    }
}
