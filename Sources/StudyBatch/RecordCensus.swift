import Archives
import Foundation
import SensorSignal
import StudyInputs
import Synchronization

/// A cheap count of what batch discovery will visit, made beside it so that the progress bar has an estimated
/// total (and an ETA) while records are still being found.
///
/// The unit is the visible file: every regular file under the inputs that is not hidden (nor under a hidden
/// folder or `__MACOSX`), with a ZIP archive counted as the visible files its central directory lists (nothing is
/// extracted or read beyond the directory). Discovery counts the same unit as it goes (``visited(_:)``): a record
/// file is 1, a record folder the visible files under it, a skipped path 1 (hidden ones 0). The estimated number
/// of records is then `found × census / visited` — exact when records are spread evenly over the files, and it
/// becomes the true total when discovery ends.
public enum RecordCensus {
    /// The visible files under `inputs`, archives' members included (see the type's description).
    ///
    /// Unreadable folders and archives count as one file each (discovery reports each as one failed record).
    public static func files(inputs: [RecordDiscovery.Input], limits: ArchiveLimits) -> Int {
        var count = 0
        for input in inputs { count += files(at: input.absolute, limits: limits, top: true) }
        return count
    }

    static func files(at path: String, limits: ArchiveLimits, top: Bool) -> Int {
        switch FileTree.fileType(path) {
        case .directory:
            let listing = FileTree.listing(path)
            if listing.error != nil || listing.hidden.contains(BatchRunner.workFolderName) { return 1 }
            var count = listing.undecodable.count
            for name in listing.names { count += files(at: path + "/" + name, limits: limits, top: false) }
            return count
        case .regular where path.lowercased().hasSuffix(".zip"):
            guard let entries = try? ZipArchive.entries(of: path, limits: limits) else { return 1 }
            return entries.count { entry in
                !entry.isDirectory
                    && !entry.name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains {
                        $0.hasPrefix(".") || $0 == "__MACOSX"
                    }
            }
        case .link where top:
            // A top-level link is followed by discovery; inside the inputs links are not.
            let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            return target == path ? 1 : files(at: target, limits: limits, top: true)
        default:
            return 1
        }
    }

    /// Discovery's side of the count: the census units one discovery event stands for.
    public static func visited(_ event: RecordDiscovery.Event) -> Int {
        switch event {
        case .record(let record):
            guard record.isFolder, !record.location.isEmpty else { return 1 }
            return max(1, FileTree.filesUnder(record.location).count)
        case .skipped(_, let reason):
            return reason == RecordDiscovery.SkipReason.hidden || reason == RecordDiscovery.SkipReason.hiddenFolder
                ? 0 : 1
        }
    }

    /// The records discovery will find, estimated from `found` records in `visited` of `census` files.
    ///
    /// Nil before anything is visited; never fewer than `found`.
    public static func estimate(found: Int, visited: Int, census: Int) -> Int? {
        guard visited > 0, found > 0, census > 0 else { return nil }
        let estimate = (Double(found) / Double(visited) * Double(census)).rounded()
        return max(found, Int.clamped(estimate, to: 0...Int(Int32.max)))
    }

    /// A census made on a thread of its own; ``count`` is nil until it is done.
    public final class Running: Sendable {
        private let result = Mutex<Int?>(nil)

        /// Starts counting `inputs`.
        public init(inputs: [RecordDiscovery.Input], limits: ArchiveLimits) {
            let thread = Thread { [self] in
                let count = RecordCensus.files(inputs: inputs, limits: limits)
                result.withLock { $0 = count }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }

        /// The files counted, once the census is done.
        public var count: Int? { result.withLock { $0 } }
    }
}
