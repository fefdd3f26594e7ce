import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `taskproc report`, `inspect` and `synth` through the built binary, and the documented exit statuses of every
/// command.
@Suite struct ReportInspectSynthEndToEndTests {
    // MARK: report

    /// The text of the first `<td>` after `<td>name</td>` in the part of `html` that starts at `section`.
    func cell(_ name: String, after section: String, in html: String) -> String? {
        guard let start = html.range(of: section) else { return nil }
        let rest = html[start.upperBound...]
        let end = rest.range(of: "<h2")?.lowerBound ?? rest.endIndex
        guard let label = rest[..<end].range(of: "<td>\(name)</td><td class=\"num\">") else { return nil }
        let value = rest[label.upperBound...]
        return value.range(of: "</td>").map { String(value[..<$0.lowerBound]) }
    }

    @Test func batchFolderReportHasTheOverviewAndEveryRecordsNumbers() throws {
        let study = try StudyExport(name: "report")
        defer { study.remove() }
        // One broken record, so the page also shows a failure with its reason.
        try E2E.write("{\"items\": [", to: study.export + "/healthCode=HC8/accel_walking_outbound.json")
        let out = study.root.path + "/out"
        #expect(try E2E.run(["batch", study.export, "--out", out, "--no-progress"]).status == ExpectedExit.batchPartial)
        let html = study.root.path + "/study.html"
        let r = try E2E.run(["report", out, "-o", html, "--title", "Wave 1 & friends"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        #expect(r.stderr.contains("report of 8 record(s)"))
        let page = try String(contentsOfFile: html, encoding: .utf8)

        // Valid XML (docs/report.md: the tests parse it), self-contained: no scripts, nothing loaded from elsewhere.
        #expect(XMLParser(data: Data(page.utf8)).parse())
        #expect(!page.contains("<script"))
        #expect(page.range(of: #"(src|href)="(?!#)"#, options: .regularExpression) == nil)
        #expect(page.contains("Wave 1 &amp; friends"))  // the title, escaped

        // Overview: records per kind and status; histograms of the headline measures with their n.
        #expect(page.contains("<h2 id=\"overview\">Study overview</h2>"))
        #expect(
            page.contains(
                "<tr><td>tapping</td><td class=\"num\">5</td><td class=\"num\">0</td><td class=\"num\">0</td></tr>"))
        #expect(
            page.contains(
                "<tr><td>walking</td><td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">1</td></tr>"))
        #expect(page.contains("taps per tapping step, taps (n = 5)"))
        #expect(page.contains("steps per walking step, steps (n = 2)"))

        // Per record: the known values (tap rows written, f·T steps) in its numbers table.
        for (p, taps) in StudyExport.taps {
            let section = "healthCode=\(p)/tap.csv</h2>"
            // Every tap is a depress event; taps alternate, left first.
            #expect(cell("numberTaps", after: section, in: page) == String(taps), "\(p)")
            #expect(cell("leftTaps", after: section, in: page) == String((taps + 1) / 2), "\(p)")
        }
        for (p, walk) in StudyExport.walks {
            let section = "healthCode=\(p)/accel_walking_outbound.json</h2>"
            let steps = try #require(cell("stepCount", after: section, in: page).flatMap(Double.init), "\(p)")
            #expect(abs(steps - walk.frequency * walk.seconds) <= 1)
        }
        // The failed record: status and reason.
        let failed = try #require(page.range(of: "healthCode=HC8/accel_walking_outbound.json</h2>"))
        let after = page[failed.upperBound...].prefix(600)
        #expect(after.contains("status-error"))

        // Never overwritten without --force.
        #expect(try E2E.run(["report", out, "-o", html]).status == ExpectedExit.outputExists)
        #expect(try E2E.run(["report", out, "-o", html, "--force"]).status == ExpectedExit.success)
    }

    @Test func analyzeOutputReportShowsTheResultsNumbers() throws {
        let dir = try E2E.temporaryDirectory("report-analyze")
        defer { E2E.remove(dir) }
        // The mhealthtools tap table: 181 taps, 90 left / 75 right / 16 none (shared/data README).
        let json = dir.path + "/taps.json"
        let analyze = try E2E.run([
            "analyze", sharedDataPath("mpower-samples/mhealthtools_tap_data.csv"), "--output", json,
        ])
        #expect(analyze.status == ExpectedExit.success, "\(analyze.stderr)")
        let html = dir.path + "/taps.html"
        let r = try E2E.run(["report", json, "-o", html])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(XMLParser(data: Data(page.utf8)).parse())
        #expect(page.contains("kind: tapping"))
        let section = "mhealthtools_tap_data.csv</h2>"
        for (name, value) in [("leftTaps", 90), ("noneTaps", 16)] {
            #expect(cell(name, after: section, in: page) == String(value), "\(name)")
        }
        // Every measure is in the (collapsed) table: until 2026-11-26 it was cut at 40 measures alphabetically,
        // which dropped the raw tap count and the right-hand taps.
        #expect(cell("tapCount", after: section, in: page) == "181")
        #expect(cell("rightTaps", after: section, in: page) == "75")
        // A single record: no study overview; the tap timeline and interval histogram are drawn.
        #expect(!page.contains("Study overview"))
        #expect(page.components(separatedBy: "<svg").count - 1 >= 2)

        // Something that is not taskproc output is refused.
        try E2E.write("[1, 2, 3]", to: dir.path + "/numbers.json")
        #expect(
            try E2E.run(["report", dir.path + "/numbers.json", "-o", dir.path + "/n.html"]).status
                == ExpectedExit.dataError)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/n.html"))
    }

    // MARK: inspect

    /// Lines of a gzip file, counted with the system's gzip (independent of taskproc's reader).
    func gzipLineCount(_ path: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    @Test func inspectJSONAndTableDescribeTheSharedSamples() throws {
        // Oxford hand walk: headerless CSV (data README), one sample per line, requested at 100 Hz.
        let oxford = sharedDataPath(AnalyzeFormatsEndToEndTests.oxfordHand)
        let lines = try gzipLineCount(oxford)
        let json = try E2E.run(["inspect", oxford])
        #expect(json.status == ExpectedExit.success, "\(json.stderr)")
        let inspection = try E2E.object(json.stdout)
        #expect(inspection["kind"] as? String == "inspection")
        #expect(inspection["errorCount"] as? Int == 0)
        let recording = try #require((inspection["recordings"] as? [[String: Any]])?.first)
        #expect(recording["samples"] as? Int == lines)
        #expect(recording["units"] as? String == "m/s^2")  // README: m/s² including gravity
        // README: median dt 9.3–10.0 ms across the four files.
        let rate = try #require(E2E.number(recording["samplingRate"]))
        #expect(rate >= 1000 / 10.0 - 0.5 && rate <= 1000 / 9.3)

        // The still phone: 2023 samples over 20.0 s at about 101.1 Hz, in g (data README).
        let still = sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json")
        let s = try E2E.object(try E2E.run(["inspect", still]).stdout)
        #expect(s["dialect"] as? String == "mPower")
        let r = try #require((s["recordings"] as? [[String: Any]])?.first)
        #expect(r["samples"] as? Int == 2023)
        #expect(abs((E2E.number(r["timeSpan"]) ?? 0) - 20.0) < 0.05)
        #expect(abs((E2E.number(r["samplingRate"]) ?? 0) - 101.1) < 0.1)
        #expect(r["units"] as? String == "g")

        // Table: the mhealthtools tap table's 181 taps, 90 left / 75 right / 16 none.
        let table = try E2E.run([
            "inspect", sharedDataPath("mpower-samples/mhealthtools_tap_data.csv"), "--format", "table",
        ])
        #expect(table.status == ExpectedExit.success)
        #expect(table.stdout.contains("dialect        mhealthtools"))
        #expect(table.stdout.contains("taps           181 (left 90, right 75, none 16)"))

        // CSV: one row per part with the same numbers.
        let csv = try E2E.csvTable(try E2E.run(["inspect", still, "--format", "csv"]).stdout)
        #expect(csv.rows.count == 1)
        #expect(csv.rows.first?["samples"] == "2023" && csv.rows.first?["dialect"] == "mPower")
        #expect(csv.rows.first?["taskKind"] == "walking")
    }

    /// The table section names the preamble lines a sensor export skipped (XSens MT Manager's `//` header).
    @Test func inspectTableShowsTheSkippedPreamble() throws {
        let run = try E2E.run(["inspect", E2E.fixture("sensor-exports/xsens-mtmanager.txt"), "--format", "table"])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        #expect(run.stdout.contains("preamble       // General information:"), "\(run.stdout)")
        #expect(run.stdout.contains("preamble       … 1 more lines"), "\(run.stdout)")
    }

    /// `inspect` describes files; it has no export form (researchkit, mork, fhir would wrap a description as if it
    /// were a measure, and FHIR has nothing to say about it): refused as a usage error.
    @Test func inspectHasNoExportFormats() throws {
        let still = sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json")
        for format in ["researchkit", "mork", "fhir"] {
            let i = try E2E.run(["inspect", still, "--format", format])
            #expect(i.status == ExpectedExit.usage, "\(format): \(i.stderr)")
            #expect(i.stderr.contains("'\(format)' is invalid") && i.stdout.isEmpty, "\(format): \(i.stderr)")
        }
    }

    // MARK: synth

    /// Reads a canonical PCM WAV header (RIFF, `fmt `, `data` chunks) without taskproc.
    func wavHeader(_ path: String) throws -> (sampleRate: Int, channels: Int, bits: Int, frames: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ i: Int) -> Int {
            Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
        }
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        try #require(bytes.count > 44 && String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF")
        try #require(String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE")
        var i = 12
        var format: (Int, Int, Int)?
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<i + 4], as: UTF8.self)
            let size = u32(i + 4)
            if id == "fmt " { format = (u32(i + 12), u16(i + 10), u16(i + 22)) }
            if id == "data", let (rate, channels, bits) = format {
                return (rate, channels, bits, size / (channels * bits / 8))
            }
            i += 8 + size + size % 2
        }
        Issue.record("no fmt/data chunk in \(path)")
        return (0, 0, 0, 0)
    }

    @Test func synthWritesWhatWasAskedAndAnalyzeMeasuresIt() throws {
        let dir = try E2E.temporaryDirectory("synth")
        defer { E2E.remove(dir) }
        let wav = dir.path + "/tone.wav"
        let r = try E2E.run([
            "synth", wav, "--frequency", "440", "--amplitude", "0.25", "--duration", "1.5", "--sample-rate", "44100",
            "--channels", "2",
        ])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let header = try wavHeader(wav)
        #expect(header.sampleRate == 44100 && header.channels == 2 && header.bits == 16)  // default wav16
        #expect(header.frames == 66150)  // 1.5 s × 44 100 Hz
        // Level and frequency from physics: a sine of amplitude 0.25 is 20·lg(0.25/√2) = −15.05 dBFS.
        let summary = try E2E.object(try E2E.run(["analyze", wav]).stdout)
        let channels = try #require(summary["channels"] as? [[String: Any]])
        try #require(channels.count == 2)
        for c in channels {
            #expect(abs((E2E.number(c["rmsDBFS"]) ?? 0) - 20 * log10(0.25 / 2.0.squareRoot())) < 0.01)
            #expect(abs((E2E.number(c["peakDBFS"]) ?? 0) - 20 * log10(0.25)) < 0.01)
            #expect(abs((E2E.number(c["dominantFrequency"]) ?? 0) - 440) < 0.5)
        }

        // Refuses to overwrite without --force; with --force the file is the new signal.
        let again = try E2E.run(["synth", wav, "--signal", "noise", "--amplitude", "0.1", "--duration", "2"])
        #expect(again.status == ExpectedExit.synthOutputExists)
        #expect(try wavHeader(wav).frames == 66150)  // untouched
        let forced = try E2E.run([
            "synth", wav, "--signal", "noise", "--amplitude", "0.1", "--duration", "2", "--force",
        ])
        #expect(forced.status == ExpectedExit.success, "\(forced.stderr)")
        let noise = try wavHeader(wav)
        #expect(noise.sampleRate == 48000 && noise.channels == 1 && noise.frames == 96000)  // defaults: 48 kHz, mono
        // White noise of RMS 0.1 reads 20·lg(0.1) = −20 dBFS (96 000 samples: ±0.05 dB) and is spectrally flat.
        let n = try #require(
            (try E2E.object(try E2E.run(["analyze", wav]).stdout)["channels"] as? [[String: Any]])?.first)
        #expect(abs((E2E.number(n["rmsDBFS"]) ?? 0) + 20) < 0.1)
        #expect((E2E.number(n["spectralFlatness"]) ?? 0) > 0.9)
    }

    @Test(arguments: [("flac24", "FLAC", "PCM_24"), ("aiff16", "AIFF", "PCM_16"), ("wavFloat", "WAV", "FLOAT")])
    func synthFileFormats(_ format: String, _ container: String, _ encoding: String) throws {
        let dir = try E2E.temporaryDirectory("synth-\(format)")
        defer { E2E.remove(dir) }
        let file =
            dir.path + "/signal." + (format.hasPrefix("flac") ? "flac" : format.hasPrefix("aiff") ? "aiff" : "wav")
        let r = try E2E.run([
            "synth", file, "--file-format", format, "--sample-rate", "16000", "--duration", "0.5", "--channels", "3",
            "--amplitude", "0.5",
        ])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let summary = try E2E.object(try E2E.run(["analyze", file]).stdout)
        #expect(summary["container"] as? String == container && summary["encoding"] as? String == encoding)
        #expect(summary["sampleRate"] as? Int == 16000 && summary["channelCount"] as? Int == 3)
        #expect(summary["frameCount"] as? Int == 8000)
        #expect(E2E.number(summary["duration"]) == 0.5)
        let channels = try #require(summary["channels"] as? [[String: Any]])
        #expect(channels.count == 3)
        for c in channels { #expect(abs((E2E.number(c["rmsDBFS"]) ?? 0) - 20 * log10(0.5 / 2.0.squareRoot())) < 0.01) }
    }

    @Test func silenceHasNoLevel() throws {
        let dir = try E2E.temporaryDirectory("synth-silence")
        defer { E2E.remove(dir) }
        let wav = dir.path + "/silence.wav"
        #expect(try E2E.run(["synth", wav, "--signal", "silence"]).status == ExpectedExit.success)
        let c = try #require(
            (try E2E.object(try E2E.run(["analyze", wav]).stdout)["channels"] as? [[String: Any]])?.first)
        // docs/audio.md: levels of digital silence are null (−∞ dB has no JSON form).
        #expect(E2E.number(c["rms"]) == 0)
        #expect(c["rmsDBFS"] is NSNull && c["peakDBFS"] is NSNull)
    }

    // MARK: Exit statuses

    @Test func documentedExitStatuses() throws {
        let dir = try E2E.temporaryDirectory("exit")
        defer { E2E.remove(dir) }
        let empty = dir.path + "/empty.json"
        try Data().write(to: URL(fileURLWithPath: empty))
        let tone = dir.path + "/tone.wav"
        #expect(try E2E.run(["synth", tone]).status == ExpectedExit.success)
        let partialMORK = dir.path + "/mork.json"
        try E2E.write(#"{"envelope": {"subject_name": "P-0001"}}"#, to: partialMORK)
        // Expected status, and a part of the message on stderr (nil: only that there is one).
        let cases: [(arguments: [String], status: Int32, stderr: String?)] = [
            (["analyze", dir.path + "/missing.wav"], ExpectedExit.missingInput, "no such file"),
            (["inspect", dir.path + "/missing"], ExpectedExit.missingInput, "no such file"),
            (["analyze", empty], ExpectedExit.dataError, "empty (0-byte) file"),
            (["inspect", empty], ExpectedExit.partlyUnreadable, "could not be read"),
            (["analyze", tone, "--format", "xml"], ExpectedExit.usage, "'xml' is invalid"),
            (
                ["analyze", tone, "--mork-config", empty], ExpectedExit.usage,
                "--mork-config applies to --format mork only"
            ),
            // An envelope without the required fields (without any --mork-config: the field_data array alone).
            (["analyze", tone, "--format", "mork", "--mork-config", partialMORK], ExpectedExit.dataError, "study_uuid"),
            (["analyze", tone, "--output", tone], ExpectedExit.outputExists, "pass --force"),
            (
                ["report", dir.path + "/missing", "-o", dir.path + "/r.html"], ExpectedExit.missingInputOfStudyCommands,
                nil
            ),
            (["audiometry", "simulate", dir.path + "/missing.json"], ExpectedExit.missingInputOfStudyCommands, nil),
            (
                ["merge", dir.path + "/missing", "--out", dir.path + "/m"], ExpectedExit.missingInputOfStudyCommands,
                nil
            ),
            (
                ["batch", dir.path + "/missing", "--out", dir.path + "/b"], ExpectedExit.missingInputOfStudyCommands,
                nil
            ),
            (["synth", tone], ExpectedExit.synthOutputExists, "exists"),
            (["synth", dir.path + "/n.flac", "--file-format", "wav16"], ExpectedExit.usage, "--file-format wav16"),
            (["inspect", tone, "--format", "fhir"], ExpectedExit.usage, "'fhir' is invalid"),
            (["batch", tone, "-o", dir.path + "/b2", "--format", "csv"], ExpectedExit.usage, "'csv' is invalid"),
            (["analyze", tone, "--researchkit-version", "9.9"], ExpectedExit.usage, "'9.9' is invalid"),
            (["no-such-command"], ExpectedExit.usage, "Unexpected argument"),
        ]
        for c in cases {
            let r = try E2E.run(c.arguments)
            #expect(r.status == c.status, "\(c.arguments): \(r.stderr)")
            #expect(r.stderr.lowercased().contains((c.stderr ?? "error").lowercased()), "\(c.arguments): \(r.stderr)")
            // A usage banner only for usage errors.
            #expect(r.stderr.contains("Usage:") == (c.status == ExpectedExit.usage), "\(c.arguments): \(r.stderr)")
            if c.status != ExpectedExit.partlyUnreadable { #expect(r.stdout.isEmpty, "\(c.arguments)") }
        }
    }
}
