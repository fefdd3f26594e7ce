import Foundation
import StudyInputs
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs are bounded before they are read: only regular files are inputs, and a file's size is checked from `stat`
/// before a byte is read (issue 51: `analyze /dev/zero` grew to 24 GB, a FIFO waited forever, a 3 GB sparse CSV
/// was read whole before the limit refused it).
extension HostileInputTests {
    @Test(arguments: ["/dev/zero", "/dev/urandom", "/dev/full"])
    func aDeviceIsRefusedFromItsTypeWithoutReading(_ device: String) throws {
        let r = try Self.measured(["analyze", device])
        #expect(r.status == 65 && r.signal == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(device): is a character device, not a regular file"), "\(r.stderr)")
        #expect(r.peakKB < 100_000)
    }

    @Test func aFifoOrALinkToOneIsRefusedAtOnceByAnalyzeInspectAndBatch() throws {
        let dir = TemporaryDirectory()
        for name in ["a.wav", "b.csv", "c.zip", "d.json.gz"] { #expect(mkfifo(dir.path(name), 0o644) == 0) }
        #expect(symlink(dir.path("a.wav"), dir.path("link.csv")) == 0)
        for name in ["a.wav", "b.csv", "c.zip", "d.json.gz", "link.csv"] {
            for command in ["analyze", "inspect"] {
                let r = try Self.measured([command, dir.path(name)])
                #expect(r.status == 65 && r.signal == 0, "\(command) \(name): \(r.stderr)")
                #expect(r.stderr.contains("is a FIFO (named pipe), not a regular file"), "\(r.stderr)")
            }
        }
        // In a batch folder, beside a real record: the FIFOs are skipped with their type, the run goes on.
        let folder = dir.path("export")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(E2E.mPowerWalk(frequency: 1.8, seconds: 20).utf8).write(
            to: URL(fileURLWithPath: folder + "/accel_walking_outbound.json.items-1.tmp"))
        #expect(mkfifo(folder + "/stuck.wav", 0o644) == 0)
        #expect(mkfifo(folder + "/stuck.csv", 0o644) == 0)
        let batch = try Self.measured(["batch", folder, "--out", dir.path("out"), "--no-progress"])
        #expect(batch.status == 0 && batch.signal == 0, "\(batch.stderr)")
        #expect(batch.stderr.contains("1 records: 1 analysed, 0 failed"), "\(batch.stderr)")
        #expect(batch.stderr.contains("2 a FIFO (named pipe)"), "\(batch.stderr)")
    }

    @Test func aSparseFileOverTheLimitIsRefusedFromItsSizeWithoutReadingIt() throws {
        let dir = TemporaryDirectory()
        for (name, bytes) in [("y.csv", Int64(3) << 30), ("x.json", Int64(1) << 30)] {
            let path = dir.path(name)
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(bytes)) == 0)
            let r = try Self.measured(["analyze", path])
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stderr.contains("\(path): size: \(bytes) bytes out of range (max 25165824 bytes"), "\(r.stderr)")
            #expect(r.peakKB < 100_000, "read before refusing: \(r.peakKB) kB")
            // --max-input-bytes bounds the read too.
            let small = try Self.measured(["analyze", path, "--max-input-bytes", "100000000"])
            #expect(small.status == 65 && small.peakKB < 100_000, "\(small.stderr)")
        }
        // In a batch, the record fails from its size without being hashed (a 3 GB read) first.
        let folder = dir.path("export")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/walk.csv", contents: nil))
        #expect(truncate(folder + "/walk.csv", off_t(Int64(3) << 30)) == 0)
        let batch = try Self.measured(["batch", folder, "--out", dir.path("out"), "--no-progress"])
        #expect(batch.status == 65 && batch.peakKB < 100_000, "\(batch.stderr)")
        let errors = try String(contentsOfFile: dir.path("out/errors.jsonl"), encoding: .utf8)
        #expect(errors.contains("walk.csv: size: 3221225472 bytes out of range"), "\(errors)")
    }
}

/// Issue 51's smaller findings on what reaches the terminal: a huge field is not quoted in full, and control
/// sequences from inputs (file names, cells) are escaped.
extension HostileInputTests {
    @Test func aHugeFieldIsQuotedShortInAnError() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("result.json")
        let huge = String(repeating: "x", count: 20_000_000)
        try Data(("{\"_class\":\"" + huge + "\"}").utf8).write(to: URL(fileURLWithPath: path))
        let r = try Self.measured(["analyze", path, "--max-input-bytes", "100000000"])
        #expect(r.status == 65, "\(r.stderr.prefix(500))")
        #expect(r.stderr.utf8.count < 2_000, "the error quotes \(r.stderr.utf8.count) bytes")
        #expect(r.stderr.contains("(20000000 bytes in all)"), "\(r.stderr.prefix(500))")
        #expect(InputError(.schema, file: "f", found: huge).description.utf8.count < 400)
    }

    @Test func terminalEscapesFromInputsNeverReachTheTerminal() throws {
        let dir = TemporaryDirectory()
        // A file name that would set the window title and clear the screen, and a cell with a colour escape.
        let name = dir.path("evil\u{1B}]0;owned\u{07}\u{1B}[2J.csv")
        try Data("t,x,y,z\n0,0,0,\u{1B}[31mred\n".utf8).write(to: URL(fileURLWithPath: name))
        let r = try Self.measured(["analyze", name])
        #expect(r.status == 65)
        #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\u{07}"), "\(r.stderr)")
        #expect(r.stderr.contains("evil\\u{1B}]0;owned\\u{7}\\u{1B}[2J.csv"), "\(r.stderr)")
        let inspect = try Self.measured(["inspect", name, "--format", "table"])
        #expect(!inspect.stdout.contains("\u{1B}") && !inspect.stderr.contains("\u{1B}"), "\(inspect.stdout)")
    }
}
