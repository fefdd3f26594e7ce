import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Unqualified POSIX calls, named apart from OutputFile's own methods.
private func posixOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags, 0o644) }
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixFsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func posixTruncate(_ fd: Int32, _ size: Int64) -> Int32 { ftruncate(fd, off_t(size)) }
private func posixSeekEnd(_ fd: Int32) -> Int64 { Int64(lseek(fd, 0, SEEK_END)) }
private func lastErrno() -> Int32 { errno }

/// A file being written with POSIX calls, so that a failed write (a full disk, an I/O error) is a value the caller
/// turns into an error, never a trap (`FileHandle.write(_:)` traps on Linux).
public final class OutputFile {
    /// Why a call failed: errno and its text.
    public struct Failure: Error, Equatable {
        /// The errno value.
        public var code: Int32
        /// Its text (`No space left on device`).
        public var reason: String
        init(errno code: Int32) {
            self.code = code
            reason = String(cString: strerror(code))
        }
    }

    /// How ``open(_:_:)`` opens a file.
    public enum Mode: Sendable {
        /// Create it; an existing path (or a planted link) is an error.
        case createNew
        /// Create it or append to it; every write goes to its end.
        case append
        /// Create it or open it for writing at the start, keeping its contents (``truncate(to:)`` cuts them).
        case update
        /// Open an existing file, device or FIFO for writing in place.
        case existing
    }

    private var descriptor: Int32
    /// The path it was opened at (named in failures).
    public let path: String

    private init(descriptor: Int32, path: String = "") {
        self.descriptor = descriptor
        self.path = path
    }

    /// Opens `path` for writing.
    /// - Throws: ``FileFailure`` (`create`) with the system's reason.
    public static func open(_ path: String, _ mode: Mode) throws(FileFailure) -> OutputFile {
        let flags: Int32 =
            switch mode {
            case .createNew: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
            case .append: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC
            case .update: O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC
            case .existing: O_WRONLY | O_CLOEXEC
            }
        let fd = posixOpen(path, flags)
        guard fd >= 0 else { throw FileFailure(path: path, operation: .create, errno: lastErrno()) }
        return OutputFile(descriptor: fd, path: path)
    }

    /// Writes all of `bytes`.
    /// - Throws: ``FileFailure`` (`write`), such as ENOSPC for a full disk.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(FileFailure) {
        if case .failure(let failure) = write(bytes) {
            throw FileFailure(path: path, operation: .write, errno: failure.code)
        }
    }

    /// Writes all of `data`.
    /// - Throws: ``FileFailure`` (`write`).
    public func writeAll(_ data: Data) throws(FileFailure) {
        let result = data.withUnsafeBytes { write($0) }
        if case .failure(let failure) = result { throw FileFailure(path: path, operation: .write, errno: failure.code) }
    }

    /// Flushes the file to stable storage (`fsync`); a delayed write error (a full disk on NFS) shows here.
    /// - Throws: ``FileFailure`` (`synchronize`).
    public func synchronize() throws(FileFailure) {
        guard descriptor >= 0 else { return }
        while posixFsync(descriptor) != 0 {
            let code = lastErrno()
            // Devices, FIFOs and some filesystems cannot be synchronised: nothing is lost.
            if code == EINVAL || code == EROFS || code == ENOTSUP { return }
            if code != EINTR { throw FileFailure(path: path, operation: .synchronize, errno: code) }
        }
    }

    /// Cuts the file to `size` bytes and moves the write position to its end.
    /// - Throws: ``FileFailure`` (`write`).
    public func truncate(to size: Int64) throws(FileFailure) {
        if posixTruncate(descriptor, size) != 0 { throw FileFailure(path: path, operation: .write, errno: lastErrno()) }
        if posixSeekEnd(descriptor) < 0 { throw FileFailure(path: path, operation: .write, errno: lastErrno()) }
    }

    /// Closes the file, throwing a delayed write error.
    /// - Throws: ``FileFailure`` (`write`).
    public func closeChecked() throws(FileFailure) {
        if case .failure(let failure) = close() {
            throw FileFailure(path: path, operation: .write, errno: failure.code)
        }
    }

    /// Opens `path` for writing; with `createNew`, creates it and fails with EEXIST when it exists (no overwrite,
    /// no following a planted link).
    public static func create(_ path: String, createNew: Bool = true) -> Result<OutputFile, Failure> {
        let flags = createNew ? O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC : O_WRONLY | O_CLOEXEC
        let fd = posixOpen(path, flags)
        guard fd >= 0 else { return .failure(Failure(errno: errno)) }
        return .success(OutputFile(descriptor: fd, path: path))
    }

    /// Writes all of `bytes` (retrying short writes and interruptions).
    public func write(_ bytes: UnsafeRawBufferPointer) -> Result<Void, Failure> {
        guard let base = bytes.baseAddress else { return .success(()) }
        var offset = 0
        while offset < bytes.count {
            let n = posixWrite(descriptor, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(errno: errno))
            }
            offset += n
        }
        return .success(())
    }

    /// Closes the file; a failure here can be a delayed write error (NFS, quotas).
    @discardableResult
    public func close() -> Result<Void, Failure> {
        guard descriptor >= 0 else { return .success(()) }
        let result = posixClose(descriptor)
        descriptor = -1
        return result == 0 ? .success(()) : .failure(Failure(errno: errno))
    }

    deinit { if descriptor >= 0 { _ = posixClose(descriptor) } }
}

/// A file written through a 1 MiB buffer, every failure a ``FileFailure`` naming the file.
public final class BufferedOutput {
    /// The file's path.
    public let path: String
    private let file: OutputFile
    private var buffer: [UInt8] = []

    /// Creates `path`, replacing a leftover file there (an interrupted run's `.partial` file).
    /// - Throws: ``FileFailure`` (`create`).
    public init(replacing path: String) throws(FileFailure) {
        self.path = path
        if unlink(path) != 0 && lastErrno() != ENOENT {
            throw FileFailure(path: path, operation: .create, errno: lastErrno())
        }
        file = try OutputFile.open(path, .createNew)
        buffer.reserveCapacity(1 << 20)
    }

    /// Opens an existing file, device or FIFO for writing in place.
    /// - Throws: ``FileFailure`` (`create`).
    public init(existing path: String) throws(FileFailure) {
        self.path = path
        file = try OutputFile.open(path, .existing)
        buffer.reserveCapacity(1 << 20)
    }

    /// Appends `text`'s UTF-8 bytes.
    /// - Throws: ``FileFailure`` (`write`) when a full buffer cannot be written.
    public func append(_ text: String) throws(FileFailure) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Appends bytes.
    /// - Throws: ``FileFailure`` (`write`).
    public func append(_ bytes: Data) throws(FileFailure) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes the buffer out.
    /// - Throws: ``FileFailure`` (`write`).
    public func flush() throws(FileFailure) {
        let result = buffer.withUnsafeBytes { file.write($0) }
        buffer.removeAll(keepingCapacity: true)
        if case .failure(let failure) = result {
            throw FileFailure(path: path, operation: .write, errno: failure.code)
        }
    }

    /// Flushes, synchronises and closes the file.
    /// - Throws: ``FileFailure``.
    public func close() throws(FileFailure) {
        try flush()
        try file.synchronize()
        try file.closeChecked()
    }
}
