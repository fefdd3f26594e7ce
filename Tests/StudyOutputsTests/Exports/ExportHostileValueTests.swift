import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// Hostile values never trap an exporter (issue 16: `Int(hz)` of a 1e20 Hz frequency did); the measures are read
/// from the typed result.
@Suite(.tags(.hostileInput)) struct ExportHostileValueTests {
    @Test func aHugeOrFractionalFrequencyIsSkippedNotConverted() throws {
        let folder = TemporaryDirectory()
        let file = folder.path("dbhl.json")
        try AudiometryExportTests.result.write(toFile: file, atomically: true, encoding: .utf8)
        guard case .dBHL(var test) = try #require(AudiometryProcessor.analyze(try AnalysisRegistry.load(path: file)).first)
        else {
            Issue.record("the fixture is a dB HL result")
            return
        }
        try #require(test.ears.count == 1 && test.ears[0].frequencies.count == 3)
        test.ears[0].frequencies[0].frequency = 1e20
        test.ears[0].frequencies[1].frequency = -1e300
        test.ears[0].frequencies[2].frequency = 1000.5
        var skipped: [String] = []
        #expect(AudiometryAnalysis.exportMeasures(of: .dBHL(test), skipped: &skipped).isEmpty)
        #expect(skipped.count == 3, "\(skipped)")
        // The same three values through the whole FHIR export: no Observation, three notes, no trap.
        let output = FHIRExport.bundle(try ExportRecord.records(of: AudiometryResult.dBHL(test)), context: ExportContext())
        #expect(output.bundle.objectValue?["entry"] == nil)
        #expect(output.skipped.filter { $0.contains("no LOINC hearing-threshold code") }.count == 3)
    }

    @Test func theLargestChannelIndexDoesNotOverflowTheOccurrence() throws {
        let folder = TemporaryDirectory()
        let file = folder.path("tone.wav")
        let samples = (0..<48_000).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48_000) }
        try AudioFileWriter.write([samples], sampleRate: 48_000, to: file, format: .wav16)
        var options = AudioAnalysisOptions()
        options.soundLevel.calibration = SoundCalibration(sensitivityOffset: -23.3, source: "value")
        var summary = try AudioFileAnalyzer.summarize(path: file, options: options)
        let level = try #require(summary.soundLevel)
        summary.soundLevel?.channels = level.channels.map {
            var c = $0
            c.channel = Int.max
            return c
        }
        var skipped: [String] = []
        let measures = AudioRecordingAnalysis.exportMeasures(of: summary, skipped: &skipped)
        #expect(measures.contains { $0.code == "LAeq" })
        #expect(measures.allSatisfy { $0.occurrence == 1 })
    }
}
