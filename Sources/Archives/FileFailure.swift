import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An operating-system failure on one path, in words a user can act on: what was being done, to which path, and
/// the system's reason (`OUT/results.jsonl: cannot write: No space left on device`).
///
/// Every file taskproc writes goes through calls that return one of these (``OutputFile``, ``BufferedOutput``,
/// ``FileSystem``) instead of a Foundation call that traps or an `NSError` dump.
public struct FileFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done.
    public enum Operation: String, Sendable, Hashable {
        /// Creating or opening a file for writing.
        case create
        /// Creating a folder.
        case makeFolder = "create the folder"
        /// Writing (or flushing) bytes.
        case write
        /// Reading bytes.
        case read
        /// Moving a finished file into place.
        case rename = "move into place"
        /// Removing a file or folder.
        case remove
        /// Flushing to stable storage (`fsync`).
        case synchronize = "flush to disk"
        /// Taking the output lock.
        case lock
    }

    /// Which exit status the failure deserves.
    public enum Category: String, Sendable, Hashable {
        /// The output cannot be created at all: permission denied, a read-only filesystem, a missing parent or a
        /// file in the way (exit 73).
        case cannotCreate
        /// An input/output error while reading or writing: a full disk, a quota, a device error (exit 74).
        case io
    }

    /// The path concerned.
    public var path: String
    /// What was being done.
    public var operation: Operation
    /// The errno value (0 when the system gave none).
    public var code: Int32
    /// The system's text for it (`No space left on device`).
    public var reason: String

    /// Creates a failure from an errno value.
    public init(path: String, operation: Operation, errno code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
        reason = String(cString: strerror(code))
    }

    /// Creates a failure with a reason in words (no errno).
    public init(path: String, operation: Operation, reason: String) {
        self.path = path
        self.operation = operation
        code = 0
        self.reason = reason
    }

    /// The failure a Foundation file call threw, with the operating system's reason recovered from its wrapping
    /// (`NSCocoaErrorDomain Code=640` is ENOSPC, `Code=513` EACCES, and so on).
    public init(path: String, operation: Operation, error: any Error) {
        if let failure = error as? FileFailure {
            self = failure
            self.path = path
            return
        }
        if let code = Self.errno(of: error) {
            self.init(path: path, operation: operation, errno: code)
        } else {
            self.init(path: path, operation: operation, reason: (error as NSError).localizedDescription)
        }
    }

    /// The errno a Foundation error stands for, if it stands for one.
    public static func errno(of error: any Error) -> Int32? {
        let ns = error as NSError
        // swift-corelibs-foundation stores the underlying error as a Swift `Error`: bridge it, do not cast.
        if let any = ns.userInfo[NSUnderlyingErrorKey] as? any Error, case let underlying = any as NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return Int32(truncatingIfNeeded: underlying.code)
        }
        if ns.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: ns.code) }
        if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
            case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
            case .fileWriteOutOfSpace: return ENOSPC
            case .fileWriteFileExists: return EEXIST
            case .fileWriteVolumeReadOnly: return EROFS
            case .fileWriteUnknown, .fileReadUnknown: return EIO
            default: return nil
            }
        }
        return nil
    }

    /// The exit status class: permissions, read-only filesystems and paths in the way cannot be created (73);
    /// everything else, a full disk first, is an I/O error (74).
    public var category: Category {
        switch code {
        case EACCES, EPERM, EROFS, EEXIST, ENOTDIR, EISDIR, ENOENT, ELOOP, ENAMETOOLONG:
            operation == .read ? .io : .cannotCreate
        default: .io
        }
    }

    /// `path: cannot OPERATION: reason`.
    public var description: String { "\(path): cannot \(operation.rawValue): \(reason)" }
}

private func posixMkdir(_ path: String) -> Int32 { mkdir(path, 0o755) }
private func posixRename(_ a: String, _ b: String) -> Int32 { rename(a, b) }
private func currentErrno() -> Int32 { errno }

/// File-system calls that report failures as ``FileFailure`` values: POSIX underneath, no Foundation call that
/// traps on an I/O error.
public enum FileSystem {
    /// Creates `path` and any missing parents (like `mkdir -p`); an existing folder is fine.
    public static func makeFolder(_ path: String) throws(FileFailure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw FileFailure(path: path, operation: .makeFolder, errno: EEXIST) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path && parent != "/" { try makeFolder(parent) }
        if posixMkdir(path) != 0 {
            let code = currentErrno()
            if code != EEXIST { throw FileFailure(path: path, operation: .makeFolder, errno: code) }
        }
    }

    /// Writes `data` to `path` atomically: to a sibling first, flushed to disk, then renamed over `path`, so a
    /// reader or a crash sees the old file or the new one, never half of one.
    public static func writeAtomically(_ data: Data, to path: String) throws(FileFailure) {
        let temporary = path + ".partial"
        unlink(temporary)
        let file = try OutputFile.open(temporary, .createNew)
        do throws(FileFailure) {
            try file.writeAll(data)
            try file.synchronize()
            try file.closeChecked()
            try rename(temporary, to: path)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Appends `data` to `path` (created if missing) in one `write` call, flushed to disk.
    public static func append(_ data: Data, to path: String) throws(FileFailure) {
        let file = try OutputFile.open(path, .append)
        try file.writeAll(data)
        try file.synchronize()
        try file.closeChecked()
    }

    /// Renames `source` to `target` (replacing it).
    public static func rename(_ source: String, to target: String) throws(FileFailure) {
        if posixRename(source, target) != 0 {
            throw FileFailure(path: target, operation: .rename, errno: currentErrno())
        }
    }

    /// Removes `path` and everything under it; a missing path is fine.
    public static func removeTree(_ path: String) throws(FileFailure) {
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                try FileManager.default.removeItem(atPath: path)
                return
            } catch {
                lastError = error
                var st = stat()
                if lstat(path, &st) != 0 { return }  // gone after all
            }
        }
        if let lastError { throw FileFailure(path: path, operation: .remove, error: lastError) }
    }
}
