import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

/// One unit of batch work: a task folder, a result file, a recorder file, an audio file, a tapping table, …,
/// or something rejected before it could be read (an unsafe archive entry, a link leaving the input).
public struct BatchRecord: Sendable, Hashable, Codable {
    /// The record's name in every output.
    ///
    /// The input path as given, then `/`-joined components; entries of an archive are named
    /// `archive.zip!/inner/path`. Outputs are ordered by this string (byte order).
    public var source: String
    /// Where it is read from on this machine.
    ///
    /// An absolute path; inside the run's extraction folder for archive entries. Empty for rejected records.
    public var location: String
    /// True when the record is a folder (a ResearchKit task folder or a MyDataHelps step folder).
    public var isFolder: Bool
    /// Why the record was refused before reading (zip slip, link escape, archive limit); nil for readable records.
    public var rejection: String?
    /// What the file system says about the record's content without reading it.
    ///
    /// Size and modification time of a file (`size:seconds.nanoseconds`), a digest of every file's path, size and time for a folder, and for an
    /// archive member the archive's own stamp with the member's size. `--resume` re-analyses a record whose stamp
    /// changed since the journal entry was written. Nil for rejected records.
    public var stamp: String?

    /// Creates a record.
    public init(source: String, location: String, isFolder: Bool = false, rejection: String? = nil) {
        self.source = source
        self.location = location
        self.isFolder = isFolder
        self.rejection = rejection
    }

    /// The stamp of a file from its `stat`: `size:seconds.nanoseconds` of its modification time.
    public static func stamp(of st: stat) -> String { "\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)" }

    /// The stamp of a record folder: a digest of every file's relative path and stamp (or, inside an archive,
    /// `archive` followed by a digest of paths and sizes: extraction sets the times).
    public static func folderStamp(_ path: String, archive: String?) -> String {
        var digest = SHA256()
        for relative in RecordDiscovery.filesUnder(path) {
            var st = stat()
            _ = stat(path + "/" + relative, &st)
            let stamp = archive == nil ? Self.stamp(of: st) : "\(st.st_size)"
            digest.update(Data((relative + "\0" + stamp + "\n").utf8))
        }
        let value = String(digest.finalize().prefix(16))
        return archive.map { $0 + "!" + value } ?? "folder:" + value
    }

    /// The record's content hash: SHA-256 of a file's bytes; for a folder, of every file's relative path and
    /// SHA-256 in path order (`path NUL hash LF` lines); for a rejected record, of its source string.
    /// - Throws: An error naming the file when a file cannot be read.
    public func contentHash() throws -> String {
        if rejection != nil { return SHA256.hex(Data(source.utf8)) }
        if !isFolder { return try Self.hashFile(location) }
        var manifest = SHA256()
        for relative in RecordDiscovery.filesUnder(location) {
            let line = relative + "\0" + (try Self.hashFile(location + "/" + relative)) + "\n"
            manifest.update(Data(line.utf8))
        }
        return manifest.finalize()
    }

    /// SHA-256 of a file read in 1 MiB pieces; only a regular file is read (opening never blocks on a FIFO put
    /// in a file's place).
    static func hashFile(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw BatchError("\(path): cannot be read: \(String(cString: strerror(errno)))", kind: .io)
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG {
            let type = FileBytes.fileType(mode: st.st_mode) ?? "not a regular file"
            throw BatchError("\(path): " + InputFiles.notRegularMessage(type))
        }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: Int(min(max(Int64(st.st_size), 4096), 1 << 20)))
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw BatchError("\(path): cannot be read: \(String(cString: strerror(errno)))", kind: .io)
            }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bytes: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        return hasher.finalize()
    }
}

/// A batch-level failure (bad output folder, unusable journal, mismatched shards) with a one-line message.
public struct BatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is (the command line maps it to an exit status).
    public enum Kind: String, Sendable, Hashable {
        /// An input or stored run is missing.
        case noInput
        /// Inputs, shards or a stored run are invalid or do not fit together.
        case invalid
        /// An output cannot be created (it exists, or is in the way).
        case cannotCreate
        /// Reading or writing failed.
        case io
    }

    /// What went wrong, naming the path concerned.
    public var message: String
    /// What kind of failure it is.
    public var kind: Kind
    /// Creates an error.
    public init(_ message: String, kind: Kind = .invalid) {
        self.message = message
        self.kind = kind
    }
    /// The message.
    public var description: String { message }

    /// A file-system failure: 73 when the output cannot be created (permissions, a read-only filesystem), 74 for
    /// an I/O error (a full disk).
    public init(_ failure: FileFailure) {
        self.init(failure.description, kind: failure.category == .cannotCreate ? .cannotCreate : .io)
    }

    /// A refused output lock: another writer holds the output (73).
    public init(_ refusal: OutputLock.Refusal) {
        switch refusal {
        case .held: self.init(refusal.description, kind: .cannotCreate)
        case .failed(let failure): self.init(failure)
        }
    }

    /// `error` as a batch error: itself, a file failure's words, or a Foundation file error on `path` with the
    /// operating system's reason (never an `NSError` dump).
    static func wrapping(_ error: any Error, path: String, operation: FileFailure.Operation) -> BatchError {
        if let error = error as? BatchError { return error }
        if let failure = error as? FileFailure { return BatchError(failure) }
        return BatchError(FileFailure(path: path, operation: operation, error: error))
    }
}
