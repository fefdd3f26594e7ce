import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// Reference tables written by R (the shared golden files, and Fixtures/tapping/r_reference.csv from
/// Tools/reference/tapping_reference.R), parsed here without taskproc's own CSV reader.
enum TappingReference {
    /// A parsed CSV: header and rows of raw strings (quotes removed).
    struct Table {
        var header: [String]
        var rows: [[String: String]]
    }

    /// Parses an R `write.csv` file: comma-separated, fields optionally in double quotes (no embedded quotes or
    /// line breaks in these files).
    static func read(_ path: String) throws -> Table {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = fields(lines.removeFirst())
        let rows = lines.map { line in
            Dictionary(uniqueKeysWithValues: zip(header, fields(line)))
        }
        return Table(header: header, rows: rows)
    }

    static func fields(_ line: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        for ch in line {
            if ch == "\"" {
                quoted.toggle()
            } else if ch == "," && !quoted {
                out.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        out.append(current)
        return out
    }

    /// R's printed value: NA and NaN → NaN, Inf/-Inf → ±∞, else the number.
    static func value(_ text: String) -> Double? {
        switch text {
        case "NA", "NaN": return .nan
        case "Inf": return .infinity
        case "-Inf": return -.infinity
        default: return Double(text)
        }
    }

    /// Compares one R value with taskproc's: both NA (NaN), the same infinity, or within `tolerance` relative
    /// (absolute below 1e-300).
    static func agrees(_ r: Double, _ swift: Double, tolerance: Double = 1e-9) -> Bool {
        if r.isNaN { return swift.isNaN }
        if r.isInfinite { return swift == r }
        guard swift.isFinite else { return false }
        return abs(swift - r) <= tolerance * Swift.max(abs(r), 1e-300) || r == swift
    }

    /// The only tapping recording of a file, read by the normal loader.
    static func recording(_ path: String) throws -> TappingRecording {
        let input = try AnalysisRegistry.load(path: path)
        #expect(input.errors.isEmpty, "\(input.errors)")
        #expect(input.taskKind == .tapping)
        return try #require(input.tapping.first)
    }
}

/// taskproc against R on the two published reference files (issue 5's exactness criterion).
@Suite struct TappingParityTests {
    /// Reference row label → the shared sample it was computed from.
    static let samples: [String: String] = [
        "mhealthtools/data/tap_data.rda": "mpower-samples/mhealthtools_tap_data.csv",
        "tap_data.rda": "mpower-samples/mhealthtools_tap_data.csv",
        "pdkit/tests/data/mpower_finger_tapping.json": "mpower-samples/pdkit_mpower_finger_tapping.json",
        "mpower_finger_tapping.json": "mpower-samples/pdkit_mpower_finger_tapping.json",
    ]

    func check(reference file: String, variant: TappingVariant, labelColumn: String, skip: Set<String>) throws {
        let table = try TappingReference.read(sharedDataPath("reference-outputs/" + file))
        #expect(table.rows.count == 2)
        for row in table.rows {
            let label = try #require(row[labelColumn])
            let sample = try #require(Self.samples[label], "unknown reference row \(label)")
            let recording = try TappingReference.recording(sharedDataPath(sample))
            let features = TappingFeatureExtractor.features(of: recording.samples, variant: variant)
            let values = Dictionary(uniqueKeysWithValues: features.rValues.map { ($0.name, $0.value) })
            var compared = 0
            for column in table.header where column != labelColumn && column != "error" && !skip.contains(column) {
                let r = try #require(TappingReference.value(row[column] ?? ""), "\(label) \(column)")
                let swift = try #require(values[column], "taskproc has no feature \(column)")
                #expect(TappingReference.agrees(r, swift), "\(label) \(column): R \(r), taskproc \(swift)")
                compared += 1
            }
            #expect(compared == (variant == .mhealthtools ? 42 : 42))
            if let error = row["error"] { #expect(error == "None" && features.error == nil) }
            // Every feature taskproc reports is a column of the reference (no invented names).
            #expect(Set(values.keys).isSubset(of: Set(table.header)))
        }
    }

    @Test func mhealthtoolsReferenceFeatures() throws {
        try check(
            reference: "mhealthtools_tapping_features.csv", variant: .mhealthtools, labelColumn: "source", skip: [])
    }

    @Test func mpower2016ReferenceFeatures() throws {
        // dfaTapInter is NA in the published file (fractal was unavailable); r_reference.csv has R's value.
        try check(
            reference: "mpower_sdata_tapping_features.csv", variant: .mpower2016, labelColumn: "",
            skip: ["dfaTapInter"])
    }
}

/// Every fixture (and both shared samples) against R's own output in Fixtures/tapping/r_reference.csv.
@Suite struct TappingEdgeCaseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var variant: TappingVariant
        var values: [String: String]
        var testDescription: String { "\(input) \(variant.rawValue)" }
    }

    static let cases: [Case] = {
        guard let table = try? TappingReference.read(fixturePath("tapping/r_reference.csv")) else { return [] }
        return table.rows.compactMap { row in
            guard let input = row["input"], let v = row["variant"].flatMap(TappingVariant.init(rawValue:)) else {
                return nil
            }
            return Case(input: input, variant: v, values: row)
        }
    }()

    @Test func referenceCoversEveryFixtureAndVariant() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: fixturePath("tapping"))
            .filter { $0.hasSuffix(".csv") && $0 != "r_reference.csv" }
        #expect(fixtures.count >= 8)
        for fixture in fixtures {
            for variant in TappingVariant.allCases {
                #expect(Self.cases.contains { $0.input == "fixture:" + fixture && $0.variant == variant })
            }
        }
    }

    @Test(arguments: cases)
    func matchesR(_ reference: Case) throws {
        let path =
            reference.input.hasPrefix("fixture:")
            ? fixturePath("tapping/" + reference.input.dropFirst("fixture:".count))
            : sharedDataPath(String(reference.input.dropFirst("shared:".count)))
        let recording = try TappingReference.recording(path)
        let features = TappingFeatureExtractor.features(of: recording.samples, variant: reference.variant)
        for (name, swift) in features.rValues {
            let r = try #require(TappingReference.value(reference.values[name] ?? ""), "no R column \(name)")
            #expect(TappingReference.agrees(r, swift), "\(name): R \(r), taskproc \(swift)")
        }
        switch reference.values["error"] {
        case "None": #expect(features.error == nil)
        case "NULL": #expect(features.error == TappingFeatureExtractor.noDepressEvents)
        case let message?: #expect(features.error == message)
        case nil: Issue.record("no error column")
        }
    }

    @Test func dfaOfTheSharedSamplesMatchesFractal() throws {
        // The published mPower file has NA here; r_reference.csv has fractal 2.0-4's values.
        let rows = Self.cases.filter { $0.variant == .mpower2016 && $0.input.hasPrefix("shared:") }
        #expect(rows.count == 2)
        for row in rows { #expect(row.values["dfaTapInter"] != "NA") }
    }
}

/// Behaviour the issue names explicitly: gates, bad values, extras, dialects and the JSON contract.
@Suite struct TappingBehaviourTests {
    /// n taps every `interval` s, alternating between x = `left` (left button) and x = `right` (right button).
    func alternating(_ n: Int, interval: Double, left: Double, right: Double) -> [TapSample] {
        (0..<n).map { i -> TapSample in
            let isLeft = i % 2 == 0
            return TapSample(
                timestamp: Double(i) * interval, duration: nil, button: isLeft ? .left : .right,
                location: ViewPoint(x: isLeft ? left : right, y: 400))
        }
    }

    @Test func shortOrInvalidInputGivesAnErrorNotACrash() {
        #expect(TappingFeatureExtractor.features(of: []).error == TappingFeatureExtractor.tooFewRows)
        #expect(TappingFeatureExtractor.features(of: [], variant: .mpower2016).error != nil)
        let four = alternating(4, interval: 0.2, left: 100, right: 270)
        let f = TappingFeatureExtractor.features(of: four)
        #expect(f.error == TappingFeatureExtractor.tooFewRows)
        #expect(f.numberTaps == nil)
        #expect(f.namedValues.allSatisfy { $0.value == nil })
        var bad = alternating(8, interval: 0.2, left: 100, right: 270)
        bad[3].timestamp = Double.nan
        let timeError = TappingFeatureExtractor.features(of: bad).error ?? ""
        #expect(timeError.contains("tap 4 has a non-finite timestamp"))
        bad[3].timestamp = 0.6
        bad[5].location.y = Double.infinity
        let locationError = TappingFeatureExtractor.features(of: bad).error ?? ""
        #expect(locationError.contains("tap 6 has a non-finite location"))
    }

    @Test func perfectAlternationHasAnalyticFeatures() throws {
        // 10 taps every 0.25 s alternating between x = 100 and x = 300: 9 intervals of exactly 0.25 s (binary
        // fractions), every tap kept, drift 0 on both sides.
        let samples = alternating(10, interval: 0.25, left: 100, right: 300)
        let f = TappingFeatureExtractor.features(of: samples)
        #expect(f.error == nil)
        #expect(f.numberTaps == 10)
        #expect(f.intervals.mean == 0.25 && f.intervals.median == 0.25 && f.intervals.iqr == 0)
        #expect(f.intervals.sd == 0 && f.intervals.mad == 0 && f.intervals.cv == 0 && f.intervals.range == 0)
        #expect(f.intervals.skew.isNaN && f.intervals.kur.isNaN)  // 0/0 in e1071
        #expect(f.tkeo == 0)  // 0.25² − 0.25·0.25
        #expect(f.fatigue10 == 0 && f.fatigue25 == 0 && f.fatigue50 == 0)
        #expect(f.driftLeft.mean == 0 && f.driftRight.max == 0)
        #expect(f.buttonNoneFreq == 0)
        #expect(f.corXY.isNaN)  // y is constant
    }

    @Test func depressThresholdSelectsTaps() {
        // Jumps of 15 points: kept only when the threshold is below 15.
        let samples = alternating(8, interval: 0.2, left: 100, right: 115)
        #expect(TappingFeatureExtractor.features(of: samples).error == TappingFeatureExtractor.tooFewDepressEvents)
        #expect(TappingFeatureExtractor.features(of: samples, depressThreshold: 10).numberTaps == 8)
    }

    @Test func researchKitStepGivesExtrasFromTheButtonFrames() throws {
        let input = try AnalysisRegistry.load(path: fixturePath("researchkit/tapping-task.json"))
        let results = TappingProcessor.analyze(input)
        let r = try #require(results.first)
        #expect(results.count == 1)
        #expect(r.stepIdentifier == "tapping.right")
        #expect(r.features.error == TappingFeatureExtractor.tooFewRows)  // 3 taps
        let e = r.extras
        #expect(e.tapCount == 3 && e.leftTaps == 1 && e.rightTaps == 1 && e.noneTaps == 1)
        #expect(e.tapsOutsideButtons == 1)  // (190, 560) lies in neither frame
        #expect(e.alternationRate == 1)
        #expect(e.tapSpan == 0.4012)
        // Button taps' durations 0.0833 and 0.0712 s (the none tap's 0 is not a touch duration).
        #expect(abs(try #require(e.tapDurationMean) - 0.07725) < 1e-15)
        #expect(e.tapDurationMin == 0.0712 && e.tapDurationMax == 0.0833)
        // Left centre (100, 650), tap (98.5, 651): √3.25; right centre (290, 650), tap (287, 640.5): √99.25.
        #expect(abs(try #require(e.leftButtonDistanceMean) - 3.25.squareRoot()) < 1e-12)
        #expect(abs(try #require(e.rightButtonDistanceMean) - 99.25.squareRoot()) < 1e-12)
        #expect(abs(try #require(e.buttonDistanceMax) - 99.25.squareRoot()) < 1e-12)
        #expect(e.backwardsTimestamps == 0 && e.repeatedTimestamps == 0)
    }

    @Test func mhealthtoolsTableReportsItsTimestampProblems() throws {
        let recording = try TappingReference.recording(sharedDataPath("mpower-samples/mhealthtools_tap_data.csv"))
        let e = TappingExtras(recording: recording)
        // shared/data/README.md: 181 taps (90 L / 75 R / 16 None), 18 backwards and 2 duplicate timestamps.
        #expect(e.tapCount == 181 && e.leftTaps == 90 && e.rightTaps == 75 && e.noneTaps == 16)
        #expect(e.backwardsTimestamps == 18 && e.repeatedTimestamps == 2)
        #expect(e.tapDurationMean == nil && e.buttonDistanceMean == nil && e.tapsOutsideButtons == nil)
    }

    @Test func myDataHelpsRowsGiveOneResultEach() throws {
        let input = try AnalysisRegistry.load(path: fixturePath("mydatahelps/SurveyTappingIntervalResults.csv"))
        let results = TappingProcessor.analyze(input)
        // TI-4 has an unknown button and fails in the reader; the other four rows load.
        #expect(results.count == 4)
        #expect(results.first?.source?.hasSuffix("SurveyTappingIntervalResults.csv#TI-1") == true)
        #expect(results.first?.extras.leftTaps == 2)
        #expect(results.allSatisfy { $0.features.error != nil })  // at most 4 taps each
    }

    @Test func jsonHasEveryContractKeyWithNullForNA() throws {
        let recording = try TappingReference.recording(
            sharedDataPath("mpower-samples/pdkit_mpower_finger_tapping.json"))
        for variant in TappingVariant.allCases {
            let result = TappingProcessor.analyze(recording, variant: variant)
            let json = try ResultEncoding.json(result)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            for (name, _) in result.features.namedValues { #expect(object[name] != nil, "\(name) missing") }
            #expect(object["error"] is NSNull)
            #expect((object["dfaTapInter"] != nil) == (variant == .mpower2016))
            #expect(object["numberTaps"] as? Int == (variant == .mhealthtools ? 163 : 162))
            #expect(object["accelerometer"] is NSNull)
            #expect(object["tapDurationMean"] is NSNull)
            #expect(object["tapCount"] as? Int == 166)
        }
        let failed = TappingProcessor.analyze(TappingRecording(samples: []))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(try ResultEncoding.json(failed).utf8)) as? [String: Any])
        #expect(object["meanTapInter"] is NSNull)
        #expect(object["error"] as? String == TappingFeatureExtractor.tooFewRows)
        // The CSV form has one header and one row with the same column count.
        let csv = try ResultEncoding.render(ResultList([failed, failed]), as: .csv).split(separator: "\n")
        #expect(csv.count == 3)
        #expect(
            csv[0].split(separator: ",").count == csv[1].split(separator: ",", omittingEmptySubsequences: false).count)
    }
}
