import Archives
import Foundation
import StudyInputs

/// `taskproc summarize OUT`: writes a finished run's outputs again from its journal, without analysing anything.
///
/// The outputs are those the running version writes (the per-kind CSVs with their record columns and flags, the
/// study tables, `columns.csv` with its types, the SQLite tables), so a run of an earlier version gets them; a
/// folder summarized twice holds the same bytes (the SQLite `run_log` gains a `summarize` event each time).
public enum BatchSummarize {
    /// Rewrites the outputs of the complete run in `folder`.
    /// - Returns: The counts of what was written.
    /// - Throws: ``BatchError``: no run there (66), a run that is not complete, another process writing there (73),
    ///   an I/O failure (74).
    public static func summarize(folder: String) throws -> BatchOutputs.Counts {
        let state = try BatchRunner.loadState(folder)
        guard state.complete else {
            throw BatchError(
                "\(folder): the run is not complete; finish it with `taskproc batch --resume --out \(folder)`")
        }
        let lock = try BatchRunner.lockOutput(folder, command: "taskproc summarize")
        defer { lock.release() }
        let work = folder + "/" + BatchRunner.workFolderName
        let journal = work + "/journal.jsonl"
        do {
            // The records a resume left out (their inputs were deleted) stay out.
            var only: Set<SourceKey>?
            if let left = state.leftOut, !left.isEmpty {
                let leave = Set(left.map(SourceKey.init))
                var keep: Set<SourceKey> = []
                try BatchJournal.scan(journal) { entry, _, _, _ in
                    let key = SourceKey(entry.source)
                    if !leave.contains(key) { keep.insert(key) }
                }
                only = keep
            }
            try BatchRunner.log(
                work,
                BatchOutputs.LogEvent(
                    shard: state.configuration.shard.map(\.description) ?? "", event: "summarize",
                    detail: "outputs written again from the journal"))
            return try BatchOutputs.write(
                journals: [journal], to: folder, runLog: try BatchRunner.readLog(work),
                runInfo: BatchRunner.runInfo(state.configuration), export: state.configuration.export, only: only,
                consent: BatchRunner.consentArtefacts(state), recordsTable: state.configuration.recordsTableSpec)
        } catch {
            throw BatchError.wrapping(error, path: folder, operation: .write)
        }
    }
}
