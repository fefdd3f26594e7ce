import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `taskproc report`: the page is well-formed XML with one plot per expected figure, the plots put the data
/// where it belongs, and a real browser renders it (Tools/validators/report_render.py).
@Suite struct ReportTests {
    /// Results of every kind from real inputs: the Oxford hand walk, the mhealthtools taps, a dB HL result and a
    /// calibrated 12-s tone.
    static func records() throws -> (records: [ReportRecord], cleanup: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func record(_ encodable: some RenderableResult, source: String, kind: String) throws -> ReportRecord {
            let objects = try ExportRecord.records(of: encodable).map(\.json)
            return ReportRecord(source: source, kind: kind, status: "ok", results: objects)
        }
        let walkPath = sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz")
        let walk = WalkingProcessor.analyze(try AnalysisRegistry.load(path: walkPath))
        let tapPath = sharedDataPath("mpower-samples/mhealthtools_tap_data.csv")
        let taps = TappingProcessor.analyze(try AnalysisRegistry.load(path: tapPath))
        let dbhl = folder.appendingPathComponent("dbhl.json")
        try AudiometryExportTests.result.write(to: dbhl, atomically: true, encoding: .utf8)
        let audiometry = AudiometryProcessor.analyze(try AnalysisRegistry.load(path: dbhl.path))
        let tone = folder.appendingPathComponent("tone.wav")
        let samples = (0..<(12 * 48_000)).map { 0.3 * sin(2 * Double.pi * 1000 * Double($0) / 48_000) }
        try AudioFileWriter.write([samples], sampleRate: 48_000, to: tone.path, format: .wav24)
        var options = AudioAnalysisOptions()
        options.soundLevel.calibration = SoundCalibration(sensitivityOffset: -23.3, source: "value")
        let sound = try AudioFileAnalyzer.summarize(path: tone.path, options: options)
        return (
            [
                try record(ResultList(walk), source: walkPath, kind: "walking"),
                try record(ResultList(taps), source: tapPath, kind: "tapping"),
                try record(ResultList(audiometry), source: dbhl.path, kind: "dBHLToneAudiometry"),
                try record(sound, source: tone.path, kind: "audio"),
                ReportRecord(
                    source: "broken.json", kind: "walking", status: "error", reason: "unreadable", results: []),
            ], folder
        )
    }

    /// Plots expected: walking 8 (the 194 s walk's signal in 7 strips of 30 s, and the cadence), tapping 2
    /// (timeline + histogram), audiogram 1, sound 1, overview figures and trends 0 (each kind has one record here).
    static let expectedSVGs = 12

    final class Counter: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var tickLines = 0
        var inTicks = false
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements[name, default: 0] += 1
            if name == "g" { inTicks = attributes["class"] == "ticks" }
            if name == "line", inTicks { tickLines += 1 }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "g" { inTicks = false }
        }
    }

    @Test func pageIsWellFormedWithEveryPlot() throws {
        let (records, folder) = try Self.records()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = HTMLReport.render(records, title: "Study <A> & B")
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("src="))  // self-contained
        #expect(html.contains("Study &lt;A&gt; &amp; B"))
        // Well-formed XML after the doctype (the page is written as XHTML-compatible HTML).
        let xml = html.replacingOccurrences(of: "<!DOCTYPE html>", with: "")
        let parser = XMLParser(data: Data(xml.utf8))
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.elements["svg"] == Self.expectedSVGs)
        // One tick per detected step.
        let steps = try #require(records[0].results[0]["stepCount"]?.numberValue)
        #expect(Double(counter.tickLines) == steps)
        #expect(html.contains("unreadable"))
        #expect(html.contains("Study overview"))
    }

    /// Fuzz finding (FuzzReport): audiogram coordinates that are not ordinary numbers are drawn, not trapped on.
    ///
    /// A frequency of 0 Hz (x = −∞ on the log axis) trapped converting the SVG coordinate to Int; so did the
    /// hostile values the fuzzer put in place of thresholds and frequencies.
    @Test func hostileAudiogramValuesRenderWithoutTrapping() throws {
        let text = #"""
            {"kind":"dBHLToneAudiometry","ears":[{"ear":"right","frequencies":[
            {"frequency":0,"calculatedThreshold":15},{"frequency":-4000,"calculatedThreshold":1e300},
            {"frequency":1e300,"calculatedThreshold":-1e300}]}]}
            """#
        let object = try #require(try JSONParser.parse(Data(text.utf8), file: "r.json").objectValue)
        let html = HTMLReport.render(
            [ReportRecord(source: "r.json", kind: "dBHLToneAudiometry", status: "ok", results: [object])],
            readSources: false)
        #expect(html.contains("<svg"))
    }

    /// Axis mapping: a point at the data extremes lands on the plot corners; histogram counts add up.
    @Test func chartGeometry() {
        let chart = SVGChart(
            title: "t", xLabel: "x", yLabel: "y",
            layers: [.dots(points: [(0, 0), (10, 100)], color: "#000", label: "")])
        let svg = chart.render()
        // Plot area: left 64, right 720 − 16 = 704; y padded by 6 % of the range: 0 → top + 260 − 34 − 46 scaled.
        #expect(svg.contains("cx=\"64.0\""))
        #expect(svg.contains("cx=\"704.0\""))
        let bins = SVGChart.histogram([1, 2, 2, 3, 3, 3, 10])
        #expect(bins.reduce(0) { $0 + $1.y } == 7)
        #expect(bins.first?.x0 == 1 && bins.last?.x1 == 10)
        #expect(SVGChart.ticks(0, 10) == [0, 2, 4, 6, 8, 10])
    }

    @Test func loadsAnalyzeOutputAndBatchLines() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"[{"kind":"walking","source":"a.json","stepCount":3}]"#.write(
            to: folder.appendingPathComponent("analyze.json"), atomically: true, encoding: .utf8)
        let one = try HTMLReport.load(path: folder.appendingPathComponent("analyze.json").path)
        #expect(one.count == 1 && one[0].source == "a.json" && one[0].results.count == 1)
        try """
        {"source":"x/1.json","kind":"walking","status":"ok","results":[{"kind":"walking","stepCount":5}]}
        {"source":"x/2.json","kind":"tapping","status":"partial","results":[]}

        """.write(to: folder.appendingPathComponent("results.jsonl"), atomically: true, encoding: .utf8)
        try #"{"source":"x/3.json","kind":null,"status":"error","reason":"not a taskproc input"}"#.write(
            to: folder.appendingPathComponent("errors.jsonl"), atomically: true, encoding: .utf8)
        let batch = try HTMLReport.load(path: folder.path)
        #expect(batch.map(\.source) == ["x/1.json", "x/2.json", "x/3.json"])
        #expect(batch[2].status == "error" && batch[2].reason == "not a taskproc input")
        try "{not json".write(to: folder.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        #expect(throws: ExportError.self) { try HTMLReport.load(path: folder.appendingPathComponent("bad.jsonl").path) }
    }

    /// The streamed page (records read twice, line by line, never held) is the page of the loaded records, for a
    /// few records and for a collapsed page of many, surveys (whose overview reads the records) included.
    @Test func theStreamedPageIsThePageOfTheLoadedRecords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for count in [3, 120] {
            var lines = ""
            for i in 0..<count {
                switch i % 3 {
                case 0:
                    lines +=
                        #"{"source":"x/\#(i).json","kind":"walking","status":"ok","keys":{"healthCode":"P\#(i % 7)"},"results":[{"kind":"walking","stepCount":\#(10 + i),"cadence":\#(100 + i % 13),"startDate":"2024-05-0\#(1 + i % 9)T10:00:00Z","warnings":["w\#(i % 4)"]}]}"#
                        + "\n"
                case 1:
                    lines +=
                        #"{"source":"x/\#(i).json","kind":"survey","status":"partial","results":[{"kind":"survey","taskIdentifier":"pain","answers":[{"questionIdentifier":"level","answerType":"scale","valueNumber":\#(i % 5),"value":"\#(i % 5)","skipped":false,"dontKnow":false}]}]}"#
                        + "\n"
                default:
                    lines += #"{"source":"x/\#(i).json","kind":"tapping","status":"ok","results":[]}"# + "\n"
                }
            }
            let dir = folder.appendingPathComponent("\(count)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try lines.write(to: dir.appendingPathComponent("results.jsonl"), atomically: true, encoding: .utf8)
            try #"{"source":"x/bad.json","kind":null,"status":"error","reason":"not a taskproc input"}"#.write(
                to: dir.appendingPathComponent("errors.jsonl"), atomically: true, encoding: .utf8)
            let whole = HTMLReport.render(try HTMLReport.load(path: dir.path), title: "t", readSources: false)
            var streamed = ""
            let summary = try HTMLReport.render(path: dir.path, title: "t", readSources: false) { streamed += $0 }
            #expect(streamed == whole)
            #expect(summary.records == count + 1 && summary.bytes == whole.utf8.count)
        }
    }

    /// The page renders in headless chromium: a non-blank screenshot with plot colours, every `<svg>` in the DOM
    /// the browser built, no console errors.
    @Test func rendersInAHeadlessBrowser() throws {
        let (records, folder) = try Self.records()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        try HTMLReport.render(records).write(to: page, atomically: true, encoding: .utf8)
        let png = folder.appendingPathComponent("report.png").path
        let rendered = try runPythonScript(
            "Tools/validators/report_render.py", [page.path, String(Self.expectedSVGs), png])
        #expect(rendered.status == 0, "\(rendered.output)")
    }
}

/// The report a study team reads (issue 20, item 3): headline values with units first, every warning beside its
/// result, the most common warnings in the overview, and beyond 50 records each record collapsed to one line that
/// opens on its warnings and headlines (no full tables or plots: the 10 000-record page must load in a browser).
@Suite struct ReportReadabilityTests {
    static func walking(steps: Double, warnings: [String]) -> JSONObject {
        JSONObject([
            ("kind", .string("walking")), ("stepIdentifier", .string("walking.outbound")),
            ("stepCount", .number(steps)),
            ("cadence", .number(112.5)), ("walkingDuration", .null),
            ("quality", .object(JSONObject([("warnings", .array(warnings.map { .string($0) }))]))),
        ])
    }

    @Test func headlinesWithUnitsAndWarningsBesideTheirResult() throws {
        let record = ReportRecord(
            source: "a.json", kind: "walking", status: "ok",
            results: [Self.walking(steps: 42, warnings: ["no walking found before 3 s", "a <tag> & more"])])
        let html = HTMLReport.render([record], readSources: false)
        #expect(html.contains("<table class=\"headline\">"))
        #expect(html.contains("<td>cadence</td><td class=\"num\">112.5</td><td>steps/min</td>"))
        #expect(html.contains("<td>walking time</td><td class=\"num\">—</td><td>s</td>"), "null shows as a dash")
        #expect(
            html.contains(
                "<ul class=\"warnings\"><li>no walking found before 3 s</li><li>a &lt;tag&gt; &amp; more</li></ul>"))
        let headline = try #require(html.range(of: "class=\"headline\""))
        let numbers = try #require(html.range(of: "class=\"numbers\""))
        #expect(headline.lowerBound < numbers.lowerBound, "headlines come before the full table")
    }

    @Test func theOverviewCountsTheMostCommonWarnings() {
        let records = (0..<3).map { i in
            ReportRecord(
                source: "r\(i).json", kind: "walking", status: "ok",
                results: [Self.walking(steps: Double(i), warnings: i < 2 ? ["still phone", "still phone"] : ["gap"])])
        }
        let html = HTMLReport.render(records, readSources: false)
        #expect(html.contains("Most common warnings"))
        #expect(html.contains("<tr><td class=\"num\">2</td><td>still phone</td></tr>"), "counted once per result")
        #expect(html.contains("<tr><td class=\"num\">1</td><td>gap</td></tr>"))
    }

    @Test func largeStudiesCollapseTheirRecordsBehindAnIndex() {
        let few = (0..<HTMLReport.collapseAbove).map { i in
            ReportRecord(
                source: "r\(i).json", kind: "walking", status: "ok", results: [Self.walking(steps: 1, warnings: [])])
        }
        #expect(!HTMLReport.render(few, readSources: false).contains("<details id=\"record-"))
        let many =
            few + [ReportRecord(source: "last.json", kind: "walking", status: "error", reason: "bad", results: [])]
        let html = HTMLReport.render(many, readSources: false)
        #expect(html.components(separatedBy: "<details id=\"record-").count - 1 == many.count)
        #expect(html.contains("<summary>51. last.json · error</summary>"))
        #expect(html.contains("<table class=\"headline\">"), "headlines stay")
        #expect(
            !html.contains("<table class=\"numbers\">") && !html.contains("Acceleration magnitude"),
            "no full tables or per-record plots")
    }
}

/// The report's axes (issue 20): record counts tick at whole numbers, overview charts do not repeat their heading,
/// a nearly constant level is not magnified to hundredths of a dB, and the audiogram says when ResearchKit's volume
/// defect makes the recorded thresholds too high.
@Suite struct ReportAxesTests {
    @Test func countsTickAtWholeNumbers() {
        #expect(SVGChart.ticks(0, 2.4, integers: true) == [0, 1, 2])
        #expect(SVGChart.ticks(0, 2.4) == [0, 0.5, 1, 1.5, 2])
        #expect(SVGChart.ticks(-0.2, 30, integers: true) == [0, 10, 20, 30])
        #expect(SVGChart.ticks(0, 3, integers: true) == [0, 1, 2, 3])
    }

    @Test func overviewHistogramsNameTheirMeasureOnce() {
        let records = (0..<4).map { i in
            ReportRecord(
                source: "r\(i).json", kind: "walking", status: "ok",
                results: [JSONObject([("kind", .string("walking")), ("stepCount", .number(Double(10 + i)))])])
        }
        let html = HTMLReport.render(records, readSources: false)
        let label = "steps per walking step"
        // The heading, the chart's accessible name (aria-label and <title>, not drawn) and the x axis label.
        #expect(html.components(separatedBy: label).count - 1 == 4, "\(html.components(separatedBy: label).count - 1)")
        #expect(!html.contains("font-weight=\"bold\">\(label)</text>"), "no second title inside the chart")
        #expect(!html.contains(">0.5</text>") && !html.contains(">1.5</text>"), "no fractional record counts")
    }

    @Test func aNearlyConstantLevelKeepsTenDecibelsInView() throws {
        let result = JSONObject([
            ("kind", .string("splMeter")), ("samples", .array([40.01, 40.02, 40.015].map { .number($0) })),
            ("samplingInterval", .number(1)),
        ])
        let svg = ReportPlots.soundLevel(result)
        let labels = svg.components(separatedBy: "text-anchor=\"end\">").dropFirst().compactMap {
            Double($0.prefix { $0 != "<" })
        }
        let span = try #require(labels.max()) - (labels.min() ?? 0)
        #expect(span >= 8, "y ticks \(labels)")
    }

    @Test func theAudiogramNotesTheVolumeDefect() {
        let frequency = JSONObject([
            ("frequency", .number(2000)), ("calculatedThreshold", .number(30)),
            ("volumeCorrectedThreshold", .number(23.8)),
        ])
        let ear = JSONObject([
            ("ear", .string("left")), ("outputVolume", .number(0.875)),
            ("volume", .object(JSONObject([("offset", .number(-6.2))]))), ("frequencies", .array([.object(frequency)])),
        ])
        let html = ReportPlots.audiogram(
            JSONObject([("kind", .string("dBHLToneAudiometry")), ("ears", .array([.object(ear)]))]))
        #expect(html.contains("Volume defect, left ear at output volume 0.875: tones were 6.2 dB softer than nominal"))
        #expect(html.contains("2000 Hz 30 → 23.8"))
        let healthy = JSONObject([
            ("ear", .string("right")), ("volume", .object(JSONObject([("offset", .number(0))]))),
            ("frequencies", .array([.object(frequency)])),
        ])
        #expect(!ReportPlots.audiogram(JSONObject([("ears", .array([.object(healthy)]))])).contains("Volume defect"))
    }
}

/// The study overview's facts and the nested headlines (issue 20, item 3).
@Suite struct ReportOverviewFactsTests {
    @Test func participantsDatesAndQualityFlags() {
        func result(_ start: String, repaired: Bool, warning: Bool) -> JSONObject {
            let hygiene = JSONObject([("repairs", .array(repaired ? [.string("sorted")] : []))])
            let quality = JSONObject([
                ("hygiene", .object(hygiene)), ("warnings", .array(warning ? [.string("gap")] : [])),
            ])
            return JSONObject([
                ("kind", .string("walking")), ("startDate", .string(start)), ("quality", .object(quality)),
            ])
        }
        let records = [
            ReportRecord(
                source: "a", kind: "walking", status: "ok",
                results: [result("2024-05-03T09:00:00-04:00", repaired: true, warning: true)], participant: "HC1"),
            ReportRecord(
                source: "b", kind: "walking", status: "ok",
                results: [result("2024-06-01T09:00:00-04:00", repaired: false, warning: false)], participant: "HC2"),
            ReportRecord(
                source: "c", kind: "walking", status: "ok",
                results: [result("2024-05-20T09:00:00-04:00", repaired: false, warning: true)], participant: "HC1"),
            ReportRecord(source: "d", kind: nil, status: "error", reason: "bad", results: []),
        ]
        let html = HTMLReport.render(records, readSources: false)
        #expect(html.contains("<tr><th>participants</th><td>2</td></tr>"))
        #expect(
            html.contains(
                "<tr><th>dates</th><td>2024-05-03 to 2024-06-01 (dates of the records that have them)</td></tr>"))
        #expect(html.contains("<tr><th>results with a warning</th><td>2</td></tr>"))
        #expect(html.contains("<tr><th>recordings with repaired timestamps</th><td>1</td></tr>"))
        #expect(html.contains("<tr><th>records that failed</th><td>1</td></tr>"))
    }

    @Test func audioAndAudiometryHeadlinesComeFromTheirChannelsAndEars() {
        let channel = JSONObject([
            ("channel", .number(0)), ("LAeq", .number(71.25)), ("LAFmax", .number(80)), ("LA90", .null),
        ])
        let audio = JSONObject([
            ("kind", .string("audio")),
            (
                "soundLevel",
                .object(JSONObject([("unit", .string("dB SPL")), ("channels", .array([.object(channel)]))]))
            ),
        ])
        let rows = ReportHeadlines.rows(audio)
        #expect(rows.map(\.label) == ["channel 0 LAeq", "channel 0 LAFmax", "channel 0 LA90"])
        #expect(rows.map(\.value) == ["71.25", "80", "—"] && rows.allSatisfy { $0.unit == "dB SPL" })
        let ear = JSONObject([
            ("ear", .string("left")), ("summary", .object(JSONObject([("pta4", .number(22.5))]))),
            ("volume", .object(JSONObject([("offset", .number(-6.5))]))),
        ])
        let dbhl = JSONObject([
            ("kind", .string("dBHLToneAudiometry")), ("ears", .array([.object(ear)])),
            ("bilateral", .object(JSONObject([("betterEarPTA4", .number(22.5)), ("whoGrade", .string("mild"))]))),
        ])
        let labels = ReportHeadlines.rows(dbhl).map { "\($0.label)=\($0.value) \($0.unit)" }
        #expect(
            labels == [
                "left ear PTA4=22.5 dB HL", "left ear volume offset=-6.5 dB", "better-ear PTA4=22.5 dB HL",
                "WHO grade (better ear)=mild ",
            ])
    }
}
