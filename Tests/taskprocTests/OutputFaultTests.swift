import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A small filesystem of our own (tmpfs), where a disk can fill up or be read-only: needs root (CI runs as root)
/// or an unprivileged mount namespace; tests needing it are skipped otherwise.
struct ScratchFilesystem {
    let mountPoint: String

    /// True when this process can mount a tmpfs (tried once).
    static let available: Bool = {
        guard geteuid() == 0 else { return false }
        let probe = NSTemporaryDirectory() + "taskproc-mount-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { rmdir(probe) }
        guard mountTmpfs(probe, flags: 0, options: "size=64k") == 0 else { return false }
        umount(probe)
        return true
    }()

    /// Mounts a tmpfs of `bytes` at `path` (created), read-only when `readOnly`.
    init(at path: String, bytes: Int, readOnly: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.mountTmpfs(path, flags: readOnly ? UInt(MS_RDONLY) : 0, options: "size=\(bytes)") == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        mountPoint = path
    }

    /// Gives the filesystem `bytes` of room (the data stays).
    func resize(bytes: Int) throws {
        guard Self.mountTmpfs(mountPoint, flags: UInt(MS_REMOUNT), options: "size=\(bytes)") == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    func unmount() { umount2(mountPoint, Int32(MNT_DETACH)) }

    static func mountTmpfs(_ path: String, flags: UInt, options: String) -> Int32 {
        options.withCString { mount("tmpfs", path, "tmpfs", flags, $0) }
    }
}

/// Faults a cluster or a laptop produces: a second writer on one output, a full disk, a read-only output.
extension BatchCommandEndToEndTests {
    /// Bytes of the files under `folder`.
    func bytesUnder(_ folder: String) -> Int {
        let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return files.reduce(0) { sum, name in
            var st = stat()
            return sum
                + (lstat(folder + "/" + name, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0)
        }
    }

    @Test func twoWritersOnOneOutputFolderLeaveOneCompleteRunAndOneRefusal() throws {
        let folder = try temporaryFolder("two-writers")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 200, seed: 31)
        let reference = folder + "/reference"
        #expect(try run(["batch", export, "--out", reference, "--no-progress"]).status == 2)
        for k in 1...2 {
            #expect(
                try run(["batch", export, "--out", folder + "/s\(k)", "--shard", "\(k)/2", "--no-progress"]).status == 2
            )
        }

        let shared = folder + "/shared"
        let (first, firstErr) = try start(["batch", export, "--out", shared, "--no-progress", "--jobs", "1"])
        let deadline = Date().addingTimeInterval(60)
        while first.isRunning && journalLines(shared) < 1 && Date() < deadline { usleep(1000) }
        try #require(first.isRunning, "the first run finished before the second could start")
        // Every mode of a second writer, and a merge or report into the same place, is refused at once.
        for arguments in [
            ["batch", export, "--out", shared, "--no-progress", "--force"],
            ["batch", "--resume", "--out", shared, "--no-progress"],
        ] {
            let second = try run(arguments)
            #expect(second.status == 73, "\(arguments): \(second.stderr)")
            #expect(second.stderr.contains("another taskproc is writing here"), "\(second.stderr)")
            #expect(second.stderr.contains("held by taskproc batch (pid \(first.processIdentifier) on host"))
        }
        // A merge of valid shards into the folder being written: only the lock stops it.
        let merged = try run(["merge", folder + "/s1", folder + "/s2", "--output", shared, "--force"])
        #expect(merged.status == 73, "\(merged.stderr)")
        #expect(merged.stderr.contains("held by taskproc batch (pid \(first.processIdentifier) on host"))
        _ = firstErr.fileHandleForReading.readDataToEndOfFile()
        first.waitUntilExit()
        #expect(first.terminationStatus == 2)
        #expect(try outputs(shared) == outputs(reference))
        #expect(try tables(shared) == tables(reference))
        #expect(!FileManager.default.fileExists(atPath: shared + "/.taskproc.lock"))  // released at the end
    }

    @Test func aKilledRunsLockIsTakenOverByTheResumeWithAWarning() throws {
        let folder = try temporaryFolder("stale-lock")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 120, seed: 32)
        let out = folder + "/out"
        #expect(try killMidway(["batch", export, "--out", out, "--no-progress", "--jobs", "1"], out: out, after: 5))
        #expect(FileManager.default.fileExists(atPath: out + "/.taskproc.lock"))  // kill -9 leaves the file, not the lock
        let resumed = try run(["batch", "--resume", "--out", out, "--no-progress"])
        #expect(resumed.status == 2, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("warning: took over \(out)/.taskproc.lock, left by taskproc batch (pid "))
    }

    @Test(.enabled(if: ScratchFilesystem.available, "mounting a tmpfs needs root"))
    func aFullDiskAtAnyPointIsAnIOErrorAndTheResumeGivesTheUninterruptedOutputs() throws {
        let folder = try temporaryFolder("full-disk")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 200, seed: 33)
        let reference = folder + "/reference"
        #expect(try run(["batch", export, "--out", reference, "--no-progress"]).status == 2)
        let needed = bytesUnder(reference)
        // The disk fills while archives are extracted and the journal written, and while the outputs are written.
        var failedIn: Set<String> = []
        for fraction in [0.05, 0.3, 0.6, 0.9] {
            let disk = try ScratchFilesystem(
                at: folder + "/disk-\(fraction)", bytes: max(16 << 10, Int(Double(needed) * fraction)))
            defer { disk.unmount() }
            let out = disk.mountPoint + "/out"
            let full = try run(["batch", export, "--out", out, "--no-progress"])
            #expect(full.status == 74, "at \(fraction): \(full.stderr)")
            #expect(
                full.stderr.contains("No space left on device") || full.stderr.contains("database or disk is full"),
                "\(full.stderr)")
            #expect(full.stderr.contains(out + "/"), "the error names the file: \(full.stderr)")
            #expect(!full.stderr.contains("NSCocoaErrorDomain") && !full.stderr.contains("Fatal error"))
            if let file = full.stderr.split(separator: "/").last?.split(separator: ":").first {
                failedIn.insert(String(file))
            }
            try disk.resize(bytes: needed * 3)
            let resumed = try run(["batch", "--resume", "--out", out, "--no-progress"])
            #expect(resumed.status == 2, "at \(fraction): \(resumed.stderr)")
            #expect(try outputs(out) == outputs(reference), "at \(fraction)")
            #expect(try tables(out) == tables(reference), "at \(fraction)")
        }
        // Both phases were hit: the journal (or an extraction) and an output file.
        #expect(failedIn.count >= 2, "\(failedIn)")
    }

    @Test(.enabled(if: ScratchFilesystem.available, "mounting a tmpfs needs root"))
    func aFullDiskDuringAMergeIsAnIOErrorAndTheMergeCanBeRepeated() throws {
        let folder = try temporaryFolder("full-merge")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 120, seed: 34)
        let reference = folder + "/reference"
        #expect(try run(["batch", export, "--out", reference, "--no-progress"]).status == 2)
        for k in 1...2 {
            #expect(
                try run(["batch", export, "--out", folder + "/s\(k)", "--shard", "\(k)/2", "--no-progress"]).status == 2
            )
        }
        let needed = bytesUnder(reference)
        for fraction in [0.1, 0.7] {
            let disk = try ScratchFilesystem(at: folder + "/disk-\(fraction)", bytes: Int(Double(needed) * fraction))
            defer { disk.unmount() }
            let out = disk.mountPoint + "/merged"
            let full = try run(["merge", folder + "/s1", folder + "/s2", "--output", out])
            #expect(full.status == 74, "\(full.stderr)")
            #expect(!full.stderr.contains("NSCocoaErrorDomain") && !full.stderr.contains("Fatal error"))
            try disk.resize(bytes: needed * 3)
            let again = try run(["merge", folder + "/s1", folder + "/s2", "--output", out, "--force"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try outputs(out) == outputs(reference))
        }
    }

    @Test(.enabled(if: ScratchFilesystem.available, "mounting a tmpfs needs root"))
    func aReadOnlyOutputCannotBeCreated() throws {
        let folder = try temporaryFolder("read-only")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 10, seed: 35)
        #expect([0, 2].contains(try run(["batch", export, "--out", folder + "/results", "--no-progress"]).status))
        let disk = try ScratchFilesystem(at: folder + "/ro", bytes: 1 << 20, readOnly: true)
        defer { disk.unmount() }
        let batch = try run(["batch", export, "--out", disk.mountPoint + "/out", "--no-progress"])
        #expect(batch.status == 73, "\(batch.stderr)")
        #expect(batch.stderr.contains(disk.mountPoint + "/out: cannot create the folder: Read-only file system"))
        let report = try run(["report", folder + "/results", "--output", disk.mountPoint + "/r.html"])
        #expect(report.status == 73, "\(report.stderr)")
        #expect(report.stderr.contains("Read-only file system"), "\(report.stderr)")
    }
}

/// Runs the binary as `nobody` (root in CI reads every folder, so a permission test needs another user).
enum Unprivileged {
    /// True when this process is root, `setpriv` exists and `nobody` can run the built binary.
    static let available: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
        let probe = try? runProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"), arguments(["--version"]))
        return probe?.status == 0
    }()

    static func arguments(_ taskproc: [String]) -> [String] {
        ["--reuid=65534", "--regid=65534", "--clear-groups", CommandLineEndToEndTests.binary.path] + taskproc
    }

    static func run(_ taskproc: [String]) throws -> ProcessOutput {
        try runProcess(URL(fileURLWithPath: "/usr/bin/setpriv"), arguments(taskproc))
    }
}

extension BatchCommandEndToEndTests {
    @Test(.enabled(if: Unprivileged.available, "needs root, setpriv and a binary nobody can run"))
    func anUnreadableFolderIsAFailedRecordAndAReadOnlyOutputIs73() throws {
        let folder = try temporaryFolder("unreadable")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        chmod(folder, 0o777)
        let export = folder + "/export"
        try generate(export, records: 12, seed: 36)
        let locked = export + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: export + "/README.md", toPath: locked + "/README.md")
        chmod(locked, 0o700)  // root's: nobody cannot list it
        let out = folder + "/out"
        let r = try Unprivileged.run(["batch", export, "--out", out, "--no-progress"])
        #expect(r.status == 2, "\(r.stderr)")
        let errors = try String(contentsOfFile: out + "/errors.jsonl", encoding: .utf8)
        #expect(errors.contains("\"reason\":\"cannot list the folder: Permission denied\""), "\(errors)")
        #expect(errors.contains("\"source\":\"\(locked)\""), "\(errors)")
        // A folder nobody may write: cannot create, 73, in words.
        let readOnly = folder + "/ro"
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
        let denied = try Unprivileged.run(["batch", export, "--out", readOnly + "/out", "--no-progress"])
        #expect(denied.status == 73, "\(denied.stderr)")
        #expect(
            denied.stderr.contains(readOnly + "/out: cannot create the folder: Permission denied"), "\(denied.stderr)")
    }
}

extension BatchCommandEndToEndTests {
    @Test func aRecordOverTheTimeLimitFailsWithTheReasonAndTheRunGoesOn() throws {
        let folder = try temporaryFolder("timeout")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        // Two minutes of audio: 88 blocks, checked against the limit between blocks.
        #expect(try run(["synth", export + "/long.wav", "--duration", "120", "--sample-rate", "48000"]).status == 0)
        try Data(E2E.mPowerWalk(frequency: 1.8, seconds: 20).utf8).write(
            to: URL(fileURLWithPath: export + "/accel_walking_outbound.json.items-1.tmp"))
        let out = folder + "/out"
        let r = try run(["batch", export, "--out", out, "--no-progress", "--record-timeout", "0.001"])
        #expect(r.status == 2, "\(r.stderr)")
        let errors = try String(contentsOfFile: out + "/errors.jsonl", encoding: .utf8)
        #expect(errors.contains("analysis stopped after 0.001 s: over the time limit of one record (--record-timeout)"))
        #expect(errors.contains("long.wav") && !errors.contains("accel_walking"))
        // Stored with the run: a resume may not change it.
        #expect(try run(["batch", "--resume", "--out", out, "--record-timeout", "5"]).status == 64)
        #expect(try run(["batch", export, "--out", out, "--record-timeout", "-1"]).status == 64)
    }
}

extension BatchCommandEndToEndTests {
    @Test func aRunKilledWhileWritingItsOutputsResumesWithoutAnalysingAgain() throws {
        let folder = try temporaryFolder("kill-outputs")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 400, seed: 37)
        let reference = folder + "/reference"
        #expect(try run(["batch", export, "--out", reference, "--no-progress"]).status == 2)
        var killedInOutputs = 0
        for attempt in 0..<6 where killedInOutputs == 0 {
            let out = folder + "/out\(attempt)"
            let (process, err) = try start(["batch", export, "--out", out, "--no-progress"])
            let runFile = out + "/.taskproc-batch/run.json"
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning && Date() < deadline {
                if let text = try? String(contentsOfFile: runFile, encoding: .utf8),
                    text.contains("\"analysed\" : true")
                {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
                usleep(200)
            }
            process.waitUntilExit()
            _ = err.fileHandleForReading.readDataToEndOfFile()
            guard process.terminationReason == .uncaughtSignal else { continue }
            killedInOutputs += 1
            let resumed = try run(["batch", "--resume", "--out", out, "--no-progress"])
            #expect(resumed.status == 2, "\(resumed.stderr)")
            #expect(resumed.stderr.contains(" 0 processed in "), "no record is analysed again: \(resumed.stderr)")
            #expect(try outputs(out) == outputs(reference))
            #expect(try tables(out) == tables(reference))
            #expect(!FileManager.default.fileExists(atPath: out + "/.taskproc-batch/archives.removing"))
        }
        #expect(killedInOutputs == 1, "no run could be killed while writing its outputs")
    }
}
