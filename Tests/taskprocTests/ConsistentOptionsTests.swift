import ActiveTasks
import ArgumentParser
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs
import Testing

@testable import taskproc

/// Every command accepts exactly the values it can use, says so in `--help`, and refuses the rest as a usage error
/// at parse time (issue 15, "one pipeline": a consistent command line).
@Suite struct ConsistentOptionsParsingTests {
    // MARK: synth

    @Test func synthTakesTheOutputAsArgumentOrOption() throws {
        #expect(try Synth.parse(["a.wav"]).outputPath == "a.wav")
        #expect(try Synth.parse(["-o", "b.wav"]).outputPath == "b.wav")
        #expect(try Synth.parse(["--output", "c.flac"]).outputPath == "c.flac")
        #expect(throws: (any Error).self) { try Synth.parse([]) }
        #expect(throws: (any Error).self) { try Synth.parse(["a.wav", "-o", "b.wav"]) }
    }

    @Test(arguments: [
        ("n.wav", AudioFileFormat.wav16), ("n.WAV", .wav16), ("n.flac", .flac16), ("n.aiff", .aiff16),
        ("n.aif", .aiff16), ("n.caf", .caf16), ("n.ogg", .oggVorbis), ("n.w64", .w64), ("n.rf64", .rf64),
        ("n.au", .au16),
    ])
    func synthPicksTheContainerFromTheExtension(_ file: String, _ format: AudioFileFormat) throws {
        #expect(try Synth.parse([file]).resolvedFormat() == format)
    }

    @Test func synthFileFormatMustAgreeWithTheExtension() throws {
        #expect(try Synth.parse(["n.flac", "--file-format", "flac24"]).resolvedFormat() == .flac24)
        #expect(try Synth.parse(["n.wav", "--file-format", "wavFloat"]).resolvedFormat() == .wavFloat)
        // An extension of no container leaves the choice to --file-format, and needs it.
        #expect(try Synth.parse(["n.dat", "--file-format", "w64"]).resolvedFormat() == .w64)
        #expect(throws: (any Error).self) { try Synth.parse(["n.dat"]) }
        #expect(throws: (any Error).self) { try Synth.parse(["noextension"]) }
        for contradiction in [["n.flac", "--file-format", "wav16"], ["n.wav", "--file-format", "flac16"],
            ["n.ogg", "--file-format", "aiff16"], ["-o", "n.au", "--file-format", "caf16"]]
        {
            #expect(throws: (any Error).self, "\(contradiction)") { try Synth.parse(contradiction) }
        }
    }

    // MARK: --format

    @Test func inspectRendersOnlyJSONTableAndCSV() throws {
        #expect(InspectFormat.allValueStrings == ["json", "table", "csv"])
        #expect(try Inspect.parse(["x"]).format.outputFormat == .json)
        for format in InspectFormats.accepted {
            #expect(try Inspect.parse(["x", "--format", format.rawValue]).format.outputFormat == format)
        }
        for refused in ["researchkit", "mork", "fhir", "xml"] {
            #expect(throws: (any Error).self, "\(refused)") { try Inspect.parse(["x", "--format", refused]) }
        }
        // The export-only options are not inspect's.
        #expect(throws: (any Error).self) { try Inspect.parse(["x", "--mork-config", "m.json"]) }
        #expect(throws: (any Error).self) { try Inspect.parse(["x", "--participant", "P1"]) }
    }

    @Test func batchFormatIsAnExportFormat() throws {
        #expect(BatchExportFormat.allValueStrings == ["researchkit", "mork", "fhir"])
        #expect(try Batch.parse(["e", "-o", "r"]).exportFormat == nil)
        for format in BatchFormats.accepted {
            let parsed = try #require(try Batch.parse(["e", "-o", "r", "--format", format.rawValue]).exportFormat)
            #expect(parsed.outputFormat == format && format.isExport)
        }
        for refused in ["json", "table", "csv"] {
            #expect(throws: (any Error).self, "\(refused)") { try Batch.parse(["e", "-o", "r", "--format", refused]) }
        }
    }

    @Test func analyzeAcceptsEveryOutputFormat() throws {
        #expect(OutputFormat.allValueStrings == OutputFormat.allCases.map(\.rawValue))
        #expect(OutputFormat.allCases.count == 6)
    }

    /// `--format` is one vocabulary: every command parses a name into the same ``OutputFormat`` analyze does, and
    /// the commands' choices are subsets of it.
    @Test func formatNamesMeanTheSameFormatInEveryCommand() throws {
        for format in OutputFormat.allCases {
            #expect(try Analyze.parse(["x", "--format", format.rawValue]).out.format == format)
        }
        for format in InspectFormats.accepted {
            #expect(try Inspect.parse(["x", "--format", format.rawValue]).format.outputFormat == format)
        }
        for format in BatchFormats.accepted {
            #expect(try Batch.parse(["e", "-o", "r", "--format", format.rawValue]).exportFormat?.outputFormat == format)
        }
        #expect(Set(InspectFormats.accepted).union(BatchFormats.accepted) == Set(OutputFormat.allCases))
        #expect(Set(InspectFormats.accepted).isDisjoint(with: BatchFormats.accepted))
    }

    // MARK: --output and the older --out

    @Test func batchAndMergeTakeOutputOrTheOlderOut() throws {
        for spelling in ["-o", "--output", "--out"] {
            #expect(try Batch.parse(["e", spelling, "r"]).out == "r")
            #expect(try Merge.parse(["s1", spelling, "m"]).out == "m")
        }
        #expect(throws: (any Error).self) { try Batch.parse(["e"]) }
        #expect(throws: (any Error).self) { try Batch.parse(["e", "-o", "r", "--out", "r"]) }
        #expect(throws: (any Error).self) { try Merge.parse(["s1", "--output", "m", "--out", "m"]) }
    }

    // MARK: --researchkit-version

    @Test func researchKitVersionIsCurrentOrAKnownRelease() throws {
        #expect(ResearchKitVersion.allValueStrings == ["current", "2.0", "2.1", "2.2", "3.0", "3.1", "3.2"])
        for (text, version) in [
            ("current", ResearchKitVersion.current), ("3.1", ResearchKitVersion(3, 1)), ("2.2.4", ResearchKitVersion(2, 2, 4)),
            ("3.2.0", .current), ("v3.0", ResearchKitVersion(3, 0)),
        ] {
            #expect(try Analyze.parse(["x", "--researchkit-version", text]).audiometry.researchKitVersion == version)
            #expect(try Batch.parse(["e", "-o", "r", "--researchkit-version", text]).researchKitVersion == version)
            #expect(try AudiometrySimulate.parse(["a.json", "--researchkit-version", text]).researchKitVersion == version)
        }
        for unknown in ["9.9", "3.3", "1.5", "4", "three", ""] {
            #expect(throws: (any Error).self, "\(unknown)") { try Analyze.parse(["x", "--researchkit-version", unknown]) }
            #expect(throws: (any Error).self, "\(unknown)") {
                try Batch.parse(["e", "-o", "r", "--researchkit-version", unknown])
            }
            #expect(throws: (any Error).self, "\(unknown)") {
                try AudiometrySimulate.parse(["a.json", "--researchkit-version", unknown])
            }
        }
    }

    /// A resumed batch re-parses its stored arguments: a non-default version survives the round trip.
    @Test func storedResearchKitVersionRoundTrips() throws {
        let batch = try Batch.parse(["e", "-o", "r", "--researchkit-version", "2.2"])
        #expect(batch.analysisArguments.suffix(2) == ["--researchkit-version", "2.2"])
        let options = try Batch.analysisOptions(batch.analysisArguments)
        #expect(options.audiometry.researchKitVersion == ResearchKitVersion(2, 2))
    }
}

/// The same rules through the built binary: what `--help` lists, what a refused value prints, and the files written.
@Suite struct ConsistentOptionsEndToEndTests {
    /// `--help` flattened to one line.
    func help(_ arguments: [String]) throws -> String {
        let r = try E2E.run(arguments + ["--help"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        return r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func helpListsWhatEachCommandAccepts() throws {
        #expect(try help(["inspect"]).contains("(values: json, table, csv; default: json)"))
        let batch = try help(["batch"])
        #expect(batch.contains("(values: researchkit, mork, fhir)"), "\(batch)")
        #expect(batch.contains("-o, --output <output>"))
        #expect(!batch.contains("--out "), "the older spelling is hidden: \(batch)")
        #expect(batch.contains("(values: current, 2.0, 2.1, 2.2, 3.0, 3.1, 3.2; default: current)"), "\(batch)")
        #expect(!(try help(["merge"])).contains("--out "))
        let synth = try help(["synth"])
        #expect(synth.contains("-o, --output <output>") && synth.contains(".flac") && synth.contains(".au"))
        #expect(try help(["audiometry", "simulate"]).contains("(values: current, 2.0, 2.1, 2.2, 3.0, 3.1, 3.2"))
    }

    @Test func refusedValuesAreUsageErrorsThatListTheChoices() throws {
        let dir = try E2E.temporaryDirectory("consistent-refused")
        defer { E2E.remove(dir) }
        let tone = dir.path + "/tone.wav"
        #expect(try E2E.run(["synth", tone, "--duration", "0.1"]).status == ExpectedExit.success)
        let cases: [(arguments: [String], mentions: [String])] = [
            (["inspect", tone, "--format", "fhir"], ["'fhir' is invalid", "json", "table", "csv"]),
            (["batch", tone, "-o", dir.path + "/b", "--format", "json"], ["'json' is invalid", "researchkit", "fhir"]),
            (["analyze", tone, "--researchkit-version", "9.9"], ["'9.9' is invalid", "current", "3.1", "2.0"]),
            (["batch", tone, "--out", dir.path + "/b", "--researchkit-version", "1.5"], ["'1.5' is invalid"]),
            (["synth", dir.path + "/n.flac", "--file-format", "wav16"], ["--file-format wav16", ".flac"]),
            (["synth", dir.path + "/n.bin"], ["cannot tell the container", "--file-format"]),
            (["synth", dir.path + "/a.wav", "-o", dir.path + "/b.wav"], ["once"]),
        ]
        for c in cases {
            let r = try E2E.run(c.arguments)
            #expect(r.status == ExpectedExit.usage, "\(c.arguments): \(r.stderr)")
            for text in c.mentions { #expect(r.stderr.contains(text), "\(c.arguments): \(r.stderr)") }
            #expect(r.stdout.isEmpty)
        }
        // Nothing was written by a refused synth, and a refused batch made no output folder.
        for name in ["n.flac", "n.bin", "a.wav", "b.wav", "b"] {
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/" + name), "\(name)")
        }
    }

    /// `synth` writes the container its output's extension names (it used to write WAV whatever the name).
    @Test(arguments: [
        ("noise.flac", "FLAC", "PCM_16"), ("noise.aif", "AIFF", "PCM_16"), ("noise.caf", "CAF", "PCM_16"),
        ("noise.ogg", "OGG", "VORBIS"), ("noise.w64", "W64", "PCM_16"), ("noise.rf64", "RF64", "PCM_16"),
        ("noise.au", "AU", "PCM_16"), ("noise.wav", "WAV", "PCM_16"),
    ])
    func synthWritesTheContainerOfTheExtension(_ name: String, _ container: String, _ encoding: String) throws {
        let dir = try E2E.temporaryDirectory("consistent-synth")
        defer { E2E.remove(dir) }
        let file = dir.path + "/" + name
        let r = try E2E.run(["synth", "-o", file, "--signal", "noise", "--amplitude", "0.1", "--duration", "0.5"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let summary = try E2E.object(try E2E.run(["analyze", file]).stdout)
        #expect(summary["container"] as? String == container, "\(summary)")
        #expect(summary["encoding"] as? String == encoding, "\(summary)")
        #expect(summary["frameCount"] as? Int == 24_000)
    }

    @Test func batchWritesTheExportNamedByFormatWithTheNewSpelling() throws {
        let dir = try E2E.temporaryDirectory("consistent-batch")
        defer { E2E.remove(dir) }
        let tone = dir.path + "/in/tone.wav"
        try FileManager.default.createDirectory(atPath: dir.path + "/in", withIntermediateDirectories: true)
        #expect(try E2E.run(["synth", tone, "--duration", "0.5"]).status == ExpectedExit.success)
        let r = try E2E.run(["batch", dir.path + "/in", "-o", dir.path + "/out", "--format", "researchkit", "--no-progress"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/out/results.jsonl"))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/out/export.researchkit.jsonl"))
    }
}
