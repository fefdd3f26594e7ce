import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds every record under the inputs of a batch run, including inside ZIP archives.
///
/// One record is: a ResearchKit task folder (a folder directly holding one `ORKTaskResult` JSON, with its recorder
/// files anywhere below); a MyDataHelps step folder (`SurveyData/<participant>/<result>/<step>/`); otherwise one
/// file (result JSON, recorder log, mPower file, tapping or audiometry table, accelerometer CSV, audio file).
/// Hidden files, `__MACOSX/` and files that are never inputs (documentation, images, scripts) are skipped.
/// Symbolic links are followed only when they resolve inside the input they were found in; a link leaving it
/// becomes a rejected record. Archives are extracted (``ZipArchive``) into the run's work folder and searched the
/// same way; their unsafe entries become rejected records. Results are sorted by source (byte order), duplicates
/// removed.
public enum RecordDiscovery {
    /// What discovery found.
    public struct Found: Sendable {
        /// Records in source order.
        public var records: [BatchRecord] = []
        /// Sources of paths skipped (documentation, images, hidden files, FIFOs, …), in source order.
        public var skipped: [String] = []
        /// How many paths were skipped for each reason (``SkipReason``).
        public var skipReasons: [String: Int] = [:]
    }

    /// An input path: as the user gave it (used to name records) and absolute (used to read).
    public struct Input: Sendable, Hashable, Codable {
        /// The path as given on the command line (trailing `/` removed).
        public var display: String
        /// The absolute path.
        public var absolute: String

        /// Resolves `path` against `directory` (default: the current directory).
        public init(_ path: String, relativeTo directory: String = FileManager.default.currentDirectoryPath) {
            var display = path
            while display.count > 1 && display.hasSuffix("/") { display.removeLast() }
            self.display = display
            let url =
                display.hasPrefix("/")
                ? URL(fileURLWithPath: display) : URL(fileURLWithPath: directory).appendingPathComponent(display)
            absolute = url.standardizedFileURL.path
        }
    }

    /// Discovers the records under `inputs`.
    ///
    /// - Parameters:
    ///   - inputs: The paths to search, in order.
    ///   - archiveFolder: Where archives are extracted (one sub-folder per archive, reused when complete).
    ///   - limits: Archive safety limits.
    /// - Returns: Records sorted by source, and the skipped files.
    /// - Throws: ``BatchError`` when an input path does not exist.
    public static func discover(inputs: [Input], archiveFolder: String, limits: ArchiveLimits) throws -> Found {
        var found = Found()
        try walk(inputs: inputs, archiveFolder: archiveFolder, limits: limits) { event in
            switch event {
            case .record(let record): found.records.append(record)
            case .skipped(let source, let reason):
                found.skipped.append(source)
                found.skipReasons[reason, default: 0] += 1
            }
        }
        var seen: Set<SourceKey> = []
        let records = found.records.sorted(by: { precedes($0.source, $1.source) }).filter {
            seen.insert(SourceKey($0.source)).inserted
        }
        var result = Found(records: records, skipped: found.skipped.sorted(by: precedes))
        result.skipReasons = found.skipReasons
        return result
    }

    /// Something discovery found.
    public enum Event: Sendable {
        /// A record (possibly a duplicate of an earlier one when inputs overlap).
        case record(BatchRecord)
        /// A path skipped, with why (a ``SkipReason`` or, for a device, FIFO or socket, what it is).
        case skipped(String, reason: String)
    }

    /// Discovers the records under `inputs` on a thread of its own.
    ///
    /// Records are delivered as they are found (in walk order, not sorted), so analysis can start before
    /// discovery and archive extraction end. The thread starts
    /// when the stream is made, not when it is first read: nothing else may extract into `archiveFolder` from then
    /// on.
    /// - Returns: The events; the stream ends when discovery does, or throws ``BatchError`` for a missing input.
    public static func stream(
        inputs: [Input], archiveFolder: String, limits: ArchiveLimits
    ) -> AsyncThrowingStream<Event, any Error> {
        AsyncThrowingStream { continuation in
            let thread = Thread {
                do {
                    try walk(inputs: inputs, archiveFolder: archiveFolder, limits: limits) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Walks the inputs, calling `emit` for each record and skipped file.
    static func walk(inputs: [Input], archiveFolder: String, limits: ArchiveLimits, emit: @escaping (Event) -> Void)
        throws
    {
        var walker = Walker(archiveFolder: archiveFolder, limits: limits, emit: emit)
        for input in inputs {
            var st = stat()
            guard stat(input.absolute, &st) == 0 else {
                throw BatchError("\(input.display): no such file or folder", kind: .noInput)
            }
            try walker.visit(location: input.absolute, source: input.display, root: input.absolute, depth: 0, top: true)
        }
    }

    /// Byte-order comparison of UTF-8 strings: the one order every batch output uses (``FileTree/precedes(_:_:)``).
    public static func precedes(_ a: String, _ b: String) -> Bool { FileTree.precedes(a, b) }

    /// Relative paths of the regular files under `folder` (``FileTree/filesUnder(_:)``).
    static func filesUnder(_ folder: String) -> [String] { FileTree.filesUnder(folder) }

    typealias FileType = FileTree.FileType

    static func fileType(_ path: String) -> FileType { FileTree.fileType(path) }

    /// Why discovery skipped a path (every path it meets is a record, a skip with one of these reasons, or a
    /// rejected record).
    public enum SkipReason {
        /// Documentation, images, scripts, index tables: files that are never inputs.
        public static let notAnInput = "not an input"
        /// A hidden entry (a leading dot) or `__MACOSX`.
        public static let hidden = "hidden"
        /// A hidden folder (`.synapseCache`, `.git`): not searched, and named in the run's summary, since it may
        /// hold what the user meant (give it as an input to search it).
        public static let hiddenFolder = "a hidden folder (not searched)"
        /// A folder holding a `.taskproc-batch/` work folder: the outputs of a batch run (this one's, when
        /// `--output` is inside the input, or an earlier one's), never read as inputs.
        public static let batchOutput = "a taskproc batch output folder"
        /// A file or folder reached a second time (the same device and inode: an input given twice as `x` and
        /// `./x`, or a link to a file already visited): it is one record, under the name it was first found by.
        public static let reachedTwice = "the same file or folder reached again"
        /// A link to a folder inside the input (not followed: its target is visited on its own).
        public static let linkToFolder = "a link to a folder inside the input (its target is visited)"
        /// A path that vanished between the listing and the visit.
        public static let vanished = "vanished while its folder was read"
    }

    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    struct Walker {
        let archiveFolder: String
        let limits: ArchiveLimits
        let emit: (Event) -> Void
        /// Files and folders already visited, so that a path reached twice is one record.
        var visited: Set<FileIdentity> = []
        /// The stamps of the archives being expanded, innermost last (their members' stamps start with it).
        var archiveStamps: [String] = []
        /// Bytes extracted from archives so far in this run (nested ones included, reused extractions of an
        /// earlier session too): one `--max-archive-bytes` budget for the whole run.
        var extractedBytes: Int64 = 0

        /// A file's stamp from its `stat`: its own, or inside an archive the archive's with the member's size.
        func stamp(of st: stat) -> String {
            guard let archive = archiveStamps.last else { return BatchRecord.stamp(of: st) }
            return archive + "!" + String(st.st_size)
        }

        /// The path's `stat` (after links) and whether it is visited for the first time (recorded if so); nil
        /// when it cannot be stat'ed (it vanished: the caller's read says so).
        mutating func firstVisit(_ path: String) -> (first: Bool, stat: stat)? {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            return (visited.insert(FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))).inserted, st)
        }

        mutating func visit(location: String, source: String, root: String, depth: Int, top: Bool = false) throws {
            switch fileType(location) {
            case .directory:
                try visitFolder(location: location, source: source, root: root, depth: depth)
            case .regular:
                try visitFile(location: location, source: source, depth: depth, top: top)
            case .link:
                guard FileManager.default.fileExists(atPath: location) else {
                    let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: location)) ?? "?"
                    emit(
                        .record(
                            BatchRecord(
                                source: source, location: "",
                                rejection: "dangling symbolic link: its target \(destination) does not exist")))
                    return
                }
                let target = URL(fileURLWithPath: location).resolvingSymlinksInPath().path
                let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
                let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: location)) ?? target
                guard target == realRoot || target.hasPrefix(realRoot + "/") || top else {
                    emit(
                        .record(
                            BatchRecord(
                                source: source, location: "",
                                rejection: "symbolic link to \(destination) leaves the input folder; not followed")))
                    return
                }
                // Links to folders inside the input are not followed (their target is visited anyway; no cycles).
                switch fileType(target) {
                case .regular: try visitFile(location: location, source: source, depth: depth, top: top)
                case .directory where top:
                    try visitFolder(location: target, source: source, root: target, depth: depth)
                case .directory: emit(.skipped(source, reason: SkipReason.linkToFolder))
                case .missing, .link: emit(.skipped(source, reason: SkipReason.vanished))
                case .other: emit(.skipped(source, reason: FileBytes.nonRegularType(target) ?? "not a regular file"))
                }
            case .other:
                // Devices, FIFOs and sockets are never read (a FIFO would block, /dev/zero never ends).
                emit(.skipped(source, reason: FileBytes.nonRegularType(location) ?? "not a regular file"))
            case .missing:
                emit(.skipped(source, reason: SkipReason.vanished))
            }
        }

        mutating func visitFile(location: String, source: String, depth: Int, top: Bool) throws {
            let name = (location as NSString).lastPathComponent
            let visit = firstVisit(location)
            if visit?.first == false {
                emit(.skipped(source, reason: SkipReason.reachedTwice))
                return
            }
            switch InputRecognizer.recognizeFile(location) {
            case .zipArchive:
                try expandArchive(
                    location: location, source: source, depth: depth + 1, stamp: visit.map { stamp(of: $0.stat) })
            case .skipped where !top, .myDataHelpsJoinTable where !top:
                emit(.skipped(source, reason: SkipReason.notAnInput))
            default:
                if !top && name.hasPrefix(".") {
                    emit(.skipped(source, reason: SkipReason.hidden))
                } else {
                    var record = BatchRecord(source: source, location: location)
                    record.stamp = visit.map { stamp(of: $0.stat) }
                    emit(.record(record))
                }
            }
        }

        mutating func visitFolder(location: String, source: String, root: String, depth: Int) throws {
            if firstVisit(location)?.first == false {
                emit(.skipped(source, reason: SkipReason.reachedTwice))
                return
            }
            // One listing decides the record-folder rule and gives the entries to visit.
            let listing = FileTree.listing(location)
            if let code = listing.error {
                // An unreadable folder is an error, never silently empty.
                emit(
                    .record(
                        BatchRecord(
                            source: source, location: "",
                            rejection: "cannot list the folder: \(String(cString: strerror(code)))")))
                return
            }
            if listing.hidden.contains(BatchRunner.workFolderName) {
                emit(.skipped(source, reason: SkipReason.batchOutput))
                return
            }
            if InputRecognizer.isRecordFolder(location, names: listing.names) {
                var record = BatchRecord(source: source, location: location, isFolder: true)
                record.stamp = BatchRecord.folderStamp(location, archive: archiveStamps.last)
                emit(.record(record))
                return
            }
            for name in listing.hidden {
                let folder = fileType(location + "/" + name) == .directory && name != "__MACOSX"
                emit(.skipped(source + "/" + name, reason: folder ? SkipReason.hiddenFolder : SkipReason.hidden))
            }
            for name in listing.undecodable {
                emit(
                    .record(
                        BatchRecord(
                            source: source + "/" + name, location: "",
                            rejection:
                                "the file name is not valid UTF-8 (invalid bytes shown as \\xHH): taskproc cannot "
                                + "name it in its outputs; rename it (e.g. with convmv) and run again")))
            }
            for name in listing.names {
                try visit(location: location + "/" + name, source: source + "/" + name, root: root, depth: depth)
            }
        }

        mutating func expandArchive(location: String, source: String, depth: Int, stamp: String?) throws {
            if depth > limits.maxDepth {
                emit(
                    .record(
                        BatchRecord(
                            source: source, location: "",
                            rejection: "archive nested \(depth) deep, over the limit of \(limits.maxDepth)")))
                return
            }
            let id = String(SHA256.hex(Data(source.utf8)).prefix(20))
            let folder = archiveFolder + "/" + id
            let reportPath = folder + ".report.json"
            let fm = FileManager.default
            var report: ArchiveReport
            // An extraction of an earlier session is reused only when the archive has not changed since.
            let archiveStamp = stamp ?? "?"
            if fm.fileExists(atPath: folder), let data = fm.contents(atPath: reportPath),
                let saved = try? JSONDecoder().decode(ArchiveReport.self, from: data),
                saved.stamp == nil || saved.stamp == archiveStamp
            {
                report = saved
            } else {
                // Every failure to write here is a fault of the output disk, not of the archive: the run stops
                // (and a resume extracts again) rather than reporting the archive's records as bad.
                let partial = folder + ".partial"
                do throws(FileFailure) {
                    try FileSystem.removeTree(partial)
                    try FileSystem.removeTree(folder)
                    try FileSystem.makeFolder(partial)
                } catch {
                    throw BatchError(error)
                }
                do throws(ArchiveError) {
                    let extraction = try ZipArchive.extract(
                        location, into: partial, limits: limits, budget: limits.maxTotalBytes - extractedBytes,
                        omitting: { RecordDiscovery.omissions(of: $0, extractedAt: folder) })
                    report = ArchiveReport(
                        error: nil, rejected: extraction.rejected.map { [$0.entry, $0.reason] }, stamp: archiveStamp,
                        bytes: extraction.bytes, omitted: extraction.omitted.map { [$0.path, $0.reason] })
                } catch {
                    if let failure = error.outputFailure { throw BatchError(failure) }
                    report = ArchiveReport(error: error.message, rejected: [], stamp: archiveStamp)
                    do throws(FileFailure) {
                        try FileSystem.removeTree(partial)
                        try FileSystem.makeFolder(partial)
                    } catch {
                        throw BatchError(error)
                    }
                }
                do {
                    try FileSystem.writeAtomically(try JSONEncoder().encode(report), to: reportPath)
                    try FileSystem.rename(partial, to: folder)
                } catch {
                    throw BatchError.wrapping(error, path: reportPath, operation: .write)
                }
            }
            extractedBytes += report.bytes ?? 0
            if let error = report.error {
                emit(.record(BatchRecord(source: source, location: "", rejection: error)))
                return
            }
            for pair in report.rejected where pair.count == 2 {
                emit(
                    .record(
                        BatchRecord(
                            source: source + "!/" + pair[0], location: "", rejection: "archive entry " + pair[1])))
            }
            // Entries never extracted are the skips the walk of the extracted tree would have met.
            for pair in report.omitted ?? [] where pair.count == 2 {
                emit(.skipped(source + "!/" + pair[0], reason: pair[1]))
            }
            archiveStamps.append(archiveStamp)
            defer { archiveStamps.removeLast() }
            // The archive's top level is walked as a folder's entries are: hidden ones are counted skips too.
            let listing = FileTree.listing(folder)
            for name in listing.hidden { emit(.skipped(source + "!/" + name, reason: SkipReason.hidden)) }
            for name in listing.names {
                try visit(location: folder + "/" + name, source: source + "!/" + name, root: folder, depth: depth)
            }
        }
    }

    /// What extracting one archive gave, saved beside its folder so a resumed run reuses it.
    struct ArchiveReport: Codable {
        var error: String?
        var rejected: [[String]]
        /// The archive's stamp when it was extracted (nil in reports of earlier versions).
        var stamp: String?
        /// Bytes the extraction wrote, nested archives not included (nil in reports of earlier versions).
        var bytes: Int64?
        /// Entries not extracted (``RecordDiscovery/omissions(of:extractedAt:)``): path and skip reason.
        var omitted: [[String]]? = nil
    }

    /// Which files of an archive discovery leaves unextracted.
    ///
    /// They are those the walk of the extracted tree would skip without reading them — hidden entries (a hidden folder is one omission for all its files) and files that
    /// are never inputs by name (``InputRecognizer/isNeverInputByName(_:)``) — unless they lie in a folder that
    /// may be a record folder (one with a `.json` file of its own, or a MyDataHelps step folder), whose files
    /// all belong to it and are extracted so that the record is the same. The archive's top level is never a
    /// record folder (as in the walk). Extracting a 100 000-entry archive of documents thus writes nothing.
    /// - Parameters:
    ///   - files: Relative `/`-separated paths of the archive's file entries.
    ///   - folder: Where the archive's extraction will lie (record-folder and file-kind rules read the path).
    /// - Returns: The omitted files, each with the path and reason to report.
    static func omissions(of files: [String], extractedAt folder: String) -> [String: ZipArchive.Omission] {
        // Folders with a visible `.json` file directly in them: possible record folders.
        var withJSON: Set<Substring> = []
        for file in files {
            guard let slash = file.lastIndex(of: "/") else { continue }
            let name = file[file.index(after: slash)...]
            if !name.hasPrefix(".") && name.lowercased().hasSuffix(".json") { withJSON.insert(file[..<slash]) }
        }
        func isHidden(_ name: Substring) -> Bool { name.hasPrefix(".") || name == "__MACOSX" }
        var result: [String: ZipArchive.Omission] = [:]
        next: for file in files {
            // Folders from the top down, as the walk meets them: a hidden one is skipped whole (its parent's
            // listing counts it); one that may be a record folder takes everything under it.
            var end = file.startIndex
            while let slash = file[end...].firstIndex(of: "/") {
                let prefix = file[..<slash]
                let nameStart = file[..<slash].lastIndex(of: "/").map { file.index(after: $0) } ?? file.startIndex
                if isHidden(file[nameStart..<slash]) {
                    let reason = file[nameStart..<slash] == "__MACOSX" ? SkipReason.hidden : SkipReason.hiddenFolder
                    result[file] = ZipArchive.Omission(path: String(prefix), reason: reason)
                    continue next
                }
                if withJSON.contains(prefix) || InputRecognizer.isMyDataHelpsStepFolder(folder + "/" + prefix) {
                    continue next
                }
                end = file.index(after: slash)
            }
            if isHidden(file[end...]) {
                result[file] = ZipArchive.Omission(path: file, reason: SkipReason.hidden)
            } else if InputRecognizer.isNeverInputByName(folder + "/" + file) {
                result[file] = ZipArchive.Omission(path: file, reason: SkipReason.notAnInput)
            }
        }
        return result
    }
}
