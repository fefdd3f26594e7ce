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

    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Opens `path` for writing; with `createNew`, creates it and fails with EEXIST when it exists (no overwrite,
    /// no following a planted link).
    public static func create(_ path: String, createNew: Bool = true) -> Result<OutputFile, Failure> {
        let flags = createNew ? O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC : O_WRONLY | O_CLOEXEC
        let fd = posixOpen(path, flags)
        guard fd >= 0 else { return .failure(Failure(errno: errno)) }
        return .success(OutputFile(descriptor: fd))
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

    /// Writes all of `data` to `path` and closes it: a new file (`createNew`; an existing path or planted link is
    /// an error), or an existing file, device or FIFO opened in place.
    /// - Returns: The failure of the open, a write or the close; nil on success.
    public static func write(_ data: Data, to path: String, createNew: Bool) -> Failure? {
        switch create(path, createNew: createNew) {
        case .failure(let failure): return failure
        case .success(let file):
            let written = data.withUnsafeBytes { file.write($0) }
            let closed = file.close()
            if case .failure(let failure) = written { return failure }
            if case .failure(let failure) = closed { return failure }
            return nil
        }
    }
}
