import ActiveTasks
import Archives
import Foundation
import SensorSignal
import StudyInputs
import StudyOutputs

/// Which of N partitions a run processes.
///
/// A record belongs to shard K when (first 64 bits of its content hash) mod N = K − 1. Every record belongs to
/// exactly one shard, whatever machine or order processes it.
public struct ShardSpec: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The shard, 1-based.
    public var index: Int
    /// The number of shards.
    public var count: Int

    /// Parses `K/N` (1 ≤ K ≤ N).
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else { return nil }
        index = k
        count = n
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// True when a record with this content hash (hex SHA-256) is in this shard.
    public func contains(hash: String) -> Bool {
        let value = UInt64(hash.prefix(16), radix: 16) ?? 0
        return Int(value % UInt64(count)) == index - 1
    }
}

/// What a batch run was asked to do; stored in the output folder so `--resume` and `merge` can check it.
public struct BatchConfiguration: Sendable, Hashable, Codable {
    /// The input paths, in order.
    public var inputs: [RecordDiscovery.Input]
    /// The shard processed, or nil for all records.
    public var shard: ShardSpec?
    /// Archive safety limits.
    public var limits: ArchiveLimits
    /// The analysis options as command-line arguments, such as `--time-unit ms`, for the record and for resuming.
    public var analysisArguments: [String]
    /// Which records the study may process (sharing scope, withdrawals); nil processes every record.
    public var consent: ConsentPolicy?
    /// Every analysis option as a value, so `--resume`, shards and `merge` need no argument parsing; nil in runs
    /// stored by taskproc before 0.2, which kept only ``analysisArguments``.
    public var analysis: AnalysisOptions?
    /// The export written beside the outputs (`researchkit`, `mork` or `fhir`), so a resumed run writes it too.
    public var exportFormat: String?
    /// ``exportFormat`` as a format (nil when none, or when the stored name is none: ``BatchRunner`` refuses those).
    public var export: OutputFormat? { exportFormat.flatMap(OutputFormat.init(rawValue:)) }
    /// The `--mork-config` file of a `mork` export.
    public var morkConfigurationFile: String?
    /// The `--fhir-consent` shape of a `fhir` export (`consent` or `contract`); nil = `consent`.
    public var fhirConsent: String?
    /// The `--fhir-bundle` type of a `fhir` export (`collection` or `transaction`); nil = `collection`.
    public var fhirBundle: String?
    /// The `--fhir-subject-system` of a `fhir` export; nil for identifiers without a system.
    public var fhirSubjectSystem: String?
    /// `--fhir-patient`: a `fhir` export writes a Patient per participant; nil = no.
    public var fhirPatient: Bool?
    /// Reader options by file pattern (`--input-config`), first match wins; nil or empty: the command line's for
    /// every record.
    public var inputRules: [InputRule]?
    /// The time limit of one record's analysis, seconds (`--record-timeout`); nil for
    /// ``BatchConfiguration/defaultRecordTimeout``, 0 for none.
    public var recordTimeout: Double?
    /// `--records-table`: the study's record table (absolute path) whose columns join every row; nil for none.
    public var recordsTable: String?
    /// `--records-table-key`: the records table's column matched with the records' `recordId`; nil for `recordId`.
    public var recordsTableKey: String?
    /// The records table and its key column, when the run has one.
    var recordsTableSpec: (path: String, key: String)? {
        recordsTable.map { ($0, recordsTableKey ?? "recordId") }
    }
    /// The default time limit of one record, seconds: ten minutes, far beyond any real recording's analysis
    /// (a one-hour WAV takes seconds).
    public static let defaultRecordTimeout: Double = 600
    /// The time limit in force, seconds (nil for none).
    public var effectiveRecordTimeout: Double? {
        let value = recordTimeout ?? Self.defaultRecordTimeout
        return value > 0 ? value : nil
    }

    /// Creates a configuration.
    public init(
        inputs: [RecordDiscovery.Input], shard: ShardSpec? = nil, limits: ArchiveLimits = ArchiveLimits(),
        analysisArguments: [String] = [], consent: ConsentPolicy? = nil
    ) {
        self.inputs = inputs
        self.shard = shard
        self.limits = limits
        self.analysisArguments = analysisArguments
        self.consent = consent
    }

    /// Equal apart from the shard (what shards of one study must share).
    func sameStudy(as other: BatchConfiguration) -> Bool {
        inputs.map(\.display) == other.inputs.map(\.display) && limits == other.limits
            && analysisArguments == other.analysisArguments && consent == other.consent && analysis == other.analysis
            && exportFormat == other.exportFormat && (inputRules ?? []) == (other.inputRules ?? [])
            && recordsTable == other.recordsTable && recordsTableKey == other.recordsTableKey
    }

    /// The options a record is analysed with: those of the first ``inputRules`` rule matching its path relative
    /// to its input, else `base`.
    func options(for source: String, base: AnalysisOptions) -> AnalysisOptions {
        guard let rules = inputRules, !rules.isEmpty else { return base }
        let path = InputRule.relativePath(of: source, inputs: inputs)
        return rules.first { $0.matches(path) }?.analysis ?? base
    }
}

/// Runs a batch: discovery, parallel analysis into the journal, then the output files.
///
/// Output folder layout: the outputs (see ``BatchOutputs``) plus `.taskproc-batch/` holding `run.json` (the
/// configuration and whether the run completed), `journal.jsonl` (one line per finished record), `runlog.jsonl`
/// and, while running, `archives/` (extracted ZIP files; removed at the end).
public enum BatchRunner {
    /// The work folder's name inside the output folder.
    public static let workFolderName = ".taskproc-batch"

    /// Whether to start afresh or continue.
    public enum Mode: Sendable, Hashable {
        /// A new run; `force` replaces an earlier run's outputs.
        case fresh(force: Bool)
        /// Continue the run stored in the output folder.
        case resume
    }

    /// Where a run stands, reported after each record found and each record finished.
    public struct ProgressState: Sendable, Hashable {
        /// Records found so far (the total once ``discoveryComplete``).
        public var found = 0
        /// Records finished, including those finished by earlier sessions of a resumed run.
        public var done = 0
        /// Records of this session whose analysis failed (status `error`).
        public var failed = 0
        /// True once every record has been found: only then is ``found`` the total.
        public var discoveryComplete = false
        /// The record that just failed and why (`source: reason`); nil when the report is not about a failure.
        public var failure: String?
        /// While discovery runs: the records it will find, estimated from a census of the inputs' files
        /// (``RecordCensus``); nil until the census is done and a record is found, and once discovery is complete.
        public var estimatedTotal: Int?

        /// A state with the given counts.
        public init(
            found: Int = 0, done: Int = 0, failed: Int = 0, discoveryComplete: Bool = false, failure: String? = nil
        ) {
            self.found = found
            self.done = done
            self.failed = failed
            self.discoveryComplete = discoveryComplete
            self.failure = failure
        }
    }

    /// Progress: called from the writer task with the run's ``ProgressState``.
    public typealias Progress = @Sendable (_ state: ProgressState) -> Void

    /// What a run did.
    public struct Summary: Sendable {
        /// Records discovered.
        public var records = 0
        /// Paths skipped: not inputs, hidden, devices and FIFOs, reached twice (``skipReasons`` says why).
        public var skippedFiles = 0
        /// How many paths were skipped for each reason (``RecordDiscovery/SkipReason``, or what a device, FIFO or
        /// socket is).
        public var skipReasons: [String: Int] = [:]
        /// Records finished by this session (the rest were in the journal already).
        public var processedNow = 0
        /// Records of other shards.
        public var otherShard = 0
        /// Records the consent policy excluded, by ``ConsentPolicy/Exclusion`` raw value (counts only).
        public var excluded: [String: Int] = [:]
        /// What was written.
        public var counts = BatchOutputs.Counts()
        /// Wall-clock time of this session, seconds.
        public var elapsed: Double = 0
        /// Wall-clock time until every record was found (and archives extracted), seconds; analysis runs meanwhile.
        public var discoverySeconds: Double = 0
        /// Wall-clock time until every record was analysed (discovery included), seconds.
        public var analysisSeconds: Double = 0
        /// Wall-clock time spent writing the output files, seconds.
        public var outputSeconds: Double = 0
        /// True when `--resume` found the run already complete and did nothing.
        public var alreadyComplete = false
        /// What `--consent-from-records` read before the analysis (nil without it).
        public var consentScan: ConsentScan.Found?
        /// Set when the run took over the output lock of a process that no longer runs (say it as a warning).
        public var lockNote: String?
        /// Records whose content changed since an earlier session's entry (analysed again; the new entry counts),
        /// in discovery order.
        public var changedInputs: [String] = []
        /// Records whose stamp changed but whose content did not (analysed again, same results).
        public var touchedInputs = 0
        /// Records of an earlier session that are no longer among the inputs: left out of the outputs.
        public var deletedInputs: [String] = []
        /// Damaged journal lines this session found and set aside (their records were analysed again).
        public var quarantined: [BatchJournal.Damage] = []
        /// Sources of the hidden folders discovery did not search (the first 20; ``skipReasons`` counts them all
        /// under ``RecordDiscovery/SkipReason/hiddenFolder``).
        public var hiddenFolders: [String] = []
        /// Sources of the batch output folders discovery did not read (the first 20), the run's own among them
        /// when `--output` is inside an input.
        public var outputFolders: [String] = []

        /// True when there were records of this shard and every one failed.
        public var allFailed: Bool { counts.failed > 0 && counts.succeeded == 0 }
    }

    struct RunState: Codable {
        var format = 1
        var configuration: BatchConfiguration
        var complete: Bool
        /// When the run started: the export time of its records (nil in runs stored before exports were made
        /// with the analysis).
        var started: Date?
        /// True once every record is in the journal and the outputs are being written: a resume writes them
        /// from the journal without discovering again (the extracted archives are being removed by then).
        var analysed: Bool?
        /// Records of the journal to leave out of the outputs (inputs deleted since an earlier session).
        var leftOut: [String]?
    }

    /// The export a configuration asks for, with the run's export time.
    /// - Throws: ``BatchError`` for an unknown format or an unreadable MORK configuration.
    /// The collector of `consent/` when the run has a consent contract (``ConsentArtefacts``); documents are dated
    /// the run's start.
    static func consentArtefacts(_ state: RunState) -> ConsentArtefacts? {
        guard let contract = state.configuration.analysis?.consentContract else { return nil }
        var settings = FHIRExport.Settings()
        settings.subjectSystem = state.configuration.fhirSubjectSystem
        return ConsentArtefacts(contract: contract, generatedAt: state.started ?? Date(), settings: settings)
    }

    static func exportSettings(_ configuration: BatchConfiguration, exportedAt: Date) throws -> BatchExport.Settings? {
        guard let name = configuration.exportFormat else { return nil }
        guard let format = OutputFormat(rawValue: name), format.isExport else {
            throw BatchError("the stored export format \(name) is not researchkit, mork or fhir")
        }
        var mork = MORKExport.Configuration()
        if let file = configuration.morkConfigurationFile {
            do { mork = try MORKExport.Configuration(file: file) } catch {
                throw BatchError("\(error)")
            }
        }
        var settings = BatchExport.Settings(format: format, mork: mork, exportedAt: exportedAt)
        if let shape = configuration.fhirConsent {
            guard let parsed = FHIRConsentShape(rawValue: shape) else {
                throw BatchError("the stored --fhir-consent \(shape) is not consent or contract")
            }
            settings.fhirConsent = parsed
        }
        if let type = configuration.fhirBundle {
            guard let parsed = FHIRBundleType(rawValue: type) else {
                throw BatchError("the stored --fhir-bundle \(type) is not collection or transaction")
            }
            settings.fhir.bundleType = parsed
        }
        settings.fhir.subjectSystem = configuration.fhirSubjectSystem
        settings.fhir.includesPatient = configuration.fhirPatient ?? false
        return settings
    }

    /// The configuration stored by an earlier run in `outputFolder`.
    /// - Throws: ``BatchError`` when there is no readable run there.
    public static func storedConfiguration(outputFolder: String) throws -> BatchConfiguration {
        try loadState(outputFolder).configuration
    }

    static func loadState(_ outputFolder: String) throws -> RunState {
        let path = outputFolder + "/" + workFolderName + "/run.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            let started =
                FileManager.default.fileExists(atPath: outputFolder + "/" + workFolderName)
                || FileManager.default.fileExists(atPath: outputFolder + "/" + OutputLock.fileName)
            throw BatchError(
                "\(outputFolder): no batch run to resume or merge (\(path) is missing"
                    + (started ? "; the run was stopped before it started: run it again without --resume)" : ")"),
                kind: .noInput)
        }
        do { return try JSONDecoder().decode(RunState.self, from: data) } catch {
            throw BatchError("\(path): unreadable run description: \(error)")
        }
    }

    static func saveState(_ state: RunState, _ outputFolder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let path = outputFolder + "/" + workFolderName + "/run.json"
        do { try FileSystem.writeAtomically(try encoder.encode(state), to: path) } catch {
            throw BatchError.wrapping(error, path: path, operation: .write)
        }
    }

    /// Takes the output folder's lock (creating the folder), so that no second batch, merge or report writes
    /// there at the same time.
    /// - Throws: ``BatchError`` (73) naming the holder when another process writes there.
    static func lockOutput(_ folder: String, command: String) throws -> OutputLock {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw BatchError("\(folder) exists and is not a folder", kind: .cannotCreate)
            }
        } else {
            do { try FileSystem.makeFolder(folder) } catch { throw BatchError(error) }
        }
        do { return try OutputLock.acquire(folder: folder, command: command) } catch { throw BatchError(error) }
    }

    /// Runs (or resumes) a batch.
    ///
    /// - Parameters:
    ///   - configuration: What to process; for `.resume` it must equal the stored one (take it from
    ///     ``storedConfiguration(outputFolder:)``).
    ///   - analysis: Loading and analysis options (must match `configuration.analysisArguments`).
    ///   - outputFolder: Where outputs go (created if missing).
    ///   - mode: Fresh or resume.
    ///   - jobs: Records analysed in parallel (≥ 1).
    ///   - progress: Called from the writer task after each record found (while discovery runs), after each
    ///     finished record, and once when discovery completes.
    /// - Returns: The summary.
    /// - Throws: ``BatchError`` for an unusable output folder or inputs; a single record never throws.
    public static func run(
        configuration: BatchConfiguration, analysis: RecordAnalysis.Options, outputFolder: String, mode: Mode,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, progress: Progress? = nil
    ) async throws -> Summary {
        if case .fresh = mode {
            for input in configuration.inputs where !FileManager.default.fileExists(atPath: input.absolute) {
                throw BatchError("\(input.display): no such file or folder", kind: .noInput)
            }
        } else if !FileManager.default.fileExists(atPath: outputFolder + "/" + workFolderName + "/run.json") {
            _ = try loadState(outputFolder)  // the error that names the missing run
        }
        // One writer per output folder, from before anything is read or written there until the outputs are in
        // place.
        let lock = try lockOutput(outputFolder, command: "taskproc batch")
        defer { lock.release() }
        do {
            var summary = try await locked(
                configuration: configuration, analysis: analysis, outputFolder: outputFolder, mode: mode, jobs: jobs,
                progress: progress)
            summary.lockNote = lock.takeoverNote
            return summary
        } catch {
            throw BatchError.wrapping(error, path: outputFolder, operation: .write)
        }
    }

    /// ``run(configuration:analysis:outputFolder:mode:jobs:progress:)`` holding the output lock.
    static func locked(
        configuration: BatchConfiguration, analysis: RecordAnalysis.Options, outputFolder: String, mode: Mode,
        jobs: Int, progress: Progress?
    ) async throws -> Summary {
        let started = Date()
        // One decompressed-size limit: gzip files obey --max-entry-bytes as ZIP entries do.
        let analysis = { (options: RecordAnalysis.Options) in
            var options = options
            options.loader.maxDecompressedBytes = configuration.limits.maxEntryBytes
            return options
        }(analysis)
        let work = outputFolder + "/" + workFolderName
        let shardName = configuration.shard?.description ?? ""
        var summary = Summary()
        var exportedAt = started
        var journalIndex: BatchJournal.Index?
        switch mode {
        case .fresh(let force):
            try prepareFreshFolder(outputFolder, force: force)
            do { try FileSystem.makeFolder(work) } catch { throw BatchError(error) }
            try saveState(RunState(configuration: configuration, complete: false, started: started), outputFolder)
            exportedAt = started
            try log(
                work,
                BatchOutputs.LogEvent(shard: shardName, event: "start", detail: describe(configuration, jobs: jobs)))
        case .resume:
            let state = try loadState(outputFolder)
            exportedAt = state.started ?? started
            guard state.configuration == configuration else {
                throw BatchError(
                    "\(outputFolder): the stored run has different inputs or options; resume it without changing them")
            }
            // The journal is read once here; the session's BatchJournal starts from this reading.
            let index = try BatchJournal.index(work + "/journal.jsonl")
            journalIndex = index
            if state.complete && index.damaged.isEmpty {
                summary.alreadyComplete = true
                // The latest entry of each record counts (an entry superseded by a later session's does not).
                let left = Set((state.leftOut ?? []).map(SourceKey.init))
                for (source, item) in index.known where !left.contains(source) {
                    summary.records += 1
                    switch item.status {
                    case .ok: summary.counts.succeeded += 1
                    case .partial:
                        summary.counts.succeeded += 1
                        summary.counts.partial += 1
                    case .error: summary.counts.failed += 1
                    case .skipped: summary.counts.notData += 1
                    case .otherShard: summary.otherShard += 1
                    case .excluded: summary.excluded[item.exclusion ?? "", default: 0] += 1
                    }
                }
                return summary
            }
            try log(
                work,
                BatchOutputs.LogEvent(shard: shardName, event: "resume", detail: describe(configuration, jobs: jobs)))
            if state.analysed == true && index.damaged.isEmpty {
                // Stopped while writing the outputs: every record is in the journal; write them again from it.
                try? FileSystem.removeTree(work + "/archives")
                try? FileSystem.removeTree(work + "/archives.removing")
                let exporting = try exportSettings(configuration, exportedAt: exportedAt)
                let journal = try BatchJournal(work + "/journal.jsonl", index: index)
                summary.records = journal.doneCount - (state.leftOut?.count ?? 0)
                summary.otherShard = journal.otherShard
                summary.excluded = journal.excluded
                summary.deletedInputs = state.leftOut ?? []
                let analysed = Date()
                try writeOutputs(
                    journal: journal, state: state, outputFolder: outputFolder, exporting: exporting,
                    summary: &summary)
                summary.outputSeconds = Date().timeIntervalSince(analysed)
                summary.elapsed = Date().timeIntervalSince(started)
                return summary
            }
        }

        let exporting = try exportSettings(configuration, exportedAt: exportedAt)
        var policy = configuration.consent.flatMap { $0.isOpen ? nil : $0 }
        if var scanned = policy, scanned.fromRecords == true {
            // Consent first: every record of a participant who declined must be known before any is analysed. The
            // scan ends before discovery starts: both walks extract archives into the same folder.
            let found = try ConsentScan.scan(
                inputs: configuration.inputs, archiveFolder: work + "/archives", limits: configuration.limits,
                options: analysis)
            scanned.add(found)
            policy = scanned
            summary.consentScan = found
            var detail = found.summary
            for source in found.unattributed.prefix(5) { detail += "\n  no participant key: \(source)" }
            for problem in found.unreadable.prefix(5) { detail += "\n  unreadable: \(problem)" }
            try log(work, BatchOutputs.LogEvent(shard: shardName, event: "consent-records", detail: detail))
        }
        // Discovery runs on its own thread and feeds the workers as it goes; the journal decides what is left.
        let journal = try BatchJournal(work + "/journal.jsonl", index: journalIndex)
        summary.quarantined = journal.quarantined
        if !journal.quarantined.isEmpty {
            try log(
                work,
                BatchOutputs.LogEvent(
                    shard: shardName, event: "quarantined",
                    detail: "\(journal.quarantined.count) damaged journal line(s), listed in quarantine.jsonl; their "
                        + "records are analysed again: "
                        + journal.quarantined.prefix(10).map(\.description).joined(separator: "; ")))
        }
        let events = RecordDiscovery.stream(
            inputs: configuration.inputs, archiveFolder: work + "/archives", limits: configuration.limits)
        var seen: Set<SourceKey> = []
        var restamped: [(source: String, hash: UInt64?)] = []
        var notedSkips = 0
        var alreadyDone = 0
        var done = 0
        var failed = 0
        var discoveryComplete = false
        var discovered = started
        // The census gives the progress bar an estimated total while discovery runs: only counted when drawn.
        let census =
            progress == nil ? nil : RecordCensus.Running(inputs: configuration.inputs, limits: configuration.limits)
        var visited = 0
        let shard = configuration.shard
        let consent = policy
        // Tables of many participants (MyDataHelps) are one record: the policy also decides their rows.
        // The options of each record: its --input-config rule's or the run's, with the consent policy.
        let optionsFor = { @Sendable (source: String) -> RecordAnalysis.Options in
            var options = configuration.options(for: source, base: analysis)
            options.loader.participantConsent = consent
            return options
        }
        let parallel = max(1, jobs)
        let timeout = configuration.effectiveRecordTimeout
        try await withThrowingTaskGroup(of: BatchEntry.self) { group in
            var inFlight = 0
            func report(failure: String? = nil) {
                guard let progress else { return }
                var state = ProgressState(
                    found: seen.count, done: done, failed: failed, discoveryComplete: discoveryComplete,
                    failure: failure)
                if !discoveryComplete, let files = census?.count {
                    state.estimatedTotal = RecordCensus.estimate(found: seen.count, visited: visited, census: files)
                }
                progress(state)
            }
            func collect(_ entry: BatchEntry) throws {
                try journal.append(entry)
                inFlight -= 1
                done += 1
                summary.processedNow += 1
                if entry.status == .error {
                    failed += 1
                    report(failure: entry.source + ": " + (entry.reason ?? "failed"))
                } else {
                    report()
                }
            }
            for try await event in events {
                if census != nil { visited += RecordCensus.visited(event) }
                switch event {
                case .skipped(let source, let reason):
                    summary.skippedFiles += 1
                    summary.skipReasons[reason, default: 0] += 1
                    if reason == RecordDiscovery.SkipReason.hiddenFolder && summary.hiddenFolders.count < 20 {
                        summary.hiddenFolders.append(source)
                    }
                    if reason == RecordDiscovery.SkipReason.batchOutput && summary.outputFolders.count < 20 {
                        summary.outputFolders.append(source)
                    }
                    if reason != RecordDiscovery.SkipReason.notAnInput && reason != RecordDiscovery.SkipReason.hidden
                        && notedSkips < 20
                    {
                        notedSkips += 1
                        try log(
                            work,
                            BatchOutputs.LogEvent(shard: shardName, event: "skipped", detail: source + ": " + reason))
                    }
                case .record(let record):
                    guard seen.insert(SourceKey(record.source)).inserted else { continue }
                    switch journal.standing(of: record) {
                    case .done:
                        alreadyDone += 1
                        done += 1
                        report()
                        continue
                    case .changed:
                        // Changed on disk since its entry was written: analysed again; the new entry supersedes.
                        restamped.append((record.source, journal.contentPrefix(of: record.source)))
                    case .new:
                        break
                    }
                    report()
                    while inFlight >= parallel * 2, let entry = try await group.next() { try collect(entry) }
                    group.addTask {
                        WorkDeadline.withLimit(seconds: timeout) {
                            process(
                                record, shard: shard, consent: consent,
                                options: optionsFor(record.source), export: exporting)
                        }
                    }
                    inFlight += 1
                }
            }
            discovered = Date()
            summary.records = seen.count
            discoveryComplete = true
            report()
            while let entry = try await group.next() { try collect(entry) }
        }
        summary.discoverySeconds = discovered.timeIntervalSince(started)
        try log(
            work,
            BatchOutputs.LogEvent(
                shard: shardName, event: "discovered",
                detail:
                    "\(summary.records) records (\(alreadyDone) already done), \(summary.skippedFiles) paths skipped"
                    + (summary.skipReasons.isEmpty ? "" : " (" + BatchRunner.describe(skips: summary.skipReasons) + ")")
            ))
        try journal.synchronize()
        // What changed since an earlier session: inputs whose content differs now, inputs that are gone.
        summary.changedInputs = restamped.filter { journal.contentPrefix(of: $0.source) != $0.hash }.map(\.source)
        summary.touchedInputs = restamped.count - summary.changedInputs.count
        summary.deletedInputs = try journal.sources(notIn: seen)
        if !summary.changedInputs.isEmpty || !summary.deletedInputs.isEmpty {
            try log(
                work,
                BatchOutputs.LogEvent(
                    shard: shardName, event: "inputs-changed",
                    detail: "since the earlier session: \(summary.changedInputs.count) changed (analysed again), "
                        + "\(summary.deletedInputs.count) deleted (left out of the outputs)"
                        + (summary.changedInputs.prefix(10) + summary.deletedInputs.prefix(10)).map { "\n  " + $0 }
                        .joined()))
        }

        let analysed = Date()
        summary.analysisSeconds = analysed.timeIntervalSince(started)
        summary.otherShard = journal.otherShard
        summary.excluded = journal.excluded
        if consent != nil {
            let counts = ConsentPolicy.Exclusion.allCases.map { "\(summary.excluded[$0.rawValue] ?? 0) \($0.rawValue)" }
            try log(
                work,
                BatchOutputs.LogEvent(
                    shard: shardName, event: "consent",
                    detail: "records excluded by the consent policy (counts only): " + counts.joined(separator: ", ")))
        }
        let finishing = BatchOutputs.LogEvent(
            shard: shardName, event: "finished",
            detail:
                "\(summary.processedNow) records analysed in this session in \(String(format: "%.1f", summary.analysisSeconds)) s"
        )
        try log(work, finishing)
        // Every record is in the journal: from here a resume only writes the outputs again.
        var state = RunState(configuration: configuration, complete: false, started: exportedAt)
        state.analysed = true
        state.leftOut = summary.deletedInputs.isEmpty ? nil : summary.deletedInputs
        try saveState(state, outputFolder)
        // Extracted archives are no longer needed: moved aside at once (a later discovery never reuses a half
        // removed extraction) and removed on another thread while the outputs are written.
        let archives = work + "/archives"
        let removing = work + "/archives.removing"
        try? FileSystem.removeTree(removing)
        if FileManager.default.fileExists(atPath: archives) {
            do { try FileSystem.rename(archives, to: removing) } catch { throw BatchError(error) }
        }
        let cleanup = Task.detached { try? FileSystem.removeTree(removing) }
        try writeOutputs(
            journal: journal, state: state, outputFolder: outputFolder, exporting: exporting, summary: &summary)
        await cleanup.value
        let end = Date()
        summary.outputSeconds = end.timeIntervalSince(analysed)
        summary.elapsed = end.timeIntervalSince(started)
        return summary
    }

    /// Writes the outputs from the journal (leaving out `state.leftOut`), then marks the run complete.
    static func writeOutputs(
        journal: BatchJournal, state: RunState, outputFolder: String, exporting: BatchExport.Settings?,
        summary: inout Summary
    ) throws {
        let work = outputFolder + "/" + workFolderName
        var only: Set<SourceKey>?
        if let left = state.leftOut, !left.isEmpty {
            let leave = Set(left.map(SourceKey.init))
            only = Set(journal.known.keys.filter { !leave.contains($0) })
        }
        summary.counts = try BatchOutputs.write(
            journals: [journal.path], to: outputFolder, runLog: try readLog(work),
            runInfo: runInfo(state.configuration), export: exporting?.format, only: only,
            consent: consentArtefacts(state), recordsTable: state.configuration.recordsTableSpec)
        var done = state
        done.complete = true
        done.analysed = nil
        try saveState(done, outputFolder)
    }

    /// Analyses one record into its journal entry; never throws.
    static func process(
        _ record: BatchRecord, shard: ShardSpec?, consent: ConsentPolicy? = nil, options: RecordAnalysis.Options,
        export: BatchExport.Settings? = nil
    ) -> BatchEntry {
        // Consent comes before everything else that reads the record: an excluded record is never analysed and
        // never listed, not even as a failure.
        var exclusion: ConsentPolicy.Exclusion?
        if let consent {
            exclusion = consent.exclusion(
                keys: RecordKeys(path: record.source), recordScope: ConsentPolicy.scope(inPath: record.source))
        }
        let hash: String
        do {
            // A file refused from its type or size is never read, not even to hash it.
            if !record.isFolder, record.rejection == nil,
                let refusal = InputLoader.refusal(beforeReading: record.location, options: options.loader)
            {
                throw BatchError(
                    PathRename(from: record.location, to: record.source).text(InputProblem(refusal).description))
            }
            hash = try record.contentHash()
        } catch {
            let fallback = SHA256.hex(Data(record.source.utf8))
            if let shard, !shard.contains(hash: fallback) { return .otherShard(record, hash: fallback) }
            if let exclusion { return .excluded(record, hash: fallback, exclusion: exclusion) }
            return .failed(record, hash: fallback, reason: "\(error)")
        }
        if let shard, !shard.contains(hash: hash) { return .otherShard(record, hash: hash) }
        if let exclusion { return .excluded(record, hash: hash, exclusion: exclusion) }
        if let rejection = record.rejection { return .failed(record, hash: hash, reason: rejection) }
        var outcome = RecordAnalysis.analyze(
            recordAt: record.location, options: options,
            exporting: export.map { RecordAnalysis.Exporting(settings: $0, source: record.source) })
        // A file that failed and does not look like data (a licence, a ground-truth table) is skipped, not failed.
        if outcome.failure != nil && !record.isFolder {
            outcome.notData = DataLikeness.notDataReason(path: record.location)
        }
        return BatchEntry(record: record, hash: hash, outcome: outcome)
    }

    /// Refuses to replace an earlier run's outputs unless `force`; with `force`, removes them (and only them).
    static func prepareFreshFolder(_ folder: String, force: Bool) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw BatchError("\(folder) exists and is not a folder", kind: .cannotCreate)
            }
            let names = (try? fm.contentsOfDirectory(atPath: folder)) ?? []
            let ours = Set(
                BatchOutputs.fixedFileNames()
                    + (AnalysisRegistry.taskKinds + [.unknown]).map { BatchOutputs.fileName(kind: $0.rawValue) }
                    + BatchExport.fileNames + [workFolderName])
            var existing = names.filter {
                ours.contains($0) || FHIRBulkFiles.isBulkFile($0) || $0.hasSuffix(".partial")
            }.sorted()
            // A run stopped before it wrote run.json left only its empty work folder: nothing to protect.
            if existing == [workFolderName],
                !fm.fileExists(atPath: folder + "/" + workFolderName + "/run.json")
            {
                do { try FileSystem.removeTree(folder + "/" + workFolderName) } catch { throw BatchError(error) }
                existing = []
            }
            if !existing.isEmpty {
                guard force else {
                    let hint =
                        names.contains(workFolderName)
                        ? "pass --resume to finish that run or --force to start again" : "pass --force to replace them"
                    throw BatchError(
                        "\(folder) already holds batch outputs (\(existing.joined(separator: ", "))); \(hint)",
                        kind: .cannotCreate)
                }
                for name in existing {
                    do { try FileSystem.removeTree(folder + "/" + name) } catch { throw BatchError(error) }
                }
            }
        } else {
            do { try FileSystem.makeFolder(folder) } catch { throw BatchError(error) }
        }
    }

    /// `4 not an input, 2 a FIFO (named pipe)`: skip counts by reason, most first.
    public static func describe(skips: [String: Int]) -> String {
        skips.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            .joined(separator: ", ")
    }

    static func describe(_ configuration: BatchConfiguration, jobs: Int) -> String {
        var parts = ["inputs: " + configuration.inputs.map(\.display).joined(separator: " ")]
        if let shard = configuration.shard { parts.append("shard \(shard)") }
        if let consent = configuration.consent {
            var rule: [String] = []
            if let scope = consent.minimumScope {
                rule.append("sharing scope ≥ \(scope.rawValue) (\(consent.scopes.count) participants on file)")
            }
            if !consent.withdrawn.isEmpty { rule.append("\(consent.withdrawn.count) withdrawn participants") }
            if consent.fromRecords == true { rule.append("and the consent records among the inputs") }
            parts.append("consent: " + (rule.isEmpty ? "none" : rule.joined(separator: ", ")))
        }
        if !configuration.analysisArguments.isEmpty {
            parts.append("options: " + configuration.analysisArguments.joined(separator: " "))
        }
        if let rules = configuration.inputRules, !rules.isEmpty {
            parts.append("input rules: " + describe(rules: rules).replacingOccurrences(of: "\n", with: "; "))
        }
        parts.append("\(jobs) jobs")
        return parts.joined(separator: "; ")
    }

    /// One line per input rule: `pattern → options`.
    static func describe(rules: [InputRule]) -> String {
        rules.map { $0.match + " → " + ($0.arguments.isEmpty ? "(defaults)" : $0.arguments.joined(separator: " ")) }
            .joined(separator: "\n")
    }

    static func runInfo(_ configuration: BatchConfiguration) -> [(String, String)] {
        var info: [(String, String)] = [
            ("inputs", configuration.inputs.map(\.display).joined(separator: "\n")),
            ("options", configuration.analysisArguments.joined(separator: " ")),
            ("maxArchiveEntries", String(configuration.limits.maxEntries)),
            ("maxArchiveBytes", String(configuration.limits.maxTotalBytes)),
            ("maxEntryBytes", String(configuration.limits.maxEntryBytes)),
        ]
        if let shard = configuration.shard { info.append(("shard", shard.description)) }
        if let rules = configuration.inputRules, !rules.isEmpty {
            info.append(("inputRules", describe(rules: rules)))
        }
        return info
    }

    /// Appends one event to the run log file.
    static func log(_ work: String, _ event: BatchOutputs.LogEvent) throws {
        let path = work + "/runlog.jsonl"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(event)
        data.append(0x0A)
        do { try FileSystem.append(data, to: path) } catch { throw BatchError(error) }
    }

    /// The run log's complete lines.
    static func readLog(_ work: String) throws -> [BatchOutputs.LogEvent] {
        guard let data = FileManager.default.contents(atPath: work + "/runlog.jsonl") else { return [] }
        return data.split(separator: 0x0A).compactMap {
            try? JSONDecoder().decode(BatchOutputs.LogEvent.self, from: Data($0))
        }
    }
}
