import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs
import Testing

@testable import taskproc

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `taskproc audiometry simulate` and `taskproc analyze` on dB HL results: parsing and end-to-end runs.
@Suite struct AudiometryCommandTests {
    // MARK: Parsing

    @Test func simulateDefaultsAreResearchKits() throws {
        let c = try AudiometrySimulate.parse(["a.json"])
        let p = try c.parameters()
        #expect(p == DBHLStaircaseParameters())
        #expect(c.headphoneType == "AIRPODSV1" && c.researchKitVersion == .current && c.outputVolume == 1)
        let d = try AudiometrySimulate.parse(["a.json", "--frequencies", "500, 1000", "--miss-steps", "15,10,5", "--ear", "left"])
        let q = try d.parameters()
        #expect(q.frequencies == [500, 1000] && q.missSteps == [15, 10, 5] && q.channel == .left)
    }

    @Test func simulateRejectsBadOptions() {
        for args in [
            ["a.json", "--frequencies", "1000,abc"], ["a.json", "--frequencies", ""], ["a.json", "--step-down", "0"],
            ["a.json", "--slope", "0"], ["a.json", "--false-alarm-rate", "1.5"], ["a.json", "--output-volume", "2"],
            ["a.json", "--listener", "deterministic", "--slope", "0.3"], ["a.json", "--researchkit-version", "1.5"],
            ["a.json", "--tone-duration", "0.5"], ["a.json", "--max-presentations", "0"],
        ] {
            #expect(throws: (any Error).self, "\(args)") { try AudiometrySimulate.parse(args) }
        }
    }

    @Test func analyzeAudiometryOptions() throws {
        let a = try Analyze.parse(["x.json", "--researchkit-version", "3.1", "--plot", "a.svg"])
        #expect(a.audiometry.analysisOptions.researchKitVersion == ResearchKitVersion(3, 1, 0))
        #expect(a.audiometry.plot == "a.svg")
        #expect(try Analyze.parse(["x.json"]).audiometry.analysisOptions.researchKitVersion == .current)
        #expect(throws: (any Error).self) { try Analyze.parse(["x.json", "--researchkit-version", "three"]) }
        #expect(throws: (any Error).self) { try Analyze.parse(["x.json", "--researchkit-version", "1.9"]) }
        #expect(Analyze.plotPath("out/a.svg", index: 0) == "out/a.svg")
        #expect(Analyze.plotPath("/tmp/a.svg", index: 2) == "/tmp/a-3.svg")
    }

    // MARK: End to end

    typealias Run = CommandLineEndToEndTests.Run

    /// Runs the built binary (the shared runner of the end-to-end tests).
    func run(_ arguments: [String]) throws -> Run { try CommandLineEndToEndTests().run(arguments) }

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("taskproc-aud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static let truth: [[String: Double?]] = [
        ["250": 10, "500": 15, "1000": 20, "2000": 25, "3000": 35, "4000": 40, "8000": 55],
        ["250": 60, "500": 50, "1000": -10, "2000": 0, "3000": 5, "4000": 70, "8000": nil],
    ]

    func writeAudiograms(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("audiograms.json").path
        let objects = Self.truth.map { a in a.mapValues { $0.map { $0 as Any } ?? NSNull() } }
        try JSONSerialization.data(withJSONObject: objects).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func simulateThenAnalyzeRecoversTheTruthAndPlots() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let audiograms = try writeAudiograms(dir)
        let outDir = dir.appendingPathComponent("sim").path
        let sim = try run(["audiometry", "simulate", audiograms, "--headphone-type", "AIRPODSPROV2", "--output", outDir])
        #expect(sim.status == 0, "\(sim.stderr)")
        #expect(sim.stderr.contains("audiogram 2:") && sim.stderr.contains("presentations"))
        // Refuses to overwrite.
        #expect(try run(["audiometry", "simulate", audiograms, "--output", outDir]).status != 0)
        for (k, truth) in Self.truth.enumerated() {
            let file = outDir + String(format: "/audiogram-%03d.json", k + 1)
            let svg = dir.appendingPathComponent("a\(k).svg").path
            let analyze = try run(["analyze", file, "--plot", svg])
            #expect(analyze.status == 0, "\(analyze.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(analyze.stdout.utf8)) as? [[String: Any]]
            let ear = (json?.first?["ears"] as? [[String: Any]])?.first
            let frequencies = ear?["frequencies"] as? [[String: Any]] ?? []
            #expect(frequencies.count == 8)
            for f in frequencies {
                let hz = f["frequency"] as? Double ?? 0
                let expected = truth[String(Int(hz))]!
                let recorded = f["calculatedThreshold"] as? Double
                let rederived = f["rederivedThreshold"] as? Double
                #expect(recorded == expected && rederived == expected, "audiogram \(k + 1) at \(hz) Hz")
                #expect(f["thresholdsDiffer"] as? Bool == false)
            }
            let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: svg)))
            #expect(parser.parse())
        }
    }

    @Test func simulateToStandardOutputIsOneResultPerLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let audiograms = try writeAudiograms(dir)
        let a = try run(["audiometry", "simulate", audiograms, "--slope", "0.5", "--false-alarm-rate", "0.1", "--seed", "3"])
        #expect(a.status == 0, "\(a.stderr)")
        let lines = a.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"_class\":\"ORKdBHLToneAudiometryResult\"") })
        let b = try run(["audiometry", "simulate", audiograms, "--slope", "0.5", "--false-alarm-rate", "0.1", "--seed", "3"])
        #expect(b.stdout == a.stdout)
        let c = try run(["audiometry", "simulate", audiograms, "--slope", "0.5", "--false-alarm-rate", "0.1", "--seed", "4"])
        #expect(c.stdout != a.stdout)
    }

    @Test func badAudiogramsAreNamed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.json").path
        try Data(#"[{"1000": 20, "2000": 25}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let r = try run(["audiometry", "simulate", path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("audiogram 1 has no threshold for 250 Hz, 500 Hz, 3000 Hz"))
        try Data(#"[{"1000": "loud"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let s = try run(["audiometry", "simulate", path, "--frequencies", "1000"])
        #expect(s.status != 0 && s.stderr.contains("expected a threshold in dB HL or null"))
        let t = try run(["audiometry", "simulate", path, "--frequencies", "1250", "--headphone-type", "EARPODS"])
        #expect(t.status != 0)
    }
}
