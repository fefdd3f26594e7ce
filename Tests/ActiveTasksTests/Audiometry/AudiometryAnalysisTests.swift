import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Analysis of dB HL results: re-derivation, calibration, the volume defect, summaries, errors, legacy results,
/// simulation round trips and the SVG audiogram.
@Suite struct AudiometryAnalysisTests {
    static func fixture(_ name: String) -> String {
        fixturePath("audiometry/" + name)
    }

    static func referenceAudiograms() throws -> [TrueAudiogram] {
        let data = try Data(contentsOf: URL(fileURLWithPath: sharedDataPath("audiometry/reference-audiograms-300.json")))
        let raw = try JSONDecoder().decode([[String: Double]].self, from: data)
        let keys: [Double: String] = [
            500: "AUXU500", 1000: "AUXU1K1", 2000: "AUXU2K", 3000: "AUXU3K", 4000: "AUXU4K", 6000: "AUXU6K", 8000: "AUXU8K",
        ]
        return raw.map { a in TrueAudiogram(thresholds: keys.mapValues { a[$0] }) }
    }

    // MARK: - The hand-made task fixture (spec §4.3.6 staircases)

    @Test func wholeTaskFixture() throws {
        let input = try AnalysisRegistry.load(path: Self.fixture("dbhl-task.json"))
        #expect(input.taskKind == .dBHLToneAudiometry)
        let results = AudiometryProcessor.analyze(input)
        #expect(results.count == 1)
        let r = try #require(results.first?.dBHL)
        #expect(r.taskRunUUID == "FDFCC3EC-01B6-43E7-8200-9B93E2744BB8")
        #expect(r.otherSteps.count == 1 && r.otherSteps[0].hasPrefix("splMeter"))
        #expect(r.ears.map(\.ear) == [.right, .left])
        let right = r.ears[0]
        #expect(right.calibration?.tables == "AIRPODSPROV2")
        #expect(right.volume?.offset == -6.5)
        #expect(right.volume?.defect == true)
        let f1000 = right.frequencies[0]
        #expect(f1000.calculatedThreshold == 15 && f1000.rederivedThreshold == 15 && !f1000.thresholdsDiffer)
        #expect(f1000.presentations == 7 && f1000.hits == 4 && f1000.misses == 3 && f1000.falseAlarms == 0)
        #expect(f1000.medianReactionTime.map { abs($0 - 0.5) < 1e-9 } == true)
        // RETSPL(AIRPODSPROV2, 1 kHz) = 9.27 dB SPL; S = 83.67; V(1.0) = 0.
        #expect(f1000.thresholdSPL.map { abs($0 - 24.27) < 1e-9 } == true)
        #expect(f1000.thresholdDBFS.map { abs($0 - (-89.40)) < 1e-9 } == true)
        #expect(f1000.volumeCorrectedThreshold == 8.5)
        #expect(f1000.volumeCorrectedThresholdSPL.map { abs($0 - 17.77) < 1e-9 } == true)
        #expect(f1000.clippingCeiling.map { abs($0 - 103.4) < 1e-9 } == true)
        let f4000 = right.frequencies[1]
        #expect(f4000.calculatedThreshold == 35 && f4000.rederivedThreshold == 35)
        #expect(f4000.thresholdSPL.map { abs($0 - 47.72) < 1e-9 } == true)
        let f8000 = right.frequencies[2]
        #expect(f8000.noThreshold && f8000.calculatedThreshold == nil && f8000.rederivedThreshold == nil)
        #expect(!f8000.thresholdsDiffer && f8000.rederivationDivergence == nil)
        #expect(f8000.clippedPresentations == 1 && f8000.presentations == 11 && f8000.highestLevelPresented == 100)
        #expect(f8000.issues.contains { $0.contains("DBL_MAX") })
        #expect(f8000.thresholdSPL == nil)
        // Averages need 500 and 2000 Hz, not tested here.
        #expect(right.summary.pta4 == nil && right.summary.missing.contains { $0.hasPrefix("pta4") && $0.contains("500 Hz") })
        // Asymmetry: common frequencies 1000 and 4000 Hz differ by 20 dB each; 8000 Hz answered only on the left.
        let rules = Dictionary(uniqueKeysWithValues: (r.bilateral?.asymmetry ?? []).map { ($0.rule, $0) })
        #expect(rules["anyFrequency15dB"]?.asymmetric == true && rules["anyFrequency15dB"]?.frequencies == [1000, 4000])
        #expect(rules["anyFrequency30dB"]?.asymmetric == false)
        #expect(rules["twoAdjacent10dB"]?.asymmetric == true)
        #expect(rules["threeAdjacent10dB"]?.asymmetric == false)
        #expect(rules["rule3000"]?.asymmetric == nil)
        #expect(rules["pta3Difference15dB"]?.asymmetric == nil)
        #expect(rules["oneSidedNoResponse"]?.asymmetric == true && rules["oneSidedNoResponse"]?.frequencies == [8000])
        #expect(r.bilateral?.whoGrade == nil)
    }

    @Test func tamperedUnitsAreFlagged() throws {
        let doc = try ResearchKitDecoder.decode(path: Self.fixture("dbhl-task.json"))
        var result = try #require(doc.result?.dBHLToneAudiometryResults.first?.result)
        result.samples[0].calculatedThreshold = 20
        result.samples[1].units[2].dBHLValue = 45
        let ear = AudiometryProcessor.ear(result)
        #expect(ear.frequencies[0].thresholdsDiffer && ear.frequencies[0].rederivedThreshold == 15)
        #expect(ear.frequencies[0].issues.contains { $0.contains("differs") })
        #expect(ear.frequencies[1].rederivationDivergence?.contains("unit 3") == true)
        #expect(ear.frequencies[1].thresholdsDiffer)
        // Extra units after acceptance.
        var extra = result
        extra.samples[0].calculatedThreshold = 15
        extra.samples[0].units.append(extra.samples[0].units[0])
        #expect(ThresholdRederivation.rederive(extra.samples[0]).divergence?.contains("1 more unit") == true)
    }

    @Test func olderReleasesUseGenericRETSPLAndNoVolumeDefect() throws {
        let input = try AnalysisRegistry.load(path: Self.fixture("dbhl-task.json"))
        var options = AudiometryAnalysisOptions()
        options.researchKitVersion = ResearchKitVersion(3, 1, 0)
        let v31 = try #require(AudiometryProcessor.analyze(input, options: options).first?.dBHL)
        // Generic RETSPL 7 dB SPL at 1 kHz; the 3.1 volume defect still applies.
        #expect(v31.ears[0].frequencies[0].thresholdSPL == 22)
        #expect(v31.ears[0].calibration?.retspl == "generic")
        #expect(v31.ears[0].volume?.offset == -6.5)
        options.researchKitVersion = ResearchKitVersion(3, 0, 0)
        let v30 = try #require(AudiometryProcessor.analyze(input, options: options).first?.dBHL)
        // 3.0 has no AIRPODSPROV2 tables: the ear reports it and keeps its thresholds.
        #expect(v30.ears[0].calibration == nil)
        #expect(v30.ears[0].calibrationError?.contains("AIRPODSPROV2") == true)
        #expect(v30.ears[0].frequencies[0].calculatedThreshold == 15 && v30.ears[0].frequencies[0].thresholdSPL == nil)
        options.researchKitVersion = ResearchKitVersion(2, 2, 0)
        let v22 = try #require(AudiometryProcessor.analyze(input, options: options).first?.dBHL)
        #expect(v22.ears[0].volume?.offset == 0 && v22.ears[0].volume?.defect == false)
        #expect(v22.ears[0].volumeCorrectedSummary == nil)
    }

    @Test func unknownHeadphoneMissingFrequencyAndEmptySample() throws {
        let header = ResearchKit.ResultHeader(className: "ORKdBHLToneAudiometryResult", identifier: "dBHL1.tone.audiometry")
        var p = DBHLStaircaseParameters()
        p.frequencies = [1250, 1000]
        let samples = DBHLStaircase.run(parameters: p) { $0.level >= 20 }
        let unknown = ResearchKit.DBHLToneAudiometryResult(
            header: header, outputVolume: 1, tonePlaybackDuration: 1, postStimulusDelay: 1, headphoneType: "BOSE QC35",
            samples: samples)
        let e1 = AudiometryProcessor.ear(unknown)
        #expect(e1.calibrationError?.contains("\"BOSE QC35\"") == true)
        #expect(e1.frequencies.allSatisfy { $0.thresholdSPL == nil && $0.calculatedThreshold == 20 })
        var known = unknown
        known.headphoneType = "airpodsv3"
        let e2 = AudiometryProcessor.ear(known)
        #expect(e2.calibration?.tables == "AIRPODSV3")
        #expect(e2.frequencies[0].thresholdSPL == nil && e2.frequencies[0].issues.contains { $0.contains("1250 Hz") })
        // RETSPL(AIRPODSV3, 1 kHz) = 12.01 dB SPL.
        #expect(e2.frequencies[1].thresholdSPL.map { abs($0 - 32.01) < 1e-9 } == true)
        // ResearchKit's own (empty) sample file: headphoneType "" and no samples.
        let sample = try AnalysisRegistry.load(path: sharedDataPath("researchkit-samples/ORKdBHLToneAudiometryResult.json"))
        let r = try #require(AudiometryProcessor.analyze(sample).first?.dBHL)
        #expect(r.ears[0].calibrationError?.contains("names no headphone type") == true)
        #expect(r.ears[0].issues.contains("the result has no frequency samples"))
    }

    // MARK: - Summaries

    @Test func pureToneAverages() {
        let s = EarSummary(thresholds: [500: 10, 1000: 20, 2000: 30, 4000: 40, 8000: 60, 250: 0], oneKilohertz: [25, 20])
        #expect(s.pta4 == 25)
        #expect(s.pta3 == 20)
        #expect(s.hfa.map { abs($0 - 130.0 / 3) < 1e-12 } == true)
        #expect(s.retestDifference1kHz == -5 && !s.retestUnreliable)
        let t = EarSummary(thresholds: [1000: 20], oneKilohertz: [10, 20])
        #expect(t.pta4 == nil && t.retestUnreliable && t.missing.count == 3)
    }

    @Test func whoGradesAndUnilateral() {
        let cases: [(Double, WHOHearingGrade)] = [
            (-10, .normal), (19.99, .normal), (20, .mild), (34.9, .mild), (35, .moderate), (49.9, .moderate),
            (50, .moderatelySevere), (65, .severe), (79.9, .severe), (80, .profound), (95, .complete), (120, .complete),
        ]
        for (pta, grade) in cases { #expect(WHOHearingGrade(betterEarPTA4: pta) == grade, "\(pta)") }
        func ear(_ t: Double) -> EarSummary { EarSummary(thresholds: [500: t, 1000: t, 2000: t, 4000: t], oneKilohertz: []) }
        let uni = BilateralSummary(right: ear(15), left: ear(40), asymmetry: [])
        #expect(uni.betterEar == .right && uni.betterEarPTA4 == 15 && uni.whoGrade == .normal && uni.unilateral == true)
        let bi = BilateralSummary(right: ear(45), left: ear(40), asymmetry: [])
        #expect(bi.betterEar == .left && bi.whoGrade == .moderate && bi.unilateral == false)
    }

    @Test func asymmetryRules() {
        let right: [Double: Double] = [500: 10, 1000: 10, 2000: 20, 3000: 45, 4000: 50, 8000: 30]
        let left: [Double: Double] = [500: 10, 1000: 15, 2000: 30, 3000: 30, 4000: 35, 8000: 30]
        let f = AsymmetryFinding.evaluate(
            right: right, left: left, rightNoResponse: [], leftNoResponse: [], pta3: (40.0 / 3, 55.0 / 3))
        let r = Dictionary(uniqueKeysWithValues: f.map { ($0.rule, $0) })
        #expect(r.count == AsymmetryFinding.rules.count)
        #expect(r["anyFrequency15dB"]?.frequencies == [3000, 4000])
        #expect(r["anyFrequency30dB"]?.asymmetric == false)
        #expect(r["twoAdjacent10dB"]?.frequencies == [2000, 3000, 4000])
        #expect(r["twoAdjacent15dB"]?.frequencies == [3000, 4000])
        #expect(r["threeAdjacent10dB"]?.frequencies == [2000, 3000, 4000])
        #expect(r["rule3000"]?.asymmetric == true)
        #expect(r["pta3Difference15dB"]?.asymmetric == false)
        #expect(r["oneSidedNoResponse"]?.asymmetric == false)
    }

    // MARK: - Simulation round trips

    @Test func deterministicSimulationRoundTripsThroughJSON() throws {
        var options = DBHLSimulationOptions()
        options.parameters.frequencies = [1000, 2000, 3000, 4000, 6000, 8000, 1000, 500]
        options.headphoneType = "AIRPODSPROV2"
        let cal = try HeadphoneCalibration(headphoneType: "AIRPODSPROV2")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var checked = 0
        for (k, audiogram) in try Self.referenceAudiograms().enumerated() {
            options.timingSeed = UInt64(k)
            var listener = DeterministicListener(audiogram: audiogram)
            let sim = try DBHLToneAudiometrySimulator.simulate(listener: &listener, options: options)
            let path = directory.appendingPathComponent("a\(k).json").path
            try Data(DBHLResultWriter.json(sim.result).utf8).write(to: URL(fileURLWithPath: path))
            let input = try AnalysisRegistry.load(path: path)
            #expect(input.errors.isEmpty && input.taskKind == .dBHLToneAudiometry)
            let ear = try #require(AudiometryProcessor.analyze(input).first?.dBHL?.ears.first)
            #expect(ear.frequencies.count == 8)
            for f in ear.frequencies {
                let truth = audiogram.threshold(at: f.frequency)!!
                // Reachable iff below the clipping ceiling (levels are multiples of 5 dB).
                let ceiling = try cal.clippingCeiling(frequency: f.frequency).doubleValue
                let expected: Double? = truth < ceiling ? truth : nil
                #expect(f.rederivedThreshold == expected, "audiogram \(k) at \(f.frequency) Hz")
                #expect(f.calculatedThreshold == expected && !f.thresholdsDiffer && f.rederivationDivergence == nil)
                #expect(f.hits + f.misses + f.clippedPresentations == f.presentations && f.falseAlarms == 0)
                #expect(f.medianReactionTime.map { $0 >= 0.15 && $0 <= 1.95 } ?? (f.hits == 0))
                checked += 1
            }
        }
        #expect(checked == 300 * 8)
    }

    @Test func volumeDefectIsUndoneByTheCorrection() throws {
        // At volume 0.5 (AIRPODSPROV2 curve −29 dB) every tone is 29 dB softer, so the recorded threshold is the
        // first grid level ≥ truth + 29; the corrected threshold is within one 5 dB step above the truth.
        var options = DBHLSimulationOptions()
        options.headphoneType = "AIRPODSPROV2"
        options.outputVolume = 0.5
        options.clipping = false
        options.parameters.frequencies = [1000, 4000]
        var listener = DeterministicListener(audiogram: TrueAudiogram(thresholds: [1000: 10, 4000: 0]))
        let sim = try DBHLToneAudiometrySimulator.simulate(listener: &listener, options: options)
        let ear = AudiometryProcessor.ear(sim.result)
        #expect(ear.frequencies.map(\.calculatedThreshold) == [40, 30])
        #expect(ear.frequencies.map(\.volumeCorrectedThreshold) == [11, 1])
        #expect(ear.volumeCorrectedSummary != nil)
    }

    @Test func psychometricListenerIsDeterministicBySeed() throws {
        let audiogram = TrueAudiogram(thresholds: [1000: 20, 2000: 25, 3000: 30, 4000: 35, 8000: 50, 500: 15, 250: 10])
        func run(_ seed: UInt64) throws -> ResearchKit.DBHLToneAudiometryResult {
            var l = PsychometricListener(audiogram: audiogram, slope: 0.4, falseAlarmRate: 0.1, seed: seed)
            var o = DBHLSimulationOptions()
            o.timingSeed = seed
            return try DBHLToneAudiometrySimulator.simulate(listener: &l, options: o).result
        }
        let a = try run(7)
        #expect(try run(7) == a)
        #expect(try run(8) != a)
        // The replay reproduces ResearchKit's threshold even with false alarms and noisy answers.
        var falseAlarms = 0
        for seed in 1...40 {
            let ear = AudiometryProcessor.ear(try run(UInt64(seed)))
            for f in ear.frequencies {
                #expect(!f.thresholdsDiffer && f.rederivationDivergence == nil, "seed \(seed) \(f.frequency) Hz")
                falseAlarms += f.falseAlarms
            }
        }
        #expect(falseAlarms > 0)
    }

    // MARK: - Legacy results

    @Test func legacyAmplitudesAreDBFSNeverDBHL() throws {
        let input = try AnalysisRegistry.load(path: Self.fixture("legacy-tone-audiometry.json"))
        #expect(input.taskKind == .toneAudiometry)
        let results = AudiometryProcessor.analyze(input)
        let r = try #require(results.first?.legacy)
        #expect(r.levelUnit == "dBFS")
        #expect(r.presentations.count == 3)
        #expect(r.presentations[0].amplitudeDBFS.map { abs($0 - 20 * log10(0.003)) < 1e-12 } == true)
        #expect(r.presentations[1].correctEar == false && r.presentations[2].response == "none")
        #expect(r.presentations[2].correctEar == nil && r.presentations[2].ear == .right)
        for format in [OutputFormat.json, .table, .csv] {
            let text = try ResultEncoding.render(ResultList(results), as: format)
            #expect(text.contains(format == .csv ? "amplitudeDBFS" : "dBFS"))
            #expect(!text.contains("dB HL") && !text.contains("dBHL"), "\(format)")
        }
    }

    // MARK: - Rendering

    @Test func everyFormatRendersAndCSVRowsAreComplete() throws {
        let input = try AnalysisRegistry.load(path: Self.fixture("dbhl-task.json"))
        let results = AudiometryProcessor.analyze(input)
        let csv = results[0].csvTable
        #expect(csv.rows.count == 6)
        #expect(csv.rows.allSatisfy { $0.count == csv.header.count })
        let json = try ResultEncoding.render(ResultList(results), as: .json)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        let ears = parsed?.first?["ears"] as? [[String: Any]]
        let f8000 = (ears?.first?["frequencies"] as? [[String: Any]])?[2]
        #expect(f8000?["calculatedThreshold"] is NSNull)
        #expect(f8000?["noThreshold"] as? Bool == true)
        #expect(try ResultEncoding.render(ResultList(results), as: .table).contains("volume defect"))
    }

    // MARK: - SVG audiogram

    final class SVGCollector: NSObject, XMLParserDelegate {
        var symbols: [[String: String]] = []
        var noResponse: [[String: String]] = []
        var root: String?
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = name }
            if attributes["class"] == "symbol" { symbols.append(attributes.merging(["element": name]) { a, _ in a }) }
            if attributes["class"] == "no-response" { noResponse.append(attributes) }
        }
    }

    @Test func audiogramIsValidSVGWithTheRightPoints() throws {
        let input = try AnalysisRegistry.load(path: Self.fixture("dbhl-task.json"))
        let result = try #require(AudiometryProcessor.analyze(input).first?.dBHL)
        let svg = AudiogramSVG.render(result)
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = SVGCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.root == "svg")
        // 3 right-ear circles, 3 left-ear crosses; one no-response arrow (right ear, 8000 Hz).
        let right = collector.symbols.filter { $0["data-ear"] == "right" }
        let left = collector.symbols.filter { $0["data-ear"] == "left" }
        #expect(right.count == 3 && right.allSatisfy { $0["element"] == "circle" })
        #expect(left.count == 3 && left.allSatisfy { $0["element"] == "path" })
        #expect(collector.noResponse.count == 1 && collector.noResponse[0]["data-frequency"] == "8000")
        // Geometry: x = 70 + 90·log2(f/125); y = 60 + 4.5·(L + 10).
        func expectPoint(_ s: [String: String]?, x: Double, y: Double) {
            #expect(s.flatMap { $0["data-x"] }.flatMap(Double.init) == x)
            #expect(s.flatMap { $0["data-y"] }.flatMap(Double.init) == y)
        }
        let r1000 = right.first { $0["data-frequency"] == "1000" }
        expectPoint(r1000, x: 340, y: 60 + 4.5 * 25)
        #expect(r1000?["cx"] == "340" && r1000?["cy"] == "172.50")
        expectPoint(left.first { $0["data-frequency"] == "4000" }, x: 520, y: 60 + 4.5 * 25)
        expectPoint(left.first { $0["data-frequency"] == "8000" }, x: 610, y: 60 + 4.5 * 25)
        // No response is drawn at the highest level presented (100 dB HL).
        let r8000 = right.first { $0["data-frequency"] == "8000" }
        expectPoint(r8000, x: 610, y: 60 + 4.5 * 110)
        #expect(r8000?["data-no-response"] == "true")
        // Axis ends.
        #expect(AudiogramSVG.x(frequency: 125) == 70 && AudiogramSVG.x(frequency: 8000) == 610)
        #expect(AudiogramSVG.y(level: -10) == 60 && AudiogramSVG.y(level: 120) == 645 && AudiogramSVG.y(level: 150) == 645)
    }
}
