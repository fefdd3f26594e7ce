import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 16: hostile input never crashes taskproc, never loses a record, never exhausts memory.
///
/// Each test runs the built binary; expected values come from the issue's findings and the documented limits, not
/// from taskproc.
@Suite struct HostileInputTests {
    /// What a child run reported, with its own peak resident set size (from `wait4`, so parallel tests do not mix).
    struct Measured {
        var status: Int32
        /// The signal that ended the process, 0 if it exited.
        var signal: Int32
        /// Peak RSS, kB.
        var peakKB: Int
        var stdout: String
        var stderr: String
    }

    /// Runs the binary under a small Python wrapper that waits with `os.wait4` and prints the child's `ru_maxrss`.
    static func measured(_ arguments: [String], stdoutFile: String? = nil) throws -> Measured {
        let wrapper = """
            import os, sys, json, signal
            out_path = sys.argv[1]
            err_r, err_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                signal.alarm(120)  # a run that blocks (on a FIFO, say) ends on SIGALRM: the test fails, never hangs
                fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 1); os.dup2(err_w, 2); os.close(err_r)
                os.execv(sys.argv[2], sys.argv[2:])
            os.close(err_w)
            chunks = []
            while True:
                b = os.read(err_r, 65536)
                if not b: break
                chunks.append(b)
            _, status, usage = os.wait4(pid, 0)
            sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
            rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
            sys.stdout.write(json.dumps({"rc": rc, "signal": sig, "maxrss": usage.ru_maxrss}) + "\\n")
            sys.stdout.write(b"".join(chunks).decode("utf-8", "replace"))
            """
        let dir = TemporaryDirectory()
        let out = stdoutFile ?? dir.path("stdout")
        let r = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", wrapper, out, CommandLineEndToEndTests.binary.path] + arguments)
        let firstLine = String(r.stdout.prefix { $0 != "\n" })
        let info = try #require(try JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Int])
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return Measured(
            status: Int32(info["rc"] ?? -1), signal: Int32(info["signal"] ?? -1), peakKB: info["maxrss"] ?? -1,
            stdout: stdout, stderr: String(r.stdout.dropFirst(firstLine.count + 1)))
    }

    /// The corpus of worst inputs (Tools/fixtures/hostile_corpus.py), written into `dir`.
    static func corpus(in dir: TemporaryDirectory) throws -> String {
        let folder = dir.path("corpus")
        let r = try runPythonScript("Tools/fixtures/hostile_corpus.py", [folder, E2E.fixture("")])
        try #require(r.status == 0, "hostile_corpus.py failed: \(r.output)")
        return folder
    }

    // MARK: Memory and signals over the whole corpus

    /// Issue 16 "done when": no input in the corpus ends a command on a signal, or takes 300 MB for a file under
    /// 10 MB.
    @Test func noCorpusInputEndsOnASignalOrTakes300MB() throws {
        let dir = TemporaryDirectory()
        let folder = try Self.corpus(in: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count >= 9)
        for name in files {
            let path = folder + "/" + name
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size < 10_000_000, "\(name) is not under 10 MB")
            let r = try Self.measured(["analyze", path, "--format", "csv"])
            #expect(r.signal == 0, "\(name): ended on signal \(r.signal): \(r.stderr.prefix(300))")
            #expect([0, 2, 65].contains(r.status), "\(name): exit \(r.status): \(r.stderr.prefix(300))")
            #expect(r.peakKB > 0 && r.peakKB < 300_000, "\(name): peak RSS \(r.peakKB) kB")
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("EncodingError"), "\(name): \(r.stderr)")
        }
    }

    /// Part 5: a batch's peak RSS is bounded by the records in flight (at most 2 × jobs) × the per-record bound
    /// (250 MB, docs/inputs.md "Limits") + 100 MB, over the corpus with a second copy of its most expensive input.
    @Test func batchPeakRSSIsBoundedByJobsTimesThePerRecordBound() throws {
        let dir = TemporaryDirectory()
        let folder = try Self.corpus(in: dir)
        try FileManager.default.copyItem(
            atPath: folder + "/dense_accel.csv.gz", toPath: folder + "/dense_accel_2.csv.gz")
        let jobs = 1  // two records in flight on two cores: the tightest bound (600 MB), measured 475 MB
        let r = try Self.measured(["batch", folder, "-o", dir.path("out"), "--jobs", String(jobs)])
        #expect(r.signal == 0)
        #expect(r.status == ExpectedExit.batchPartial, "\(r.stderr.prefix(500))")
        let bound = 2 * jobs * 250_000 + 100_000
        #expect(r.peakKB < bound, "batch peak RSS \(r.peakKB) kB over \(bound) kB")
        // Nothing lost: every corpus file is a row of results.jsonl or errors.jsonl.
        let lines = try E2E.jsonLines(dir.path("out/results.jsonl")) + E2E.jsonLines(dir.path("out/errors.jsonl"))
        let sources = Set(lines.compactMap { ($0["source"] as? String).map { ($0 as NSString).lastPathComponent } })
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(files.isSubset(of: sources), "missing from the batch outputs: \(files.subtracting(sources).sorted())")
    }
}

/// One regression test per finding of issue 16 that was still open; each failed before its fix.
@Suite struct HostileInputFindingTests {
    typealias M = HostileInputTests

    /// Writes a WAV header and data byte by byte (8-bit PCM unless told otherwise).
    static func wav(_ path: String, channels: Int, frames: Int) throws {
        let data = Data(repeating: 0x80, count: channels * frames)
        var header = Data("RIFF".utf8)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { header.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { header.append(contentsOf: $0) } }
        u32(36 + data.count)
        header.append(contentsOf: Data("WAVEfmt ".utf8))
        u32(16)
        u16(1)
        u16(channels)
        u32(48_000)
        u32(48_000 * channels)
        u16(channels)
        u16(8)
        header.append(contentsOf: Data("data".utf8))
        u32(data.count)
        try (header + data).write(to: URL(fileURLWithPath: path))
    }

    @Test func a1068ByteWavOf1024ChannelsIsRefusedCheaply() throws {
        let dir = TemporaryDirectory()
        try Self.wav(dir.path("c.wav"), channels: 1024, frames: 1)
        #expect(try FileManager.default.attributesOfItem(atPath: dir.path("c.wav"))[.size] as? Int == 1068)
        let r = try M.measured(["analyze", dir.path("c.wav")])
        #expect(r.status == ExpectedExit.dataError)
        #expect(r.stderr.contains("c.wav: channels: 1024 out of range (max 64)"), "\(r.stderr)")
        #expect(r.peakKB < 100_000, "peak RSS \(r.peakKB) kB (it was 2.2 GB)")
    }

    @Test func oneFrameOf64ChannelsAllocatesNoWholeBlocks() throws {
        let dir = TemporaryDirectory()
        try Self.wav(dir.path("c.wav"), channels: 64, frames: 1)
        let r = try M.measured(["analyze", dir.path("c.wav"), "--block-frames", "1048576"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        // Before: 64 meters × (1.2 MB chunk + 200 kB histogram) + 2 × 64 × 2^20 × 8 bytes of block buffers.
        #expect(r.peakKB < 80_000, "peak RSS \(r.peakKB) kB")
    }

    @Test(arguments: [
        ["analyze", "x.wav", "--block-frames", "9223372036854775807"],
        ["analyze", "x.wav", "--block-frames", "1048577"],
        ["synth", "s.wav", "--sample-rate", "2000000000"],
        ["synth", "s.wav", "--duration", "86401"],
        ["synth", "s.wav", "--channels", "65"],
        ["audiometry", "simulate", "a.json", "--tone-duration", "1e300"],
        ["audiometry", "simulate", "a.json", "--max-random-pre-stimulus-delay", "1e300"],
        ["audiometry", "simulate", "a.json", "--post-stimulus-delay", "1e300"],
        ["audiometry", "simulate", "a.json", "--post-stimulus-delay", "1e12"],
        ["audiometry", "simulate", "a.json", "--max-presentations", "1000000000"],
        ["audiometry", "simulate", "a.json", "--initial-level", "1e300"],
        ["batch", "x.wav", "-o", "out", "--jobs", "9223372036854775807"],
    ])
    func optionsBeyondTheirBoundsAreUsageErrors(_ arguments: [String]) throws {
        let dir = TemporaryDirectory()
        try Self.wav(dir.path("x.wav"), channels: 1, frames: 100)
        try E2E.write(
            "[{\"250\": 10, \"500\": 15, \"1000\": 20, \"2000\": 25, \"3000\": 30, \"4000\": 40, \"8000\": null}]",
            to: dir.path("a.json"))
        let args = arguments.map { ["x.wav", "s.wav", "a.json", "out"].contains($0) ? dir.path($0) : $0 }
        let r = try M.measured(args)
        #expect(r.signal == 0, "\(arguments): signal \(r.signal)")
        #expect(r.status == ExpectedExit.usage, "\(arguments): exit \(r.status) \(r.stderr.prefix(300))")
        #expect(r.stderr.contains("out of range"), "\(arguments): \(r.stderr.prefix(300))")
        #expect(r.peakKB < 100_000)
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.wav")))
    }

    @Test func simulateAtItsLargestBoundsWritesDatesOurReaderAccepts() throws {
        let dir = TemporaryDirectory()
        try E2E.write("{\"1000\": 20, \"2000\": null}", to: dir.path("a.json"))
        let r = try M.measured([
            "audiometry", "simulate", dir.path("a.json"), "--frequencies", "1000,2000", "--tone-duration", "60",
            "--max-random-pre-stimulus-delay", "60", "--post-stimulus-delay", "60", "--max-presentations", "1000",
            "-o", dir.path("sim.json"),
        ])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let text = try String(contentsOfFile: dir.path("sim.json"), encoding: .utf8)
        let end = try #require(text.range(of: #""endDate":"(\d+)-"#, options: .regularExpression))
        #expect(text[end].count == #""endDate":"2026-"#.count, "a year of other than 4 digits: \(text[end])")
        let back = try M.measured(["analyze", dir.path("sim.json")])
        #expect(back.status == ExpectedExit.success, "\(back.stderr)")
    }

    @Test func synthStreamsLongSignalsInConstantMemory() throws {
        let dir = TemporaryDirectory()
        // 20 million samples: 160 MB as one array of Double before the fix.
        let r = try M.measured([
            "synth", dir.path("long.wav"), "--duration", "20000", "--sample-rate", "1000", "--frequency", "50",
        ])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        #expect(r.peakKB < 80_000, "peak RSS \(r.peakKB) kB")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dir.path("long.wav"))[.size] as? Int)
        #expect(size == 44 + 20_000_000 * 2)
    }

    @Test func aFailedSynthLeavesNothingThatBlocksTheRerun() throws {
        let dir = TemporaryDirectory()
        let out = dir.path("t.flac")
        // FLAC stores at most 655 350 Hz; 700 kHz is inside taskproc's bounds, so libsndfile refuses it.
        let failed = try M.measured(["synth", out, "--sample-rate", "700000", "--frequency", "1000"])
        #expect(failed.status == ExpectedExit.outputExists, "\(failed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
        let rerun = try M.measured(["synth", out, "--sample-rate", "48000"])
        #expect(rerun.status == ExpectedExit.success, "\(rerun.stderr)")
    }

    /// Two walking records with `stepCount` ±1e308 (the histogram's range overflowed) and a channel of 1e300.
    @Test func reportSurvivesExtremeStepCountsAndChannels() throws {
        let dir = TemporaryDirectory()
        let batch = try M.measured([
            "batch", E2E.fixture("mpower/deviceMotion_walking_return.json.items"), "-o", dir.path("b"),
        ])
        #expect(batch.status == ExpectedExit.success, "\(batch.stderr)")
        let line =
            try String(contentsOfFile: dir.path("b/results.jsonl"), encoding: .utf8)
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.contains("\"stepCount\""))
        let huge = line.replacingOccurrences(
            of: #""stepCount":\s*\d+"#, with: "\"stepCount\":1e308", options: .regularExpression)
        let tiny = line.replacingOccurrences(
            of: #""stepCount":\s*\d+"#, with: "\"stepCount\":-1e308", options: .regularExpression)
        try E2E.write(huge + "\n" + tiny + "\n", to: dir.path("r/results.jsonl"))
        let r = try M.measured(["report", dir.path("r"), "-o", dir.path("r.html")])
        #expect(r.signal == 0 && r.status == ExpectedExit.success, "\(r.stderr.prefix(300))")

        let audio = try M.measured(["synth", dir.path("t.wav"), "--duration", "5"])
        #expect(audio.status == ExpectedExit.success)
        let analysed = try M.measured(["analyze", dir.path("t.wav")])
        let channel = analysed.stdout.replacingOccurrences(
            of: #""channel" : 0"#, with: "\"channel\" : 1e300", options: .regularExpression)
        try E2E.write(channel, to: dir.path("tone.json"))
        let c = try M.measured(["report", dir.path("tone.json"), "-o", dir.path("c.html")])
        #expect(c.signal == 0 && c.status == ExpectedExit.success, "\(c.stderr.prefix(300))")
        #expect(try String(contentsOfFile: dir.path("c.html"), encoding: .utf8).contains("channel 1e+300"))
    }

    /// `-o FIFO --force` writes into the FIFO; it used to rename a regular file over it (and over /dev/null).
    @Test func forceOntoAFifoWritesIntoIt() throws {
        let dir = TemporaryDirectory()
        let fifo = dir.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let r = try M.measured(["analyze", E2E.fixture("researchkit/spl-meter.json"), "-o", fifo, "--force"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = read(reader, &buffer, buffer.count)
        #expect(n > 0 && String(decoding: buffer[0..<max(0, n)], as: UTF8.self).contains("splMeter"))
    }

    /// As root, a character device (a copy of /dev/null's numbers) stays a device.
    @Test(.enabled(if: getuid() == 0)) func forceOntoADeviceNodeWritesIntoIt() throws {
        let dir = TemporaryDirectory()
        let node = dir.path("null")
        // makedev(1, 3) in glibc's encoding: major << 8 | minor for small numbers.
        #expect(mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        let r = try M.measured(["analyze", E2E.fixture("researchkit/spl-meter.json"), "-o", node, "--force"])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        var st = stat()
        #expect(lstat(node, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "the device node was replaced")
    }

    @Test func fileSystemErrorsAreClearMessagesNotNSErrorDumps() throws {
        let dir = TemporaryDirectory()
        let spl = E2E.fixture("researchkit/spl-meter.json")
        let missing = try M.measured(["analyze", spl, "-o", dir.path("no/such/dir/x.json")])
        #expect(missing.status == ExpectedExit.outputExists)
        #expect(missing.stderr.contains("x.json: cannot write: No such file or directory"), "\(missing.stderr)")
        let folder = try M.measured(["analyze", spl, "-o", dir.url.path, "--force"])
        #expect(folder.status == ExpectedExit.outputExists)
        #expect(folder.stderr.contains("is a folder"), "\(folder.stderr)")
        // audiometry simulate: a folder given as the audiogram file, and an output folder under a regular file.
        let audiograms = dir.path("a.json")
        try E2E.write("[{\"1000\": 20, \"2000\": 20}, {\"1000\": 30, \"2000\": 30}]", to: audiograms)
        let folderInput = try M.measured(["audiometry", "simulate", dir.url.path, "--frequencies", "1000,2000"])
        #expect(folderInput.status == ExpectedExit.dataError)
        #expect(folderInput.stderr.contains("is a folder; expected a JSON file"), "\(folderInput.stderr)")
        try E2E.write("x", to: dir.path("plain"))
        let underFile = try M.measured([
            "audiometry", "simulate", audiograms, "--frequencies", "1000,2000", "-o", dir.path("plain/sims/"),
        ])
        #expect(underFile.status == ExpectedExit.outputExists)
        #expect(underFile.stderr.contains("sims: cannot create the folder: Not a directory"), "\(underFile.stderr)")
        for r in [missing, folder, folderInput, underFile] {
            #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("could not be completed"))
        }
    }

    @Test func aClosedPipeIsExit74WithAMessage() throws {
        let script = """
            import subprocess, sys
            p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            p.stdout.close()
            err = p.stderr.read().decode()
            print(p.wait()); print(err)
            """
        let dir = TemporaryDirectory()
        _ = try M.measured(["synth", dir.path("t.wav"), "--duration", "5"])
        let inputs = Array(repeating: dir.path("t.wav"), count: 8)
        let r = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", script, CommandLineEndToEndTests.binary.path, "analyze"] + inputs)
        #expect(r.stdout.hasPrefix("74\n"), "\(r.stdout)")
        #expect(r.stdout.contains("cannot write standard output: Broken pipe"))
    }

    @Test func aDanglingLinkInAnInputFolderIsReported() throws {
        let dir = TemporaryDirectory()
        let folder = dir.path("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: E2E.fixture("researchkit/spl-meter.json"), toPath: folder + "/spl.json")
        #expect(symlink("gone.json", folder + "/broken.json") == 0)
        let analysed = try M.measured(["analyze", folder])
        #expect(analysed.status == ExpectedExit.partlyUnreadable, "\(analysed.stderr)")
        let inspected = try M.measured(["inspect", folder])
        #expect(inspected.stdout.contains("dangling symbolic link (its target gone.json does not exist)"))
        let batch = try M.measured(["batch", folder, "-o", dir.path("out")])
        #expect(batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        let errors = try E2E.jsonLines(dir.path("out/errors.jsonl"))
        #expect(errors.contains { ($0["reason"] as? String)?.contains("dangling symbolic link") == true })
    }

    @Test func aGzipBombStopsAtTheParseLimitInLittleMemory() throws {
        let dir = TemporaryDirectory()
        let folder = try M.corpus(in: dir)
        let r = try M.measured(["analyze", folder + "/bomb.json.gz"])
        #expect(r.status == ExpectedExit.dataError)
        #expect(
            r.stderr.contains("out of range (max 25165824 bytes = 24 MiB; --max-input-bytes raises it)"), "\(r.stderr)")
        #expect(r.peakKB < 120_000, "peak RSS \(r.peakKB) kB (it was 554 MB)")
    }

    @Test func aMotionLogOfMoreThanAMillionSamplesIsRefusedNamingTheField() throws {
        let dir = TemporaryDirectory()
        let folder = try M.corpus(in: dir)
        // 1 258 287 rows (hostile_corpus.py): under the 24 MiB parse limit, over the sample limit.
        let r = try M.measured(["analyze", folder + "/dense_accel.csv.gz"])
        #expect(r.status == ExpectedExit.dataError, "\(r.stderr)")
        #expect(
            r.stderr.contains("dense_accel.csv.gz: samples: 1258287 out of range (max 1000000"), "\(r.stderr)")
    }

    /// The two in-memory limits are defaults for long recordings to raise (or to tighten), in analyze, inspect and
    /// batch alike; batch keeps them with the run.
    @Test func theInputLimitsAreOptions() throws {
        let dir = TemporaryDirectory()
        // 19 405 rows, no header (`zcat … | wc -l`); 1 029 347 bytes decompressed (`zcat … | wc -c`).
        let walk = sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz")
        let small = try E2E.run(["analyze", walk, "--max-samples", "1000"])
        #expect(small.status == ExpectedExit.dataError)
        #expect(
            small.stderr.contains("samples: 19405 out of range (max 1000; --max-samples raises it)"), "\(small.stderr)")
        let tight = try E2E.run(["inspect", walk, "--max-input-bytes", "100000"])
        #expect(tight.status == ExpectedExit.partlyUnreadable)
        #expect(
            tight.stdout.contains("(max 100000 bytes = 0.09537 MiB; --max-input-bytes raises it)"), "\(tight.stdout)")
        #expect(try E2E.run(["inspect", walk, "--max-input-bytes", "1029347"]).status == ExpectedExit.success)
        #expect(try E2E.run(["analyze", walk, "--max-samples", "19405"]).status == ExpectedExit.success)
        #expect(try E2E.run(["analyze", walk, "--max-samples", "0"]).status == ExpectedExit.usage)
        #expect(try E2E.run(["analyze", walk, "--max-input-bytes", "-5"]).status == ExpectedExit.usage)
        let folder = dir.path("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: walk, toPath: folder + "/walk.csv.gz")
        let batch = try E2E.run(["batch", folder, "-o", dir.path("out"), "--max-samples", "1000", "--no-progress"])
        #expect(batch.status == ExpectedExit.batchFailed)
        let errors = try E2E.jsonLines(dir.path("out/errors.jsonl"))
        #expect(errors.count == 1 && errors.contains { ($0["reason"] as? String)?.contains("max 1000;") == true })
        #expect(try E2E.run(["batch", "--resume", "-o", dir.path("out")]).status == ExpectedExit.batchFailed)
    }

    /// NaN, ±inf and ±1e308 never fail a record wholesale: counted, excluded, named in the result.
    @Test func nonFiniteAndExtremeValuesAreExcludedWithAWarning() throws {
        let dir = TemporaryDirectory()
        let folder = try M.corpus(in: dir)
        let wav = try M.measured(["analyze", folder + "/nan-inf.wav"])
        #expect(wav.status == ExpectedExit.success, "\(wav.stderr)")
        let channels = try #require(try E2E.object(wav.stdout)["channels"] as? [[String: Any]])
        #expect(channels.first?["excludedSamples"] as? Int == 2)
        #expect(wav.stdout.contains("channel 0: 2 sample(s) not finite"))
        for (name, phrase) in [
            ("spl-extreme.json", "2 sample(s) not finite or outside -200…300 dB"),
            ("tapping_left.json.TappingSamples", "2 tap(s) excluded"),
            ("dbhl-extreme.json", "calculatedThreshold 1e+300 dB HL is outside -200…300 dB"),
        ] {
            let r = try M.measured(["analyze", folder + "/" + name])
            #expect(r.status == ExpectedExit.success, "\(name): \(r.stderr)")
            #expect(r.stdout.contains(phrase), "\(name): \(r.stdout.prefix(2000))")
            #expect(!r.stderr.contains("EncodingError"))
        }
    }

    /// The CI check fails on `Int(` of a Double that is not allow-listed, and passes on Sources.
    @Test func theIntOfDoubleCheckCatchesTheTrapPattern() throws {
        let dir = TemporaryDirectory()
        try E2E.write(
            "func f(_ seconds: Double) -> Int {\n    Int(seconds * 48_000)\n}\n", to: dir.path("Bad/Bad.swift"))
        let bad = try runPythonScript(".ci/int-of-double.py", [dir.path("Bad")])
        #expect(bad.status == 1, "\(bad.output)")
        #expect(bad.output.contains("Int(seconds * 48_000)"))
        let sources = try runPythonScript(".ci/int-of-double.py", [repositoryPath("Sources")])
        #expect(sources.status == 0, "\(sources.output)")
    }

    /// Issue 51: `try!` and FileHandle's legacy calls trap (SIGILL) on a full disk; the check finds them.
    @Test func theTrappingIOCheckFindsTryBangAndFileHandlesLegacyCalls() throws {
        let dir = TemporaryDirectory()
        try E2E.write(
            "func f(_ handle: FileHandle, _ d: Data) {\n    handle.write(d)\n    let x = try! g()\n"
                + "    _ = handle.readDataToEndOfFile()  // a comment: try!\n}\n",
            to: dir.path("Bad/Bad.swift"))
        let bad = try runPythonScript(".ci/trapping-io.py", [dir.path("Bad")])
        #expect(bad.status == 1, "\(bad.output)")
        #expect(bad.output.contains("FileHandle.write(_:)") && bad.output.contains("try!"))
        #expect(bad.output.contains("readDataToEndOfFile()"))
        let sources = try runPythonScript(".ci/trapping-io.py", [repositoryPath("Sources")])
        #expect(sources.status == 0, "\(sources.output)")
    }
}
