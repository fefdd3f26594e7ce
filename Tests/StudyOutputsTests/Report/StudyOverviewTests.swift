import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// The report as a study overview (issue 55, item 5): a table of contents, a section per result kind with its
/// summary table, figure and per-participant trend, failure reasons counted, levels never pooled across units,
/// readable step ticks on a long walk, and a 10 000-record page that a real browser opens.
@Suite struct StudyOverviewTests {
    static func walking(_ cadence: Double, participant: String?, day: Int, warnings: [String] = []) -> ReportRecord {
        let start = "2024-05-\(day < 10 ? "0" : "")\(day)T09:00:00-04:00"
        let result = JSONObject([
            ("kind", .string("walking")), ("cadence", .number(cadence)), ("stepCount", .number(cadence / 5)),
            ("warnings", .array(warnings.map { .string($0) })),
        ])
        return ReportRecord(
            source: "w-\(participant ?? "none")-\(day).json", kind: "walking", status: "ok", results: [result],
            participant: participant, startTime: start)
    }

    /// The section of `kind`: from its heading to the next `<h2`.
    static func section(_ kind: String, in html: String) throws -> String {
        let start = try #require(html.range(of: "<h2 id=\"kind-\(kind)\">"))
        let rest = html[start.upperBound...]
        return String(rest[..<(rest.range(of: "<h2")?.lowerBound ?? rest.endIndex)])
    }

    @Test func aContentsTableLinksEverySection() throws {
        let records = [
            Self.walking(100, participant: "P1", day: 1),
            Self.walking(110, participant: "P1", day: 2),
            ReportRecord(
                source: "t.json", kind: "tapping", status: "ok",
                results: [JSONObject([("kind", .string("tapping")), ("numberTaps", .number(50))])]),
        ]
        let html = HTMLReport.render(records, readSources: false)
        let toc = try #require(html.range(of: "<nav class=\"toc\">").map { String(html[$0.lowerBound...]) })
        for anchor in ["overview", "problems", "kind-walking", "kind-tapping", "records"] {
            #expect(toc.contains("href=\"#\(anchor)\""), "\(anchor)")
            #expect(html.contains("id=\"\(anchor)\""), "\(anchor) has no target")
        }
        // Registry order: walking before tapping.
        let w = try #require(toc.range(of: "#kind-walking"))
        let t = try #require(toc.range(of: "#kind-tapping"))
        #expect(w.lowerBound < t.lowerBound)
    }

    /// The summary table's median and IQR are R's type-7 quantiles: for 100, 104, 106, 110, 130, R gives
    /// `quantile(x, c(.25, .5, .75))` = 104, 106, 110 (h = 1 + 4p lands on whole ranks).
    @Test func theSummaryTableGivesNMedianIQRAndRange() throws {
        let values = [110.0, 100, 130, 106, 104]
        let records = values.enumerated().map { Self.walking($1, participant: "P\($0 % 2)", day: 1 + $0) }
        let section = try Self.section("walking", in: HTMLReport.render(records, readSources: false))
        #expect(
            section.contains(
                "<tr><td>cadence</td><td>steps/min</td><td class=\"num\">5</td><td class=\"num\">106</td>"
                    + "<td class=\"num\">104–110</td><td class=\"num\">100–130</td></tr>"), "\(section)")
        #expect(section.contains("<h3>cadence, steps/min (n = 5)</h3>"))
    }

    /// Up to 6 participants: one panel each on shared axes; beyond, one chart with a line per participant and the
    /// median of each day.
    @Test func trendsAreSmallMultiplesThenALinePerParticipant() throws {
        let few = (0..<3).flatMap { p in
            (1...4).map { d in Self.walking(100 + Double(p * 4 + d), participant: "P\(p)", day: d) }
        }
        let section = try Self.section("walking", in: HTMLReport.render(few, readSources: false))
        let multiples = try #require(
            section.range(of: "<div class=\"multiples\">").map { String(section[$0.upperBound...]) })
        let panels = String(multiples[..<(multiples.range(of: "</div>")?.lowerBound ?? multiples.endIndex)])
        #expect(panels.components(separatedBy: "<svg").count - 1 == 3)
        for p in 0..<3 { #expect(panels.contains("aria-label=\"P\(p)\"")) }
        #expect(panels.contains(">2024-05-01</text>"), "date ticks")

        let many = (0..<10).flatMap { p in
            (1...3).map { d in Self.walking(100 + Double(p + d), participant: "P\(p)", day: d) }
        }
        let big = try Self.section("walking", in: HTMLReport.render(many, readSources: false))
        #expect(!big.contains("class=\"multiples\""))
        #expect(big.contains(">participants (10)</text>") && big.contains(">median per day</text>"))
        // The median line: day 1 holds 101…110 (median 105.5), day 2 102…111, day 3 103…112 — one polyline of 3
        // points after the 10 participants' own.
        #expect(big.components(separatedBy: "<polyline").count - 1 == 11)
    }

    @Test func valuesWithoutAParticipantOrDateAreCountedNotDrawn() throws {
        let records = [
            Self.walking(100, participant: nil, day: 1), Self.walking(102, participant: "P1", day: 1),
            Self.walking(104, participant: "P1", day: 3),
        ]
        let section = try Self.section("walking", in: HTMLReport.render(records, readSources: false))
        #expect(section.contains("1 value(s) without a participant or a date are not drawn."))
        let one = try Self.section("walking", in: HTMLReport.render(Array(records.prefix(2)), readSources: false))
        #expect(one.contains("No trend: every value is from one day."))
    }

    /// dBFS and dB SPL are different quantities: each gets its own summary row and histogram.
    @Test func levelsInDBFSAndDBSPLAreNeverPooled() throws {
        func audio(_ level: Double, unit: String) -> ReportRecord {
            let channel = JSONObject([("channel", .number(0)), ("LAeq", .number(level)), ("LA90", .number(level - 5))])
            let sound = JSONObject([("unit", .string(unit)), ("channels", .array([.object(channel)]))])
            return ReportRecord(
                source: "\(level).wav", kind: "audio", status: "ok",
                results: [JSONObject([("kind", .string("audio")), ("soundLevel", .object(sound))])])
        }
        let records = [
            audio(-30, unit: "dBFS"), audio(-20, unit: "dBFS"), audio(55, unit: "dB SPL"), audio(65, unit: "dB SPL"),
        ]
        let section = try Self.section("audio", in: HTMLReport.render(records, readSources: false))
        #expect(section.contains("<h3>LAeq per channel, dBFS (n = 2)</h3>"))
        #expect(section.contains("<h3>LAeq per channel, dB SPL (n = 2)</h3>"))
        #expect(
            section.contains(
                "<tr><td>LAeq per channel</td><td>dBFS</td><td class=\"num\">2</td><td class=\"num\">-25</td>"))
        #expect(
            section.contains(
                "<tr><td>LAeq per channel</td><td>dB SPL</td><td class=\"num\">2</td><td class=\"num\">60</td>"))
        #expect(!section.contains(", dB (n"))
    }

    /// Records failing the same way count together: their own path in front and the numbers that differ (line,
    /// column, index) do not split a reason.
    @Test func failureReasonsAreCountedTogether() throws {
        let records = [
            ReportRecord(
                source: "a/r1", kind: "walking", status: "error",
                reason: "a/r1/accel.json: at $.items[12] (line 1, column 300): expected a number", results: []),
            ReportRecord(
                source: "a/r2", kind: "walking", status: "error",
                reason: "a/r2/accel.json: at $.items[99] (line 1, column 2100): expected a number", results: []),
            ReportRecord(
                source: "b.wav", kind: "audio", status: "error", reason: "b.wav: no 'data' chunk", results: []),
            Self.walking(100, participant: "P", day: 1),
        ]
        let html = HTMLReport.render(records, readSources: false)
        #expect(html.contains("<h3>Why 3 records failed (2 reasons)</h3>"))
        #expect(
            html.contains(
                "<tr><td class=\"num\">2</td><td>walking</td><td>at $.items[#] (line #, column #): expected a number</td>"
            ))
        #expect(html.contains("<tr><td class=\"num\">1</td><td>audio</td><td>no 'data' chunk</td>"))
    }

    @Test func kindsWithoutHeadlinesShowTheirStudyMeasures() throws {
        let stroop = JSONObject([
            ("kind", .string("stroop")), ("accuracy", .number(0.75)), ("meanCorrectResponseTime", .number(0.8)),
            ("interferenceEffect", .number(0.1)),
            (
                "units",
                .object(JSONObject([("accuracy", .string("fraction")), ("meanCorrectResponseTime", .string("s"))]))
            ),
        ])
        let records = [0.75, 0.5].map { a in
            var s = stroop
            s.entries[1].value = .number(a)
            return ReportRecord(source: "s\(a).json", kind: "stroop", status: "ok", results: [s])
        }
        let html = HTMLReport.render(records, readSources: false)
        #expect(
            html.contains(
                "<table class=\"headline\"><tr><th>headline</th><th>value</th><th>unit</th></tr><tr><td>accuracy</td><td class=\"num\">0.75</td><td>fraction</td></tr>"
            ))
        let section = try Self.section("stroop", in: html)
        #expect(section.contains("<h3>accuracy, fraction (n = 2)</h3>"))
    }

    @Test func aSurveyOfOneRunHasNoEmptyAnswersHeading() {
        let answer = JSONObject([
            ("stepIdentifier", .string("q")), ("questionIdentifier", .string("q")), ("answerType", .string("scale")),
            ("valueNumber", .number(3)), ("value", .string("3")), ("skipped", .bool(false)), ("dontKnow", .bool(false)),
        ])
        let survey = JSONObject([
            ("kind", .string("survey")), ("taskIdentifier", .string("pain")), ("answers", .array([.object(answer)])),
        ])
        let records = [
            ReportRecord(source: "s.json", kind: "survey", status: "ok", results: [survey]),
            Self.walking(100, participant: "P", day: 1),
        ]
        #expect(!HTMLReport.render(records, readSources: false).contains("Survey answers"))
    }

    /// The Oxford hand walk lasts 194 s: in one 656 px plot its 326 step ticks were 1.9 px apart, a band; in strips
    /// of 30 s they are at least ~9 px apart at its cadence, every step still drawn once.
    @Test func aLongWalksStepTicksStandApart() throws {
        let path = sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz")
        let walk = WalkingProcessor.analyze(try AnalysisRegistry.load(path: path))
        let json = try #require(try ExportRecord.records(of: ResultList(walk)).first?.json)
        let html = ReportPlots.walking(json, readSources: true)
        let strips = html.components(separatedBy: "<svg").dropFirst().filter { $0.contains("class=\"ticks\"") }
        #expect(strips.count == 7)
        var ticks = 0
        var spacings: [Double] = []
        for strip in strips {
            let group = strip.components(separatedBy: "<g class=\"ticks\"")[1].components(separatedBy: "</g>")[0]
            let xs = group.components(separatedBy: "x1=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
            ticks += xs.count
            spacings += zip(xs.dropFirst(), xs).map { $0 - $1 }
        }
        #expect(Double(ticks) == json["stepCount"]?.numberValue)
        let median = RStatistics.median(spacings)
        #expect(median >= 9, "median tick spacing \(median) px")
    }
}

/// A 10 000-record report in a real browser: the study overview in full, each record one line.
@Suite struct StudyOverviewScaleTests {
    /// 10 000 batch lines of walking, tapping, audio, Stroop and failures, from 120 participants over 90 days.
    static func lines() -> String {
        var out = ""
        out.reserveCapacity(4 << 20)
        for i in 0..<10_000 {
            let participant = "HC\(i % 97)"
            let days = i * 7 % 90
            let (year, month, day) = ResultDate.civilFromDays(
                ResultDate.daysFromCivil(year: 2024, month: 3, day: 1) + days)
            let start = String(format: "%04d-%02d-%02dT%02d:00:00-04:00", year, month, day, 8 + i % 12)
            let common =
                #""participant":"\#(participant)","startTime":"\#(start)","keys":{"healthCode":"\#(participant)"}"#
            switch i % 10 {
            case 0...4:
                let cadence = 95 + Double(i % 120) / 6 + Double(i % 7)
                out +=
                    #"{"source":"ex/w\#(i).json","kind":"walking","status":"ok",\#(common),"results":[{"kind":"walking","stepCount":\#(30 + i % 20),"cadence":\#(cadence),"walkingDuration":20.5,"stepRegularity":0.9,"strideRegularity":0.85,"stepTimeCV":3.1,"warnings":[\#(i % 13 == 0 ? #""irregular motion""# : "")]}]}"#
            case 5, 6:
                out +=
                    #"{"source":"ex/t\#(i).json","kind":"tapping","status":"ok",\#(common),"results":[{"kind":"tapping","numberTaps":\#(40 + i % 30),"meanTapInter":0.2\#(i % 9),"cvTapInter":21.5,"leftTaps":20,"rightTaps":21}]}"#
            case 7:
                let unit = i % 20 == 7 ? "dB SPL" : "dBFS"
                let level = unit == "dBFS" ? -30 + Double(i % 10) : 50 + Double(i % 15)
                out +=
                    #"{"source":"ex/a\#(i).wav","kind":"audio","status":"ok",\#(common),"results":[{"kind":"audio","soundLevel":{"unit":"\#(unit)","channels":[{"channel":0,"LAeq":\#(level),"LAFmax":\#(level + 6),"LA90":\#(level - 4)}]}}]}"#
            case 8:
                out +=
                    #"{"source":"ex/s\#(i).json","kind":"stroop","status":"ok",\#(common),"results":[{"kind":"stroop","accuracy":0.\#(5 + i % 5),"meanCorrectResponseTime":0.8\#(i % 7),"interferenceEffect":0.1,"units":{"accuracy":"fraction","meanCorrectResponseTime":"s","interferenceEffect":"s"}}]}"#
            default:
                out +=
                    #"{"source":"ex/bad\#(i).json","kind":"walking","status":"error",\#(common),"reason":"ex/bad\#(i).json: at $.items[\#(i % 500)] (line 1, column \#(i)): expected a number","results":[]}"#
            }
            out += "\n"
        }
        return out
    }

    @Test func aTenThousandRecordPageOpensInABrowser() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-10k-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.lines().write(to: folder.appendingPathComponent("results.jsonl"), atomically: true, encoding: .utf8)
        var page = ""
        let summary = try HTMLReport.render(path: folder.path, title: "10 000 records", readSources: false) {
            page += $0
        }
        #expect(summary.records == 10_000)
        // Every kind's section, its summary and its trend (97 participants: one line each and the weekly median).
        for kind in ["walking", "tapping", "audio", "stroop"] {
            let section = try StudyOverviewTests.section(kind, in: page)
            #expect(section.contains("<table class=\"summary\">"), "\(kind)")
            #expect(section.contains(">participants (97)</text>"), "\(kind)")
            #expect(section.contains(">median per week</text>"), "\(kind)")
        }
        #expect(page.contains("<h3>Why 1000 records failed (1 reason)</h3>"))
        let file = folder.appendingPathComponent("report.html")
        try page.write(to: file, atomically: true, encoding: .utf8)
        let svgs = page.components(separatedBy: "<svg").count - 1
        let rendered = try runPythonScript(
            "Tools/validators/report_render.py",
            [
                file.path, String(svgs), folder.appendingPathComponent("report.png").path, "--max-seconds", "15",
                "--max-megabytes", "12",
            ])
        #expect(rendered.status == 0, "\(rendered.output)")
        print("10 000-record report: \(rendered.output)")
    }
}
