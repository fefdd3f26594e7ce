import Foundation
import StudyInputs

extension SurveyAnalysis {
    /// A survey result as the report holds it (its JSON), read back as the typed result; nil when it is not one.
    static func typed(_ result: JSONObject) -> SurveyResult? {
        guard result["kind"]?.stringValue == "survey",
            let text = try? ResultEncoding.compactJSON(JSONValue.object(result))
        else { return nil }
        return try? JSONDecoder().decode(SurveyResult.self, from: Data(text.utf8))
    }

    /// The report's table of one survey result: one row per answer (step, question, the answer as the table shows
    /// it — ``SurveyAnswer/shown`` — and its type).
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String {
        guard let survey = typed(result), !survey.answers.isEmpty else { return "" }
        var s = "<table class=\"answers\"><tr><th>step</th><th>question</th><th>answer</th><th>type</th></tr>"
        for a in survey.answers {
            s += "<tr><td>\(SVGChart.escape(a.stepIdentifier))</td><td>\(SVGChart.escape(a.questionIdentifier))</td>"
            s += "<td>\(SVGChart.escape(a.shown))</td><td>\(SVGChart.escape(a.answerType))</td></tr>"
        }
        return s + "</table>\n"
    }

    /// Answer types whose values are numbers (a histogram); the others are categories (counts per value).
    static let numericAnswerTypes: Set<String> = [
        "scale", "decimal", "integer", "height", "weight", "numeric", "timeInterval", "socioeconomicLadder",
    ]

    /// Answer types shown as counts per value.
    static let categoricalAnswerTypes: Set<String> = [
        "singleChoice", "multipleChoice", "choice", "boolean", "consentSignature", "signature",
    ]

    /// The study overview's answer distributions over several survey records: per task and question, a histogram
    /// for numeric answers (at least 2 values) and a count per value for choices, Booleans and consent (each
    /// chosen value of a multiple choice counted once), with the skipped, "I don't know" and withheld counts. Free
    /// text, dates, times and locations are not summarised (they identify, or do not aggregate).
    /// The overview reads the survey records.
    public static var reportOverviewReadsRecords: Bool { true }

    public static func reportOverview(_ records: [ReportRecord]) -> String {
        struct Question {
            var type = ""
            var numbers: [Double] = []
            var counts: [String: Int] = [:]
            var order: [String] = []
            var answered = 0
            var skipped = 0
            var dontKnow = 0
            var withheld = 0
        }
        var keys: [String] = []
        var questions: [String: Question] = [:]
        for record in records where record.kind == "survey" {
            for case let survey? in record.results.map(typed) {
                let task = survey.taskIdentifier ?? "survey"
                for a in survey.answers {
                    let type = a.answerType
                    guard numericAnswerTypes.contains(type) || categoricalAnswerTypes.contains(type) else { continue }
                    let key = task + " / " + a.questionIdentifier
                    if questions[key] == nil { keys.append(key) }
                    var q = questions[key] ?? Question()
                    q.type = type
                    if a.withheld != nil {
                        q.withheld += 1
                    } else if a.dontKnow {
                        q.dontKnow += 1
                    } else if numericAnswerTypes.contains(type), let x = a.valueNumber, x.isFinite {
                        q.numbers.append(x)
                        q.answered += 1
                    } else if categoricalAnswerTypes.contains(type), let value = a.value {
                        q.answered += 1
                        let values = a.choiceValues.map { $0.map(text) } ?? [value]
                        for v in values {
                            if q.counts[v] == nil { q.order.append(v) }
                            q.counts[v, default: 0] += 1
                        }
                    } else {
                        q.skipped += 1
                    }
                    questions[key] = q
                }
            }
        }
        guard !keys.isEmpty else { return "" }
        var s = ""
        for key in keys {
            guard let q = questions[key] else { continue }
            let answered = q.answered
            guard answered + q.skipped + q.dontKnow + q.withheld >= 2 else { continue }
            var missing: [String] = []
            if q.skipped > 0 { missing.append("\(q.skipped) skipped") }
            if q.dontKnow > 0 { missing.append("\(q.dontKnow) I don't know") }
            if q.withheld > 0 { missing.append("\(q.withheld) withheld") }
            s += "<h3>\(SVGChart.escape(key)) <span class=\"meta\">(\(SVGChart.escape(q.type)); "
            s += "\(answered) answers\(missing.isEmpty ? "" : ", " + missing.joined(separator: ", ")))</span></h3>\n"
            if numericAnswerTypes.contains(q.type), q.numbers.count >= 2 {
                var chart = SVGChart(
                    title: key, xLabel: q.type, yLabel: "answers",
                    layers: [.bars(bins: SVGChart.histogram(q.numbers), color: "#4a7bb7", label: "")])
                chart.height = 180
                s += chart.render() + "\n"
            } else if !q.counts.isEmpty {
                let most = max(1, q.counts.values.max() ?? 1)
                s += "<table class=\"answers\"><tr><th>answer</th><th>count</th><th></th></tr>"
                for value in q.order {
                    let n = q.counts[value] ?? 0
                    let width = n * 200 / most  // n ≤ most: 0…200
                    s += "<tr><td>\(SVGChart.escape(value))</td><td class=\"num\">\(n)</td>"
                    s +=
                        "<td><svg width=\"\(width + 1)\" height=\"10\"><rect width=\"\(width)\" height=\"10\" fill=\"#4a7bb7\"/></svg></td></tr>"
                }
                s += "</table>\n"
            }
        }
        // The heading only above answers to show (a question answered once has no distribution).
        return s.isEmpty ? "" : "<h3>Survey answers</h3>\n" + s
    }
}
