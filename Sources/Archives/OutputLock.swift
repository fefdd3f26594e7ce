import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func posixOpenLock(_ path: String) -> Int32 { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644) }
private func posixCloseLock(_ fd: Int32) -> Int32 { close(fd) }
private func lockErrno() -> Int32 { errno }

/// One writer per output: an exclusive lock on a lock file, held while a command writes its outputs.
///
/// `batch`, `merge` and `report` take it before they touch their output; a second writer is refused at once with
/// who holds it. The lock is `flock(2)` on the lock file, which the kernel releases when the holder exits in any
/// way (even `kill -9`), so a lock left by a dead process on the same host is simply taken over, with a note. The
/// file also records the holder (pid, host, command, start time) and the holder refreshes its modification time
/// every ``heartbeatSeconds``: on a shared filesystem whose locks do not reach other nodes (NFS mounted `nolock`
/// or `local_lock=all`), a lock file of another host refreshed within ``staleSeconds`` still refuses the second
/// writer. On NFS with working locks (NFSv4, or NFSv3 with `lockd`), `flock` is a lock on the server and holds
/// across nodes.
public final class OutputLock: @unchecked Sendable {
    /// The lock file's name inside an output folder.
    public static let fileName = ".taskproc.lock"
    /// Seconds between refreshes of the lock file's modification time.
    public static let heartbeatSeconds = 10
    /// A lock file of another host not refreshed for this many seconds is stale.
    public static let staleSeconds: Double = 60

    /// Who holds (or held) a lock, as its lock file records it.
    public struct Holder: Sendable, Hashable, CustomStringConvertible {
        /// The process id.
        public var pid: Int32
        /// The host name.
        public var host: String
        /// The command (`taskproc batch`).
        public var command: String
        /// When it took the lock (ISO 8601).
        public var since: String

        /// `taskproc batch (pid 123 on host h, since 2026-12-02T04:00:00Z)`.
        public var description: String { "\(command) (pid \(pid) on host \(host), since \(since))" }

        var fileText: String { "pid \(pid)\nhost \(host)\ncommand \(command)\nsince \(since)\n" }

        init(pid: Int32, host: String, command: String, since: String) {
            self.pid = pid
            self.host = host
            self.command = command
            self.since = since
        }

        init?(fileText: String) {
            var fields: [String: String] = [:]
            for line in fileText.split(separator: "\n") {
                guard let space = line.firstIndex(of: " ") else { continue }
                fields[String(line[..<space])] = String(line[line.index(after: space)...])
            }
            guard let text = fields["pid"], let pid = Int32(text), let host = fields["host"] else { return nil }
            self.init(pid: pid, host: host, command: fields["command"] ?? "taskproc", since: fields["since"] ?? "?")
        }
    }

    /// Why a lock was not taken.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// Another writer holds it (its holder, when the lock file says).
        case held(path: String, holder: Holder?)
        /// The lock file could not be created or locked.
        case failed(FileFailure)

        /// Names the output, the holder and what to do.
        public var description: String {
            switch self {
            case .held(let path, let holder):
                let folder = (path as NSString).deletingLastPathComponent
                let who = holder.map { "by \($0)" } ?? "by another process"
                return
                    "\(folder.isEmpty ? "." : folder): another taskproc is writing here (\(path) is held \(who)); "
                    + "wait for it to finish or stop it; two writers on one output would corrupt it"
            case .failed(let failure): return failure.description
            }
        }
    }

    /// The lock file.
    public let path: String
    /// What the lock took over: a lock file left by a process that no longer runs (nil when there was none).
    public let tookOver: Holder?
    private var descriptor: Int32
    private let heartbeat: any DispatchSourceTimer

    private init(path: String, descriptor: Int32, tookOver: Holder?) {
        self.path = path
        self.descriptor = descriptor
        self.tookOver = tookOver
        heartbeat = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        heartbeat.schedule(
            deadline: .now() + .seconds(Self.heartbeatSeconds), repeating: .seconds(Self.heartbeatSeconds))
        heartbeat.setEventHandler { _ = futimens(descriptor, nil) }
        // Closed when the timer is cancelled, after its last refresh has run: never a refresh of a reused fd.
        heartbeat.setCancelHandler { _ = posixCloseLock(descriptor) }
        heartbeat.resume()
    }

    /// This host's name.
    static var hostName: String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let ok = buffer.withUnsafeMutableBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { gethostname($0, 255) == 0 } ?? false }
        }
        guard ok else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Takes the lock of the output folder `folder` (its ``fileName``); the folder must exist.
    /// - Parameter command: Who takes it, as the refusal of a second writer names it (`taskproc batch`).
    /// - Throws: ``Refusal``.
    public static func acquire(folder: String, command: String) throws(Refusal) -> OutputLock {
        try acquire(lockFile: folder + "/" + fileName, command: command)
    }

    /// Takes the lock of the single output file `path`: the lock file `.NAME.taskproc.lock` beside it.
    /// - Throws: ``Refusal``.
    public static func acquire(forFile path: String, command: String) throws(Refusal) -> OutputLock {
        let url = URL(fileURLWithPath: path)
        let lockFile = url.deletingLastPathComponent().appendingPathComponent(
            "." + url.lastPathComponent + ".taskproc.lock")
        return try acquire(lockFile: lockFile.path, command: command)
    }

    /// Takes the lock `lockFile` (created if missing).
    /// - Throws: ``Refusal``.
    public static func acquire(
        lockFile path: String, command: String, now: Date = Date(), staleAfter: Double = staleSeconds
    ) throws(Refusal) -> OutputLock {
        let host = hostName
        for _ in 0..<20 {
            let fd = posixOpenLock(path)
            guard fd >= 0 else { throw .failed(FileFailure(path: path, operation: .lock, errno: lockErrno())) }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = lockErrno()
                let holder = Holder(fileText: contents(fd))
                _ = posixCloseLock(fd)
                if code == EWOULDBLOCK || code == EAGAIN || code == EINTR { throw .held(path: path, holder: holder) }
                throw .failed(FileFailure(path: path, operation: .lock, errno: code))
            }
            // The lock file may have been removed (a holder releasing) between our open and our lock: then we
            // hold a lock on a file nobody else will see. Try again on the file now at the path.
            var opened = stat()
            var named = stat()
            guard fstat(fd, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino,
                opened.st_dev == named.st_dev
            else {
                _ = posixCloseLock(fd)
                continue
            }
            let previous = Holder(fileText: contents(fd))
            if let previous, previous.host != host {
                // Another host's lock file: flock may not reach across nodes; a refreshed file means it is alive.
                let age = now.timeIntervalSince1970 - Double(opened.st_mtim.tv_sec)
                if age < staleAfter {
                    _ = posixCloseLock(fd)
                    throw .held(path: path, holder: previous)
                }
            }
            let formatter = ISO8601DateFormatter()
            let me = Holder(pid: getpid(), host: host, command: command, since: formatter.string(from: now))
            let text = Array(me.fileText.utf8)
            let written = text.withUnsafeBytes { ftruncate(fd, 0) == 0 ? pwrite(fd, $0.baseAddress, $0.count, 0) : -1 }
            if written != text.count {
                let code = lockErrno()
                _ = posixCloseLock(fd)
                throw .failed(FileFailure(path: path, operation: .lock, errno: code == 0 ? EIO : code))
            }
            let tookOver = previous.flatMap { $0.pid == me.pid && $0.host == me.host ? nil : $0 }
            return OutputLock(path: path, descriptor: fd, tookOver: tookOver)
        }
        throw .failed(FileFailure(path: path, operation: .lock, reason: "the lock file keeps being replaced"))
    }

    /// The lock file's text (at most 4 KiB).
    private static func contents(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
    }

    /// A note for a lock taken over from a process that no longer runs; nil when there was none.
    public var takeoverNote: String? {
        tookOver.map { "took over \(path), left by \($0), which no longer holds it" }
    }

    /// Releases the lock and removes the lock file (idempotent; also done when the lock is freed).
    public func release() {
        guard descriptor >= 0 else { return }
        // Removed while still locked: a waiting process that opened this file sees it gone and tries again. The
        // descriptor (and with it the lock) is closed by the timer's cancel handler.
        unlink(path)
        heartbeat.cancel()
        descriptor = -1
    }

    deinit { release() }
}
