import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

/// Combines the output folders of the N shards of one study (`--shard 1/N` … `N/N`) into exactly the outputs one
/// run over all records would have written (only the SQLite `run_log` differs: it lists every shard's events).
public enum BatchMerge {
    /// What a merge did.
    public struct Summary: Sendable {
        /// Records in the merged outputs.
        public var records = 0
        /// What was written.
        public var counts = BatchOutputs.Counts()
        /// Set when the merge took over the output lock of a process that no longer runs (say it as a warning).
        public var lockNote: String?
    }

    /// Merges shard output folders into `outputFolder`.
    ///
    /// Checks before writing anything: every shard run is complete, all share the inputs, options and limits, the
    /// shard count N is the same and the shards 1…N are each present once, and each record is analysed by exactly
    /// one shard (all shards discovered the same records).
    /// - Parameters:
    ///   - shardFolders: The shards' output folders, in any order.
    ///   - outputFolder: Where the merged outputs go (created if missing).
    ///   - force: Replace earlier outputs in `outputFolder`.
    /// - Returns: The summary.
    /// - Throws: ``BatchError`` naming the folder and what is wrong.
    public static func merge(shardFolders: [String], into outputFolder: String, force: Bool) throws -> Summary {
        guard !shardFolders.isEmpty else { throw BatchError("merge needs at least one shard output folder") }
        // Merging into a shard (or into a folder inside one) would replace the records being merged.
        let target = URL(fileURLWithPath: outputFolder).standardizedFileURL.resolvingSymlinksInPath().path
        for folder in shardFolders {
            let shard = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
            if target == shard || target.hasPrefix(shard + "/") {
                throw BatchError(
                    "\(outputFolder): is \(target == shard ? "" : "inside ")the shard folder \(folder); merge into a new folder",
                    kind: .cannotCreate)
            }
        }
        var states: [(folder: String, state: BatchRunner.RunState)] = []
        for folder in shardFolders {
            let state = try BatchRunner.loadState(folder)
            guard state.complete else {
                throw BatchError(
                    "\(folder): the shard run is not complete; finish it with `taskproc batch --resume --out \(folder)`"
                )
            }
            guard state.configuration.shard != nil else {
                throw BatchError("\(folder): not a shard run (it was run without --shard)")
            }
            states.append((folder, state))
        }
        let first = states[0].state.configuration
        let count = first.shard!.count
        for (folder, state) in states.dropFirst() {
            guard state.configuration.sameStudy(as: first) else {
                throw BatchError(
                    "\(folder): its inputs, options or limits differ from \(states[0].folder)'s; shards of one run must share them"
                )
            }
            guard state.configuration.shard!.count == count else {
                throw BatchError(
                    "\(folder): shard \(state.configuration.shard!) does not match \(states[0].folder)'s \(first.shard!)"
                )
            }
        }
        let indices = states.map { $0.state.configuration.shard!.index }
        let missing = (1...count).filter { !indices.contains($0) }
        if !missing.isEmpty {
            throw BatchError(
                "shard(s) \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing from the merge")
        }
        if Set(indices).count != indices.count { throw BatchError("a shard is given twice") }

        // Every shard must know every record; each record is analysed by one shard. Records are told apart by a
        // 64-bit hash of their source bytes (8 bytes a record, not the name): a million records per shard fit in
        // a few tens of MB. Names are looked up again only to report a problem.
        func journal(_ i: Int) -> String { states[i].folder + "/" + BatchRunner.workFolderName + "/journal.jsonl" }
        func names(of hashes: Set<UInt64>, in i: Int) throws -> [String] {
            var found: [String] = []
            try BatchJournal.scan(journal(i)) { entry, _, _, _ in
                if hashes.contains(SourceKey(entry.source).fingerprint) { found.append(entry.source) }
            }
            return Array(Set(found)).sorted(by: RecordDiscovery.precedes)
        }
        var owner: [UInt64: Int] = [:]
        var known: [Set<UInt64>] = []
        for (i, _) in states.enumerated() {
            var sources: Set<UInt64> = []
            var twice: (UInt64, Int)?
            try BatchJournal.scan(
                journal(i),
                { entry, _, _, _ in
                    let key = SourceKey(entry.source).fingerprint
                    sources.insert(key)
                    guard entry.status != .otherShard else { return }
                    if let other = owner[key], other != i, twice == nil { twice = (key, other) }
                    owner[key] = i
                },
                damaged: { damage, _ in
                    let folder = states[i].folder
                    throw BatchError(
                        "\(folder): its journal is damaged (\(damage)); `taskproc batch --resume --out \(folder)` "
                            + "analyses those records again")
                })
            if let (key, other) = twice {
                let name = try names(of: [key], in: i).first ?? "?"
                throw BatchError("record \(name) was analysed by both \(states[other].folder) and \(states[i].folder)")
            }
            known.append(sources)
        }
        for (i, sources) in known.enumerated() where sources != known[0] {
            let diff = sources.symmetricDifference(known[0])
            let examples = (try names(of: diff, in: i) + names(of: diff, in: 0)).prefix(3)
            throw BatchError(
                "\(states[i].folder) and \(states[0].folder) discovered different records (e.g. \(examples.joined(separator: ", "))); were the inputs changed between shard runs?"
            )
        }
        if let lost = known[0].first(where: { owner[$0] == nil }) {
            throw BatchError("record \(try names(of: [lost], in: 0).first ?? "?") was analysed by no shard")
        }
        let analysed = owner.count
        owner = [:]
        known = []

        // One writer per output folder; then the merged folder looks like a single run's: its own journal and run
        // description.
        let lock = try BatchRunner.lockOutput(outputFolder, command: "taskproc merge")
        defer { lock.release() }
        do {
            var summary = try write(states, analysed: analysed, into: outputFolder, force: force)
            summary.lockNote = lock.takeoverNote
            return summary
        } catch {
            throw BatchError.wrapping(error, path: outputFolder, operation: .write)
        }
    }

    /// The writing half of ``merge(shardFolders:into:force:)``, holding the output lock.
    private static func write(
        _ states: [(folder: String, state: BatchRunner.RunState)], analysed: Int, into outputFolder: String,
        force: Bool
    ) throws -> Summary {
        let first = states[0].state.configuration
        let count = first.shard!.count
        try BatchRunner.prepareFreshFolder(outputFolder, force: force)
        let work = outputFolder + "/" + BatchRunner.workFolderName
        do { try FileSystem.makeFolder(work) } catch { throw BatchError(error) }
        let journalPath = work + "/journal.jsonl"
        let merged = try BufferedFile(journalPath)
        var log: [BatchOutputs.LogEvent] = []
        for item in states.sorted(by: { $0.state.configuration.shard!.index < $1.state.configuration.shard!.index }) {
            let path = item.folder + "/" + BatchRunner.workFolderName + "/journal.jsonl"
            try BatchJournal.scan(path) { entry, line, _, _ in
                if entry.status != .otherShard { try merged.append(String(decoding: line, as: UTF8.self) + "\n") }
            }
            log += try BatchRunner.readLog(item.folder + "/" + BatchRunner.workFolderName)
        }
        try merged.close()
        // Before anything says "complete": the merged journal holds exactly the records the shards analysed.
        var mergedCount = 0
        try BatchJournal.scan(journalPath) { _, _, _, _ in mergedCount += 1 }
        guard mergedCount == analysed else {
            throw BatchError(
                "\(outputFolder): the merged journal holds \(mergedCount) records but the shards analysed \(analysed); "
                    + "the merge is incomplete and not marked complete")
        }
        var configuration = first
        configuration.shard = nil
        let event = BatchOutputs.LogEvent(
            shard: "", event: "merge", detail: "merged \(count) shards: " + states.map(\.folder).joined(separator: " "))
        log.append(event)
        try BatchRunner.log(work, event)
        var summary = Summary()
        summary.records = analysed
        summary.counts = try BatchOutputs.write(
            journals: [journalPath], to: outputFolder, runLog: log, runInfo: BatchRunner.runInfo(configuration),
            export: configuration.export,
            consent: BatchRunner.consentArtefacts(
                BatchRunner.RunState(configuration: configuration, complete: true, started: states[0].state.started)),
            recordsTable: configuration.recordsTableSpec)
        try BatchRunner.saveState(
            BatchRunner.RunState(configuration: configuration, complete: true, started: states[0].state.started),
            outputFolder)
        return summary
    }
}
