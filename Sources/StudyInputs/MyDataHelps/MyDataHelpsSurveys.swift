import Foundation

/// Reads MyDataHelps (CareEvolution) survey answers into ``SurveyResult``s, one per survey result
/// (`SurveyResultKey`, the API's `surveyResultID`) and participant, answers in file order:
///
/// - **`SurveyQuestionResults.csv`** (CSV export): columns matched by header, ignoring case; required
///   `ParticipantIdentifier`, `SurveyResultKey`, `ResultIdentifier` (the question, or form item) and `Answers` (or
///   `Answer`); optional `SurveyQuestionResultKey`, `SurveyStepResultKey`, `StepIdentifier`, `SurveyName`,
///   `StartDate`, `EndDate`, `Date`. An `Answers` cell holding a JSON array (`["a","b"]`) gives one answer per
///   element; any other text is one answer; a blank cell is a skipped question.
/// - **`SurveyConsentSignatureResults.csv`**: required `ParticipantIdentifier`, `SurveyResultKey`, `Consented`
///   (`true`/`false`, `1`/`0`, `yes`/`no`); optional `SurveyConsentSignatureResultKey`, `SurveyStepResultKey`,
///   `StepIdentifier`, `ResultIdentifier`, `GivenName` (or `FirstName`), `FamilyName` (or `LastName`),
///   `SignatureDate`, `StartDate`, `EndDate`. Each row is a `consentSignature` answer.
/// - **The survey answers API** (`GET …/surveyanswers`): `{"surveyAnswers":[…]}` or a bare array of answer
///   objects with `surveyResultID`, `resultIdentifier`, `answers` (a list of strings) and optionally
///   `participantIdentifier`/`participantID`, `stepIdentifier`, `surveyName`, `date`, `id`.
///
/// Beside a CSV, the export's `SurveyResults.csv` (a `SurveyResultKey`'s `SurveyName`, `StartDate`, `EndDate`) and
/// `SurveyStepResults.csv` (a `SurveyStepResultKey`'s `StepIdentifier`, `StartDate`, `EndDate`) are read when
/// present. Without a step identifier (no column, no step table) an answer's step is its `ResultIdentifier` — true
/// for question steps, not for form items — and the result says so in a warning.
///
/// MyDataHelps answers are text without a type: their `answerType` is `untyped`, `choiceValues` holds every answer
/// as a string, `value` joins them with `|`, and a single answer is `valueNumber` when it is a decimal number as
/// written (`5`, `-0.5`; the text stays in `value`) and `valueText` otherwise. Secrets (``ResearchKit/isSecret(_:)``
/// by the question identifier) are withheld at reading.
public enum MyDataHelpsSurveys {
    /// The `className` of answers read from MyDataHelps question results (MyDataHelps names no ResearchKit class).
    public static let questionClass = "MyDataHelpsQuestionResult"
    /// The `className` of consent rows read from MyDataHelps.
    public static let consentClass = "MyDataHelpsConsentSignatureResult"

    /// One answer with the keys that group it.
    public struct Row: Sendable {
        /// Participant and result keys.
        public var keys: MyDataHelpsKeys
        /// The survey's name when the row (or the results table) gives it.
        public var surveyName: String?
        /// The survey result's start and end, from `SurveyResults.csv` beside the file.
        public var surveyStart, surveyEnd: ResultDate?
        /// True when no step identifier was given and the question identifier stands in for it.
        public var stepFromQuestion = false
        /// The answer.
        public var answer: SurveyAnswer
    }

    /// The join tables of a CSV export, read beside a result table.
    struct JoinTables {
        var surveys: [String: (name: String?, start: ResultDate?, end: ResultDate?)] = [:]
        var steps: [String: (step: String, start: ResultDate?, end: ResultDate?)] = [:]

        /// Reads `SurveyResults.csv` and `SurveyStepResults.csv` (also `.csv.gz`) in `folder`, when present.
        /// - Throws: ``InputError`` when a present table cannot be read.
        static func beside(_ file: String) throws(InputError) -> JoinTables {
            var joins = JoinTables()
            let folder = (file as NSString).deletingLastPathComponent
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
            func find(_ base: String) -> String? {
                names.first { ["\(base).csv", "\(base).csv.gz"].contains($0.lowercased()) }.map {
                    folder.isEmpty ? $0 : folder + "/" + $0
                }
            }
            if let path = find("surveyresults") {
                let t = try CSVTable.read(path: path)
                let key = try t.requireColumn(namedAnyOf: ["SurveyResultKey"])
                let name = t.columnIndex(named: "SurveyName")
                let start = t.columnIndex(named: "StartDate")
                let end = t.columnIndex(named: "EndDate")
                for row in 0..<t.rowCount where !t.isBlank(row: row, column: key) {
                    joins.surveys[t.string(row: row, column: key)] = (
                        name.flatMap { t.isBlank(row: row, column: $0) ? nil : t.string(row: row, column: $0) },
                        try t.date(row: row, column: start), try t.date(row: row, column: end)
                    )
                }
            }
            if let path = find("surveystepresults") {
                let t = try CSVTable.read(path: path)
                let key = try t.requireColumn(namedAnyOf: ["SurveyStepResultKey"])
                let step = try t.requireColumn(namedAnyOf: ["StepIdentifier"])
                let start = t.columnIndex(named: "StartDate")
                let end = t.columnIndex(named: "EndDate")
                for row in 0..<t.rowCount where !t.isBlank(row: row, column: key) {
                    joins.steps[t.string(row: row, column: key)] = (
                        t.string(row: row, column: step), try t.date(row: row, column: start),
                        try t.date(row: row, column: end)
                    )
                }
            }
            return joins
        }
    }

    // MARK: CSV

    /// True when a CSV header names a MyDataHelps question-results table.
    static func isQuestionTable(_ columns: Set<String>) -> Bool {
        columns.contains("resultidentifier") && columns.contains("surveyresultkey")
            && (columns.contains("answers") || columns.contains("answer"))
    }

    /// True when a CSV header names a MyDataHelps consent-signature table.
    static func isConsentTable(_ columns: Set<String>) -> Bool {
        columns.contains("surveyconsentsignatureresultkey")
            || columns.contains("consented") && columns.contains("surveyresultkey")
    }

    /// Reads `SurveyQuestionResults.csv` (or `.csv.gz`) and the join tables beside it.
    /// - Throws: ``InputError`` for file-level problems; a bad row fails on its own.
    public static func readQuestions(path: String) throws(InputError) -> [MyDataHelpsRow<Row>] {
        try questions(
            try CSVTable.read(path: path, header: .present, ragged: .setAside), joins: try JoinTables.beside(path))
    }

    /// Reads `SurveyConsentSignatureResults.csv` (or `.csv.gz`) and the join tables beside it.
    public static func readConsents(path: String) throws(InputError) -> [MyDataHelpsRow<Row>] {
        try consents(
            try CSVTable.read(path: path, header: .present, ragged: .setAside), joins: try JoinTables.beside(path))
    }

    static func questions(_ table: CSVTable, joins: JoinTables) throws(InputError) -> [MyDataHelpsRow<Row>] {
        let t = try MyDataHelpsTable(table, resultKeyColumn: "SurveyQuestionResultKey")
        let question = try table.requireColumn(namedAnyOf: ["ResultIdentifier"])
        let answers = try table.requireColumn(namedAnyOf: ["Answers", "Answer"])
        let step = table.columnIndex(named: "StepIdentifier")
        let name = table.columnIndex(named: "SurveyName")
        let start = table.columnIndex(named: "StartDate")
        let end = table.columnIndex(namedAnyOf: ["EndDate", "Date"])
        let rows = (0..<table.rowCount).map { row in
            let keys = t.keys(row: row)
            let result: Result<Row, InputError>
            do throws(InputError) {
                try t.checkKeys(row: row)
                let id = table.string(row: row, column: question)
                guard !id.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw table.cellError(
                        row: row, column: question, expected: "a question identifier", found: "an empty cell")
                }
                var values: [String]?
                if !ResearchKit.isSecret(id) && !table.isBlank(row: row, column: answers) {
                    values = answerList(table.string(row: row, column: answers))
                }
                let joined = keys.surveyStepResultKey.flatMap { joins.steps[$0] }
                let stepID = step.flatMap {
                    table.isBlank(row: row, column: $0) ? nil : table.string(row: row, column: $0)
                }
                var a = answer(
                    step: stepID ?? joined?.step ?? id, question: id, values: values,
                    secret: ResearchKit.isSecret(id))
                a.startDate = try table.date(row: row, column: start) ?? joined?.start
                a.endDate = try table.date(row: row, column: end) ?? joined?.end
                let survey = joins.surveys[keys.surveyResultKey]
                let surveyName =
                    name.flatMap { table.isBlank(row: row, column: $0) ? nil : table.string(row: row, column: $0) }
                    ?? survey?.name
                result = .success(
                    Row(
                        keys: keys, surveyName: surveyName, surveyStart: survey?.start, surveyEnd: survey?.end,
                        stepFromQuestion: stepID == nil && joined == nil, answer: a))
            } catch {
                result = .failure(error)
            }
            return MyDataHelpsRow(keys: keys, line: table.line(ofRow: row), result: result)
        }
        return rows.withRaggedRows(of: table)
    }

    static func consents(_ table: CSVTable, joins: JoinTables) throws(InputError) -> [MyDataHelpsRow<Row>] {
        let t = try MyDataHelpsTable(table, resultKeyColumn: "SurveyConsentSignatureResultKey")
        let consented = try table.requireColumn(namedAnyOf: ["Consented"])
        let step = table.columnIndex(named: "StepIdentifier")
        let identifier = table.columnIndex(named: "ResultIdentifier")
        let given = table.columnIndex(namedAnyOf: ["GivenName", "FirstName"])
        let family = table.columnIndex(namedAnyOf: ["FamilyName", "LastName"])
        let signed = table.columnIndex(named: "SignatureDate")
        let start = table.columnIndex(named: "StartDate")
        let end = table.columnIndex(named: "EndDate")
        let rows = (0..<table.rowCount).map { row in
            let keys = t.keys(row: row)
            let result: Result<Row, InputError>
            do throws(InputError) {
                try t.checkKeys(row: row)
                func text(_ c: Int?) -> String? {
                    c.flatMap { table.isBlank(row: row, column: $0) ? nil : table.string(row: row, column: $0) }
                }
                let decision: Bool?
                switch text(consented)?.trimmingCharacters(in: .whitespaces).lowercased() {
                case nil: decision = nil
                case "true", "1", "yes": decision = true
                case "false", "0", "no": decision = false
                default:
                    throw table.cellError(
                        row: row, column: consented, expected: "true or false (also 1/0, yes/no) or a blank cell",
                        found: table.quoted(row: row, column: consented))
                }
                let joined = keys.surveyStepResultKey.flatMap { joins.steps[$0] }
                let stepID = text(step) ?? joined?.step ?? text(identifier) ?? "consent"
                var a = SurveyAnswer(
                    stepIdentifier: stepID, questionIdentifier: text(identifier) ?? stepID, className: consentClass,
                    answerType: "consentSignature")
                a.consented = decision
                a.value = decision.map { $0 ? "true" : "false" }
                a.valueNumber = decision.map { $0 ? 1 : 0 }
                a.skipped = decision == nil
                a.signatureGivenName = text(given)
                a.signatureFamilyName = text(family)
                a.signatureDate = text(signed)
                a.startDate = try table.date(row: row, column: start) ?? joined?.start
                a.endDate = try table.date(row: row, column: end) ?? joined?.end
                let survey = joins.surveys[keys.surveyResultKey]
                result = .success(
                    Row(
                        keys: keys, surveyName: survey?.name, surveyStart: survey?.start, surveyEnd: survey?.end,
                        answer: a))
            } catch {
                result = .failure(error)
            }
            return MyDataHelpsRow(keys: keys, line: table.line(ofRow: row), result: result)
        }
        return rows.withRaggedRows(of: table)
    }

    /// An `Answers` cell: a JSON array gives its elements as text; any other text is one answer.
    static func answerList(_ cell: String) -> [String] {
        let trimmed = cell.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]"),
            let items = (try? JSONParser.parse(Data(trimmed.utf8), file: "cell"))?.arrayValue
        {
            return items.map(SurveyAnswer.text)
        }
        return [cell]
    }

    /// The untyped answer of MyDataHelps text values (nil values: a skipped question).
    static func answer(step: String, question: String, values: [String]?, secret: Bool) -> SurveyAnswer {
        var a = SurveyAnswer(
            stepIdentifier: step, questionIdentifier: question, className: questionClass, answerType: "untyped")
        if secret {
            a.withheld = "secret"
            return a
        }
        guard let values, !values.isEmpty else {
            a.skipped = true
            return a
        }
        a.choiceValues = values.map(JSONValue.string)
        a.value = values.joined(separator: "|")
        if values.count == 1 {
            if let x = decimalNumber(values[0]) { a.valueNumber = x } else { a.valueText = values[0] }
        }
        return a
    }

    /// A decimal number as written (`5`, `-0.5`, `12.75`): digits with an optional sign and one decimal point, no
    /// exponent, no spaces, finite.
    static func decimalNumber(_ text: String) -> Double? {
        var digits = 0
        var points = 0
        for (i, c) in text.enumerated() {
            if c.isASCII, c.isNumber {
                digits += 1
            } else if c == "." {
                points += 1
            } else if c == "-" || c == "+", i == 0 {
                continue
            } else {
                return nil
            }
        }
        guard digits > 0, points <= 1, digits <= 17, let x = Double(text), x.isFinite else { return nil }
        return x
    }

    // MARK: API JSON

    /// True when a JSON document's first bytes look like survey answers of the MyDataHelps API.
    static func looksLikeAPIAnswers(_ head: String) -> Bool {
        head.contains("\"surveyAnswers\"")
            || head.contains("\"surveyResultID\"") && head.contains("\"resultIdentifier\"")
    }

    /// Decodes the survey answers API's JSON: `{"surveyAnswers":[…]}` or an array of answer objects.
    /// - Throws: ``InputError`` when the document is not JSON or has neither shape; a bad answer fails on its own.
    public static func decodeAPI(_ data: Data, file: String) throws(InputError) -> [MyDataHelpsRow<Row>] {
        let root = try JSONParser.parse(data, file: file)
        var base = "$"
        var list = root.arrayValue
        if let o = root.objectValue, let inner = o["surveyAnswers"] {
            base = "$.surveyAnswers"
            list = inner.arrayValue
        }
        guard let items = list else {
            throw InputError(
                .schema, file: file, location: base,
                expected: "an array of survey answers (or {\"surveyAnswers\":[…]})",
                found: (root.objectValue?["surveyAnswers"] ?? root).summary)
        }
        return items.enumerated().map { k, item in
            let path = "\(base)[\(k)]"
            let o = item.objectValue
            func text(_ key: String) -> String? { o?[key]?.stringValue }
            let keys = MyDataHelpsKeys(
                participantIdentifier: text("participantIdentifier") ?? text("participantID") ?? "",
                surveyResultKey: text("surveyResultID") ?? "", resultKey: text("id"))
            let result: Result<Row, InputError>
            do throws(InputError) {
                guard let o else {
                    throw InputError(
                        .schema, file: file, location: path, expected: "an answer object", found: item.summary)
                }
                func required(_ key: String) throws(InputError) -> String {
                    guard let s = o[key]?.stringValue, !s.isEmpty else {
                        throw InputError(
                            .schema, file: file, location: path + "." + key, expected: "a non-empty string",
                            found: o[key]?.summary ?? "no such key")
                    }
                    return s
                }
                _ = try required("surveyResultID")
                let question = try required("resultIdentifier")
                var values: [String]?
                if !ResearchKit.isSecret(question), let raw = o["answers"], raw != .null {
                    guard let list = raw.arrayValue else {
                        throw InputError(
                            .schema, file: file, location: path + ".answers", expected: "a list of answers",
                            found: raw.summary)
                    }
                    values = list.map(SurveyAnswer.text)
                }
                var a = answer(
                    step: text("stepIdentifier") ?? question, question: question, values: values,
                    secret: ResearchKit.isSecret(question))
                if let d = o["date"], d != .null {
                    guard let s = d.stringValue, let date = ResultDate(s) else {
                        throw InputError(
                            .schema, file: file, location: path + ".date",
                            expected: "an ISO 8601 date-time with a UTC offset", found: d.summary)
                    }
                    a.endDate = date
                }
                result = .success(
                    Row(
                        keys: keys, surveyName: text("surveyName"), stepFromQuestion: text("stepIdentifier") == nil,
                        answer: a))
            } catch {
                result = .failure(error)
            }
            return MyDataHelpsRow(keys: keys, line: k + 1, result: result)
        }
    }

    // MARK: JSON export

    /// True when a JSON document's first bytes look like the JSON export's `SurveyResults.json`.
    static func looksLikeJSONExport(_ head: String) -> Bool {
        head.contains("\"SurveyResultKey\"") && head.contains("\"ParticipantIdentifier\"")
    }

    /// Decodes the JSON export's `SurveyResults.json`: survey results (an array, or an object holding one) with the
    /// `SurveyResults` fields (`SurveyResultKey`, `ParticipantIdentifier`, `SurveyName`, `StartDate`, `EndDate`),
    /// each with its step results (the array field whose objects have a `StepIdentifier`) with the
    /// `SurveyStepResults` fields and the step's detailed `Results`: question results (`ResultIdentifier`,
    /// `Answers`) and consent signatures (`Consented`, `GivenName`/`FirstName`, `FamilyName`/`LastName`,
    /// `SignatureDate`) — the fields of the CSV tables, nested. Keys match ignoring case; active-task results in
    /// `Results` (taps, samples) are not survey answers and are left out.
    /// - Throws: ``InputError`` when the document has no array of survey results; a bad survey result fails on its own.
    public static func decodeJSONExport(_ data: Data, file: String) throws(InputError) -> [MyDataHelpsRow<Row>] {
        let root = try JSONParser.parse(data, file: file)
        var base = "$"
        var list = root.arrayValue
        if list == nil, let o = root.objectValue,
            let entry = o.entries.first(where: { $0.value.arrayValue?.first?.objectValue.map(isSurveyResult) ?? false })
        {
            base = "$." + entry.key
            list = entry.value.arrayValue
        }
        guard let surveys = list else {
            throw InputError(
                .schema, file: file, location: "$",
                expected: "an array of survey results (objects with SurveyResultKey)",
                found: root.summary)
        }
        var rows: [MyDataHelpsRow<Row>] = []
        for (k, item) in surveys.enumerated() {
            let path = "\(base)[\(k)]"
            guard let survey = item.objectValue else {
                rows.append(
                    MyDataHelpsRow(
                        keys: MyDataHelpsKeys(participantIdentifier: "", surveyResultKey: ""), line: k + 1,
                        result: .failure(
                            InputError(
                                .schema, file: file, location: path, expected: "a survey result object",
                                found: item.summary))))
                continue
            }
            rows += surveyRows(survey, path: path, index: k, file: file)
        }
        return rows
    }

    static func isSurveyResult(_ o: JSONObject) -> Bool { MyDataHelpsShapes.field(o, ["SurveyResultKey"]) != nil }

    /// The answer rows of one survey result of the JSON export.
    static func surveyRows(_ survey: JSONObject, path: String, index: Int, file: String) -> [MyDataHelpsRow<Row>] {
        func text(_ o: JSONObject, _ names: [String]) -> String? {
            guard let v = MyDataHelpsShapes.field(o, names)?.value else { return nil }
            if let s = v.stringValue { return s.isEmpty ? nil : s }
            if let x = v.numberValue { return SurveyAnswer.text(x) }
            return nil
        }
        let keys = MyDataHelpsKeys(
            participantIdentifier: text(survey, ["ParticipantIdentifier"]) ?? "",
            surveyResultKey: text(survey, ["SurveyResultKey"]) ?? "")
        func fail(_ at: String, _ expected: String, _ found: String) -> MyDataHelpsRow<Row> {
            MyDataHelpsRow(
                keys: keys, line: index + 1,
                result: .failure(InputError(.schema, file: file, location: at, expected: expected, found: found)))
        }
        func date(_ o: JSONObject, _ name: String, _ at: String) throws(InputError) -> ResultDate? {
            guard let f = MyDataHelpsShapes.field(o, [name]), f.value != .null else { return nil }
            guard let s = f.value.stringValue, let d = ResultDate(s) else {
                throw InputError(
                    .schema, file: file, location: at + "." + f.key,
                    expected: "an ISO 8601 date-time with a UTC offset",
                    found: f.value.summary)
            }
            return d
        }
        guard !keys.surveyResultKey.isEmpty else { return [fail(path, "a SurveyResultKey", "none")] }
        guard !keys.participantIdentifier.isEmpty else { return [fail(path, "a ParticipantIdentifier", "none")] }
        let start: ResultDate?
        let end: ResultDate?
        do throws(InputError) {
            start = try date(survey, "StartDate", path)
            end = try date(survey, "EndDate", path)
        } catch {
            return [MyDataHelpsRow(keys: keys, line: index + 1, result: .failure(error))]
        }
        let name = text(survey, ["SurveyName"])
        guard
            let steps = survey.entries.first(where: { entry in
                entry.value.arrayValue?.contains {
                    $0.objectValue.map { MyDataHelpsShapes.field($0, ["StepIdentifier"]) != nil } ?? false
                }
                    ?? false
            })
        else { return [] }  // a survey result without step results has no answers
        var rows: [MyDataHelpsRow<Row>] = []
        for (j, stepValue) in (steps.value.arrayValue ?? []).enumerated() {
            let stepPath = "\(path).\(steps.key)[\(j)]"
            guard let step = stepValue.objectValue, let stepID = text(step, ["StepIdentifier"]) else {
                rows.append(fail(stepPath, "a step result with a StepIdentifier", stepValue.summary))
                continue
            }
            let stepStart: ResultDate?
            let stepEnd: ResultDate?
            do throws(InputError) {
                stepStart = try date(step, "StartDate", stepPath)
                stepEnd = try date(step, "EndDate", stepPath)
            } catch {
                rows.append(MyDataHelpsRow(keys: keys, line: index + 1, result: .failure(error)))
                continue
            }
            guard let results = MyDataHelpsShapes.field(step, ["Results"]), results.value != .null else { continue }
            guard let items = results.value.arrayValue else {
                rows.append(fail(stepPath + "." + results.key, "an array of results", results.value.summary))
                continue
            }
            for (r, itemValue) in items.enumerated() {
                let at = "\(stepPath).\(results.key)[\(r)]"
                guard let item = itemValue.objectValue else {
                    rows.append(fail(at, "a result object", itemValue.summary))
                    continue
                }
                var answer: SurveyAnswer
                if let consented = MyDataHelpsShapes.field(item, ["Consented"]) {
                    answer = SurveyAnswer(
                        stepIdentifier: stepID, questionIdentifier: text(item, ["ResultIdentifier"]) ?? stepID,
                        className: consentClass, answerType: "consentSignature")
                    switch consented.value {
                    case .bool(let b): answer.consented = b
                    case .null: answer.consented = nil
                    default:
                        rows.append(fail(at + "." + consented.key, "true, false or null", consented.value.summary))
                        continue
                    }
                    answer.value = answer.consented.map { $0 ? "true" : "false" }
                    answer.valueNumber = answer.consented.map { $0 ? 1 : 0 }
                    answer.skipped = answer.consented == nil
                    answer.signatureGivenName = text(item, ["GivenName", "FirstName"])
                    answer.signatureFamilyName = text(item, ["FamilyName", "LastName"])
                    answer.signatureDate = text(item, ["SignatureDate"])
                } else if let question = text(item, ["ResultIdentifier"]),
                    let raw = MyDataHelpsShapes.field(item, ["Answers", "Answer"])
                {
                    let secret = ResearchKit.isSecret(question)
                    var values: [String]?
                    if !secret {
                        switch raw.value {
                        case .null: values = nil
                        case .array(let list): values = list.map(SurveyAnswer.text)
                        case .string, .number, .bool: values = [SurveyAnswer.text(raw.value)]
                        default:
                            rows.append(fail(at + "." + raw.key, "a list of answers", raw.value.summary))
                            continue
                        }
                    }
                    answer = Self.answer(step: stepID, question: question, values: values, secret: secret)
                } else {
                    continue  // an active-task result (taps, samples): not a survey answer
                }
                do throws(InputError) {
                    answer.startDate = try date(item, "StartDate", at) ?? stepStart
                    answer.endDate = try date(item, "EndDate", at) ?? stepEnd
                } catch {
                    rows.append(MyDataHelpsRow(keys: keys, line: index + 1, result: .failure(error)))
                    continue
                }
                rows.append(
                    MyDataHelpsRow(
                        keys: keys, line: index + 1,
                        result: .success(
                            Row(keys: keys, surveyName: name, surveyStart: start, surveyEnd: end, answer: answer))))
            }
        }
        return rows
    }

    // MARK: Grouping

    /// The survey results of decoded rows: one per participant and survey result key, in order of first
    /// appearance, answers in row order; rows that failed are left out (their errors are the caller's).
    public static func results(_ rows: [MyDataHelpsRow<Row>], source: String) -> [SurveyResult] {
        var order: [MyDataHelpsKeys] = []
        var grouped: [MyDataHelpsKeys: SurveyResult] = [:]
        var guessedStep: Set<MyDataHelpsKeys> = []
        for row in rows {
            guard case .success(let r) = row.result else { continue }
            let key = MyDataHelpsKeys(
                participantIdentifier: r.keys.participantIdentifier, surveyResultKey: r.keys.surveyResultKey)
            if grouped[key] == nil {
                order.append(key)
                var s = SurveyResult(
                    source: source, taskIdentifier: r.surveyName, startDate: r.surveyStart, endDate: r.surveyEnd)
                s.participantIdentifier = key.participantIdentifier.isEmpty ? nil : key.participantIdentifier
                s.surveyResultKey = key.surveyResultKey
                grouped[key] = s
            }
            grouped[key]?.answers.append(r.answer)
            if r.stepFromQuestion { guessedStep.insert(key) }
        }
        return order.compactMap { key in
            guard var s = grouped[key] else { return nil }
            if guessedStep.contains(key) {
                s.warnings.append(
                    "the step of an answer without a StepIdentifier column or SurveyStepResults.csv beside the file is "
                        + "its ResultIdentifier (right for question steps, not for form items)")
            }
            if s.participantIdentifier == nil { s.warnings.append("the answers name no participant") }
            return s
        }
    }
}
