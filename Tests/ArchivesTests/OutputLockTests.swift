import Archives
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One writer per output: the lock file, its refusal of a second writer, and taking over a dead holder's lock.
@Suite struct OutputLockTests {
    @Test func aSecondWriterIsRefusedUntilTheFirstReleases() throws {
        let dir = TemporaryDirectory()
        let first = try OutputLock.acquire(folder: dir.url.path, command: "taskproc batch")
        #expect(first.tookOver == nil)
        let text = try String(contentsOfFile: dir.path(OutputLock.fileName), encoding: .utf8)
        #expect(text.contains("pid \(getpid())\n") && text.contains("command taskproc batch\n"))
        // flock locks belong to an open file description: a second acquisition is refused even in this process.
        do {
            _ = try OutputLock.acquire(folder: dir.url.path, command: "taskproc merge")
            Issue.record("the second writer was not refused")
        } catch {
            guard case .held(_, let holder) = error else {
                Issue.record("expected .held, got \(error)")
                return
            }
            #expect(holder?.pid == getpid())
            #expect(holder?.command == "taskproc batch")
            #expect(error.description.contains("another taskproc is writing here"))
            #expect(error.description.contains("taskproc batch (pid \(getpid()) on host"))
        }
        first.release()
        #expect(!FileManager.default.fileExists(atPath: dir.path(OutputLock.fileName)))
        let again = try OutputLock.acquire(folder: dir.url.path, command: "taskproc merge")
        #expect(again.tookOver == nil)
        again.release()
        again.release()  // idempotent
    }

    @Test func aLockLeftByADeadProcessIsTakenOverWithANote() throws {
        let dir = TemporaryDirectory()
        // What `kill -9` leaves: the file with its holder, and no lock (the kernel released it).
        let left = "pid 999999\nhost \(hostNameForTest())\ncommand taskproc batch\nsince 2026-01-01T00:00:00Z\n"
        try Data(left.utf8).write(to: URL(fileURLWithPath: dir.path(OutputLock.fileName)))
        let lock = try OutputLock.acquire(folder: dir.url.path, command: "taskproc batch")
        #expect(lock.tookOver?.pid == 999_999)
        #expect(lock.takeoverNote?.contains("left by taskproc batch (pid 999999 on host") == true)
        lock.release()
    }

    @Test func anotherHostsFreshLockFileRefusesEvenWithoutAKernelLock() throws {
        // NFS mounted without locks: flock succeeds on every node; the refreshed lock file still refuses.
        let dir = TemporaryDirectory()
        let path = dir.path(OutputLock.fileName)
        let other = "pid 42\nhost node-17.cluster\ncommand taskproc batch\nsince 2026-12-02T03:00:00Z\n"
        try Data(other.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try OutputLock.acquire(lockFile: path, command: "taskproc batch")
            Issue.record("a fresh lock file of another host was taken over")
        } catch {
            guard case .held(_, let holder) = error else {
                Issue.record("expected .held, got \(error)")
                return
            }
            #expect(holder?.host == "node-17.cluster" && holder?.pid == 42)
        }
        // Not refreshed for longer than the stale limit: taken over, with a note naming the other host.
        let later = Date().addingTimeInterval(OutputLock.staleSeconds + 5)
        let lock = try OutputLock.acquire(lockFile: path, command: "taskproc batch", now: later)
        #expect(lock.tookOver?.host == "node-17.cluster")
        lock.release()
    }

    @Test func aSingleOutputFileIsLockedBesideIt() throws {
        let dir = TemporaryDirectory()
        let report = dir.path("study.html")
        let lock = try OutputLock.acquire(forFile: report, command: "taskproc report")
        #expect(FileManager.default.fileExists(atPath: dir.path(".study.html.taskproc.lock")))
        #expect(throws: OutputLock.Refusal.self) { try OutputLock.acquire(forFile: report, command: "taskproc report") }
        lock.release()
    }

    @Test func aLockInAFolderThatCannotBeWrittenIsAFileFailure() throws {
        do {
            _ = try OutputLock.acquire(folder: "/proc/self", command: "taskproc batch")
            Issue.record("a lock was created in /proc/self")
        } catch {
            guard case .failed(let failure) = error else {
                Issue.record("expected .failed, got \(error)")
                return
            }
            #expect(failure.operation == .lock)
            #expect(failure.description.hasPrefix("/proc/self/.taskproc.lock: cannot lock: "))
        }
    }

    func hostNameForTest() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = gethostname(&buffer, 255)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// File failures: the operating system's reason recovered from Foundation's errors, and the exit status class.
@Suite struct FileFailureTests {
    @Test func foundationErrorsBecomeTheirErrno() {
        let full = CocoaError(.fileWriteOutOfSpace)
        #expect(FileFailure.errno(of: full) == ENOSPC)
        #expect(
            FileFailure(path: "o/r.jsonl", operation: .write, error: full).description
                == "o/r.jsonl: cannot write: No space left on device")
        #expect(FileFailure.errno(of: CocoaError(.fileWriteNoPermission)) == EACCES)
        #expect(FileFailure.errno(of: CocoaError(.fileWriteVolumeReadOnly)) == EROFS)
        #expect(FileFailure.errno(of: NSError(domain: NSPOSIXErrorDomain, code: Int(EDQUOT))) == EDQUOT)
        let wrapped = NSError(
            domain: NSCocoaErrorDomain, code: 512,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EIO))])
        #expect(FileFailure.errno(of: wrapped) == EIO)
        struct Other: Error {}
        #expect(FileFailure.errno(of: Other()) == nil)
    }

    @Test func permissionsAndReadOnlyCannotCreateEverythingElseIsIO() {
        for code in [EACCES, EPERM, EROFS, EEXIST, ENOTDIR] {
            #expect(FileFailure(path: "x", operation: .create, errno: code).category == .cannotCreate)
        }
        for code in [ENOSPC, EDQUOT, EIO, EFBIG] {
            #expect(FileFailure(path: "x", operation: .write, errno: code).category == .io)
        }
        // Reading: a permission problem is an I/O error of the read, not an output that cannot be created.
        #expect(FileFailure(path: "x", operation: .read, errno: EACCES).category == .io)
    }

    @Test func aFullDeviceIsAWriteFailureNotATrap() throws {
        // /dev/full: every write fails with ENOSPC.
        let file = try OutputFile.open("/dev/full", .existing)
        do {
            try file.writeAll(Data("x".utf8))
            Issue.record("a write to /dev/full succeeded")
        } catch {
            #expect(error.code == ENOSPC && error.path == "/dev/full" && error.operation == .write)
        }
        let dir = TemporaryDirectory()
        let buffered = try BufferedOutput(replacing: dir.path("b"))
        try buffered.append("fine")
        try buffered.close()
    }

    @Test func atomicWritesAndAppendsLeaveNoPartialFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("run.json")
        try FileSystem.writeAtomically(Data("one".utf8), to: path)
        try FileSystem.writeAtomically(Data("two".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        try FileSystem.append(Data("a\n".utf8), to: dir.path("log"))
        try FileSystem.append(Data("b\n".utf8), to: dir.path("log"))
        #expect(try String(contentsOfFile: dir.path("log"), encoding: .utf8) == "a\nb\n")
        try FileSystem.makeFolder(dir.path("x/y/z"))
        try FileSystem.makeFolder(dir.path("x/y/z"))
        #expect(throws: FileFailure.self) { try FileSystem.makeFolder(path + "/below-a-file") }
        #expect(throws: FileFailure.self) { try FileSystem.writeAtomically(Data(), to: "/proc/self/nope") }
    }
}
