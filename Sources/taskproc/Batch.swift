import ActiveTasks
import Archives
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// `taskproc batch PATH… -o DIR`: analyse every record of an export into analysis-ready tables.
struct Batch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse every record of an export (folders or .zip files) into JSONL, CSV and SQLite tables.",
        discussion: """
            Finds every record under the paths (task folders, result files, recorder logs, tapping tables, audio \
            files; inside .zip archives too), analyses them on all cores and writes into --output: results.jsonl, \
            errors.jsonl, one CSV per task kind (every row with participant, date, startTime and quality flags), \
            columns.csv (the unit, definition and type of each of their columns), the study tables \
            participant_day.csv, participant_week.csv, surveys_wide.csv and adherence.csv, and taskproc.sqlite, in \
            source order whatever the parallelism. \
            A killed run is finished by `taskproc batch --resume -o DIR`; `--shard K/N` processes one of N \
            partitions, combined afterwards by `taskproc merge`. Exit status: 0 when every record was analysed, 2 \
            when some failed (their reasons are in errors.jsonl), 65 when every record failed (or, with --strict, \
            when any failed), 66 when an input is missing, 73 when --output holds earlier outputs, 64 for a usage \
            error.
            """)

    @Argument(help: "Folders, files or .zip archives to search (optional with --resume).", completion: .file())
    var paths: [String] = []

    @OptionGroup(title: "Output") var outputFolder: OutputFolderOption

    /// The output folder (`-o/--output`, or the older `--out`).
    var out: String { outputFolder.path }

    @Flag(help: "Finish the interrupted run stored in --output (same inputs and options).")
    var resume = false

    @Flag(help: "Replace earlier batch outputs in --output.")
    var force = false

    @Flag(help: "Exit with status 65 (not 2) if any record failed.")
    var strict = false

    @Option(
        help: "Process only partition K of N (K/N, 1-based), chosen by content hash; combine with `taskproc merge`.")
    var shard: String?

    @Option(name: .customLong("jobs"), help: "Records analysed in parallel (default: the number of cores).")
    var jobsOption: Int?

    /// Records analysed in parallel: `--jobs`, else the number of cores.
    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }

    /// Most parallel jobs: 1024 (records in flight are 2 × jobs, each up to ≈ 250 MB; see README "Limits").
    static let maximumJobs = 1024

    @Option(help: "Most entries one .zip archive may hold.")
    var maxArchiveEntries: Int = ArchiveLimits().maxEntries

    @Option(help: "Most bytes the run's .zip archives may decompress to, all together (nested ones included).")
    var maxArchiveBytes: Int64 = ArchiveLimits().maxTotalBytes

    @Option(
        help: ArgumentHelp(
            "Most seconds one record's analysis may take; a record over it fails with the reason and the run goes on "
                + "(0: no limit).", valueName: "seconds"))
    var recordTimeout: Double = BatchConfiguration.defaultRecordTimeout

    @Option(
        help: ArgumentHelp(
            "The study's own record table (a CSV such as a Synapse or Bridge table export) whose columns are added to "
                + "every row of the record it describes (docs/batch.md).", valueName: "file"),
        completion: .file())
    var recordsTable: String?

    @Option(help: "The records table's column holding each record's recordId (or taskRunUUID); default recordId.")
    var recordsTableKey: String?

    @Option(help: "Most bytes one .zip entry or one gzip file may decompress to (536870912 bytes = 512 MiB).")
    var maxEntryBytes: Int64 = ArchiveLimits().maxEntryBytes

    @Option(
        help: ArgumentHelp(
            "Process only records whose participant shared at least this widely (Bridge userSharingScope): "
                + "no_sharing, sponsors_and_partners or all_qualified_researchers. Scopes come from --sharing-scopes "
                + "or a userSharingScope=... folder; a record with no scope on file is excluded.",
            valueName: "scope"))
    var sharingScope: String?

    @Option(
        help: ArgumentHelp(
            "Participants' scopes: a CSV (a userSharingScope column and healthCode, ParticipantIdentifier, "
                + "externalId or recordId), or FHIR Consent JSON such as export.fhir.jsonl of a batch with "
                + "--format fhir (the consent signatures' sharing choice; a declined consent is no_sharing).",
            valueName: "file"), completion: .file())
    var sharingScopes: String?

    @Option(
        help: ArgumentHelp(
            "Participants who declined or withdrew: a text file of identifiers, or FHIR Consent/Contract JSON "
                + "(alone, in an array or a Bundle). Repeatable.", valueName: "file"), completion: .file())
    var withdrawals: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Before analysing, read the consent records among the inputs: a declined consent signature withdraws "
                + "its participant, a sharing choice gives the participant's scope for --sharing-scope (the "
                + "participant is named by the record's path: healthCode=.../, ParticipantIdentifier=.../ or "
                + "SurveyData/<participant>/)."))
    var consentFromRecords = false

    @OptionGroup(title: "Consent")
    var consent: ConsentOptions

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Hand the results over as this export too: export.<format>.jsonl beside the JSON and CSV tables, which are always written (see docs/exports.md).",
            valueName: "format"))
    var exportFormat: BatchExportFormat?

    @OptionGroup var exportShape: ExportShapeOptions

    /// `--mork-config`.
    var morkConfig: String? { exportShape.morkConfig }
    /// `--fhir-consent`.
    var fhirConsent: FHIRConsentShape? { exportShape.fhirConsent }

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    @Flag(help: "Analyse what survives of truncated audio files instead of failing them.")
    var acceptTruncated = false

    @Flag(
        help: ArgumentHelp(
            "Withhold identifying survey answers (names, e-mail, date of birth, phone, locations, a consent "
                + "signer's name and date) as \"withheld\": \"identifier\"."))
    var dropIdentifiers = false

    @OptionGroup(title: "Accelerometer CSV")
    var csv: CSVInputOptions

    @Option(
        help: ArgumentHelp(
            "Reader options by file pattern, for folders that mix devices: a JSON file "
                + "{\"rules\": [{\"match\": \"shimmer/*.tsv\", \"options\": [\"--skip-lines\", \"3\"]}]}; the first "
                + "matching rule's options replace the accelerometer-CSV options above for its files (docs/batch.md).",
            valueName: "file"))
    var inputConfig: String?

    @OptionGroup(title: "Tapping")
    var tapping: TappingOptions

    @OptionGroup(title: "Feature sets")
    var features: FeatureSetOptions

    @OptionGroup(title: "Walking")
    var walking: WalkingOptions

    @OptionGroup(title: "Sound level (audio recordings and SPL-meter results)")
    var sound: SoundLevelOptions

    @OptionGroup var version: ResearchKitVersionOption

    /// The ResearchKit release that recorded the dB HL results (`--researchkit-version`).
    var researchKitVersion: ResearchKitVersion { version.value }

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    func validate() throws {
        if !resume && paths.isEmpty { throw ValidationError("give at least one path to analyse (or --resume)") }
        if resume && force { throw ValidationError("--resume and --force contradict each other") }
        if let shard, ShardSpec(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, got '\(shard)'")
        }
        guard (1...Self.maximumJobs).contains(jobs) else {
            throw ValidationError("--jobs: \(jobs) out of range (1…\(Self.maximumJobs))")
        }
        if let option = exportShape.givenFHIROption, exportFormat?.outputFormat != .fhir {
            throw ValidationError("\(option) applies to --format fhir only")
        }
        try exportShape.validateFHIR()
        if morkConfig != nil && exportFormat?.outputFormat != .mork {
            throw ValidationError("--mork-config applies to --format mork only")
        }
        if let scope = sharingScope, SharingScope(text: scope) == nil {
            throw ValidationError(
                "--sharing-scope: expected " + SharingScope.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", got \"\(scope)\"")
        }
        if sharingScopes != nil && sharingScope == nil {
            throw ValidationError("--sharing-scopes needs --sharing-scope (the minimum scope to process)")
        }
        if resume && (sharingScope != nil || !withdrawals.isEmpty || consentFromRecords) {
            throw ValidationError(
                "--resume keeps the stored run's consent policy; do not give --sharing-scope, --withdrawals or "
                    + "--consent-from-records")
        }
        guard recordTimeout.isFinite, (0...10_000_000).contains(recordTimeout) else {
            throw ValidationError("--record-timeout must be 0 (no limit) … 10000000 seconds, got \(recordTimeout)")
        }
        if resume && inputConfig != nil {
            throw ValidationError("--resume keeps the stored run's --input-config rules; do not give it")
        }
        if resume && (recordsTable != nil || recordsTableKey != nil) {
            throw ValidationError(
                "--resume keeps the stored run's --records-table; do not give it (`taskproc summarize` reads it again)")
        }
        if recordsTableKey != nil && recordsTable == nil {
            throw ValidationError("--records-table-key needs --records-table")
        }
        if resume && recordTimeout != BatchConfiguration.defaultRecordTimeout {
            throw ValidationError("--resume keeps the stored run's --record-timeout; do not give it")
        }
        guard maxArchiveEntries >= 1, maxArchiveBytes >= 1, maxEntryBytes >= 1 else {
            throw ValidationError("archive limits must be positive")
        }
    }

    /// The analysis options as arguments, stored with the run so `--resume` re-creates them.
    var analysisArguments: [String] {
        var args: [String] = []
        if let t = csv.timeColumn { args += ["--time-column", t] }
        if let a = csv.accelerationColumns { args += ["--acceleration-columns", a] }
        if let u = csv.timeUnit { args += ["--time-unit", u.rawValue] }
        if let u = csv.accelerationUnit { args += ["--acceleration-unit", u.rawValue] }
        if let g = csv.gyroscopeColumns { args += ["--gyroscope-columns", g] }
        if let u = csv.gyroscopeUnit { args += ["--gyroscope-unit", u.rawValue] }
        if csv.noHeader { args.append("--no-header") }
        if tapping.variant != .mhealthtools { args += ["--tapping-variant", tapping.variant.rawValue] }
        if tapping.depressThreshold != 20 { args += ["--depress-threshold", String(tapping.depressThreshold)] }
        if researchKitVersion != .current {
            let v = researchKitVersion
            args += ["--researchkit-version", v.patch == 0 ? "\(v.major).\(v.minor)" : v.description]
        }
        if acceptTruncated { args.append("--accept-truncated") }
        if dropIdentifiers { args.append("--drop-identifiers") }
        if features.featureSet != .taskproc { args += ["--feature-set", features.featureSet.rawValue] }
        args += walking.arguments
        if let c = consent.consentConfig { args += ["--consent-config", RecordDiscovery.Input(c).absolute] }
        if let c = consent.consentContract { args += ["--consent-contract", RecordDiscovery.Input(c).absolute] }
        return args
    }

    /// Loading and analysis options from stored arguments.
    /// The analysis options of a run stored by a taskproc that kept only the command-line arguments.
    static func analysisOptions(_ arguments: [String]) throws -> RecordAnalysis.Options {
        try Batch.parse(["-", "--output", "-"] + arguments).analysisOptions()
    }

    /// Every analysis option of the command line as the library's one options value (stored with the run).
    func analysisOptions() throws -> AnalysisOptions {
        var options = try AnalysisOptions(
            csv: csv, sound: sound, tapping: tapping, acceptTruncated: acceptTruncated,
            blockFrames: AudioAnalysisOptions().blockFrames)
        options.audiometry.researchKitVersion = researchKitVersion
        if dropIdentifiers { options.dropsIdentifiers = true }
        if features.featureSet != .taskproc { options.featureSet = features.featureSet }
        options.gait = walking.gaitOptions
        options.consent = try consent.rules()
        options.consentContract = try consent.contract()
        return options
    }

    /// The rules of an `--input-config` file, each rule's reader options parsed as the command line's are and
    /// put in place of them in `base` (the input limits stay the command line's unless the rule gives them).
    /// - Throws: `ValidationError` (64) naming the file and the rule for an option that is not a reader option
    ///   or a bad value; ``CommandFailure`` for a file that cannot be read or is not the expected JSON.
    static func inputRules(_ path: String, base: AnalysisOptions?) throws -> [InputRule] {
        let rules: [InputRulesFile.Rule]
        do { rules = try InputRulesFile.read(path) } catch { throw CommandFailure(error) }
        return try rules.enumerated().map { i, rule in
            let parsed: CSVInputOptions
            do {
                parsed = try CSVInputOptions.parse(rule.options)
            } catch {
                throw ValidationError(
                    "\(path): rule \(i + 1) (\(rule.match)): " + CSVInputOptions.message(for: error)
                        + " (a rule takes the accelerometer-CSV options: --delimiter, --skip-lines, --sample-rate, "
                        + "--time-column, --acceleration-columns, --time-unit, --acceleration-unit, "
                        + "--gyroscope-columns, --gyroscope-unit, --no-header, --max-input-bytes, --max-samples)")
            }
            var analysis = base ?? AnalysisOptions()
            let loader = parsed.loaderOptions
            analysis.loader.accelerometerCSV = loader.accelerometerCSV
            if parsed.limits.maxInputBytes != nil { analysis.loader.maxParsedBytes = loader.maxParsedBytes }
            if parsed.limits.maxSamples != nil { analysis.loader.maxSamplesPerLog = loader.maxSamplesPerLog }
            return InputRule(match: rule.match, arguments: rule.options, analysis: analysis)
        }
    }

    /// The consent policy the options describe; nil when they ask for none.
    func consentPolicy() throws -> ConsentPolicy? {
        guard sharingScope != nil || !withdrawals.isEmpty || consentFromRecords else { return nil }
        var policy = ConsentPolicy()
        if consentFromRecords { policy.fromRecords = true }
        policy.minimumScope = sharingScope.flatMap(SharingScope.init(text:))
        do {
            if let file = sharingScopes { try policy.addScopes(file: file) }
            for file in withdrawals { try policy.addWithdrawals(file: file) }
        } catch let error as ExportError {
            throw ValidationError(error.description)
        }
        return policy
    }

    func run() async throws {
        let outFolder = RecordDiscovery.Input(out).absolute
        var configuration: BatchConfiguration
        var limits = ArchiveLimits()
        limits.maxEntries = maxArchiveEntries
        limits.maxTotalBytes = maxArchiveBytes
        limits.maxEntryBytes = maxEntryBytes
        for path in paths where !FileManager.default.fileExists(atPath: path) { throw CommandFailure.noInput(path) }
        var requested = BatchConfiguration(
            inputs: paths.map { RecordDiscovery.Input($0) }, shard: shard.flatMap(ShardSpec.init), limits: limits,
            analysisArguments: analysisArguments, consent: try consentPolicy())
        if !resume {
            requested.analysis = try analysisOptions()
            requested.exportFormat = exportFormat?.rawValue
            requested.morkConfigurationFile = morkConfig.map { RecordDiscovery.Input($0).absolute }
            requested.fhirConsent = fhirConsent?.rawValue
            requested.fhirBundle = exportShape.fhirBundle?.rawValue
            requested.fhirSubjectSystem = exportShape.fhirSubjectSystem
            requested.fhirPatient = exportShape.fhirPatient ? true : nil
            if recordTimeout != BatchConfiguration.defaultRecordTimeout { requested.recordTimeout = recordTimeout }
            if let recordsTable {
                guard FileManager.default.fileExists(atPath: recordsTable) else {
                    throw CommandFailure.noInput(recordsTable)
                }
                requested.recordsTable = RecordDiscovery.Input(recordsTable).absolute
                requested.recordsTableKey = recordsTableKey
            }
            if let inputConfig { requested.inputRules = try Self.inputRules(inputConfig, base: requested.analysis) }
        }
        if resume {
            do {
                configuration = try BatchRunner.storedConfiguration(outputFolder: outFolder)
            } catch let error as BatchError {
                throw CommandFailure(error)
            }
            if let format = exportFormat, format.rawValue != configuration.exportFormat {
                throw ValidationError(
                    "--resume: the stored run exports \(configuration.exportFormat ?? "nothing"), not \(format.rawValue); resume without --format, or start again with --force"
                )
            }
            if !paths.isEmpty && requested.inputs.map(\.absolute) != configuration.inputs.map(\.absolute) {
                throw ValidationError(
                    "--resume: the paths differ from the stored run's (\(configuration.inputs.map(\.display).joined(separator: " "))); give none"
                )
            }
        } else {
            configuration = requested
        }
        // Runs stored before the options were kept as a value carry only their arguments.
        let options = try configuration.analysis ?? Self.analysisOptions(configuration.analysisArguments)
        let verbosity = Diagnostics.verbosity
        let bar =
            !noProgress && verbosity > .quiet && BatchProgressBar.stderrIsTerminal ? BatchProgressBar() : nil
        let summary: BatchRunner.Summary
        var progress: BatchRunner.Progress?
        if bar != nil || verbosity == .verbose {
            progress = { state in
                if let failure = state.failure, verbosity == .verbose {
                    bar?.clearLine()
                    printError("taskproc batch: failed: " + failure)
                }
                bar?.update(state)
            }
        }
        Diagnostics.detail(
            "taskproc batch: \(configuration.inputs.map(\.display).joined(separator: " ")) -> \(outFolder); "
                + "\(jobs) job(s)" + (configuration.shard.map { "; shard \($0)" } ?? "")
                + (resume ? "; resuming" : ""))
        let mode: BatchRunner.Mode = resume ? .resume : .fresh(force: force)
        do {
            summary = try await BatchRunner.run(
                configuration: configuration, analysis: options, outputFolder: outFolder, mode: mode, jobs: jobs,
                progress: progress)
        } catch let error as BatchError {
            bar?.finish()
            throw CommandFailure(error)
        }
        bar?.finish()
        if let note = summary.lockNote { Diagnostics.note("taskproc batch: warning: " + note) }
        if !summary.changedInputs.isEmpty || !summary.deletedInputs.isEmpty || summary.touchedInputs > 0 {
            var text =
                "taskproc batch: warning: the inputs changed since the earlier session: "
                + "\(summary.changedInputs.count) record(s) changed (analysed again), "
                + "\(summary.deletedInputs.count) deleted (left out of the outputs)"
            if summary.touchedInputs > 0 { text += ", \(summary.touchedInputs) touched but unchanged" }
            for source in summary.changedInputs.prefix(3) { text += "\n  changed: " + source }
            for source in summary.deletedInputs.prefix(3) { text += "\n  deleted: " + source }
            Diagnostics.note(text)
        }
        if !summary.quarantined.isEmpty {
            printError(
                "taskproc batch: warning: \(summary.quarantined.count) damaged journal line(s) set aside in "
                    + "\(outFolder)/\(BatchRunner.workFolderName)/quarantine.jsonl (their records were analysed again): "
                    + summary.quarantined.prefix(3).map(\.description).joined(separator: "; "))
        }
        Self.report(summary, shard: configuration.shard, out: out)
        Self.warnUndocumented(summary.counts, command: "batch", out: outFolder)
        // The export is written with the other outputs; say what it holds.
        if let format = configuration.export, !summary.alreadyComplete {
            let c = summary.counts
            var text =
                "taskproc batch: \(c.exported) records exported to \(outFolder)/\(BatchExport.fileName(format))\n"
            for (note, count) in c.exportNotes.sorted(by: { $0.key < $1.key }) { text += "  \(count)× \(note)\n" }
            if !c.exportErrors.isEmpty {
                text +=
                    "  \(c.exportErrors.count) analysed records could not be exported (their results are in results.jsonl):\n"
                for error in c.exportErrors.prefix(3) { text += "    \(error)\n" }
                if c.exportErrors.count > 3 { text += "    … and \(c.exportErrors.count - 3) more\n" }
            }
            if c.exportErrors.isEmpty { Diagnostics.note(text) } else { printError(text) }
            if !c.exportErrors.isEmpty {
                throw ExitCode(c.exported == 0 ? ExitStatus.dataError : ExitStatus.partial)
            }
        }
        if summary.records == 0 && !summary.alreadyComplete {
            var text = "no records found under \(configuration.inputs.map(\.display).joined(separator: " "))"
            if !summary.hiddenFolders.isEmpty {
                text +=
                    "; hidden folders were not searched (give one as an input to search it): "
                    + summary.hiddenFolders.prefix(5).joined(separator: ", ")
            }
            throw CommandFailure.data(text)
        }
        if summary.counts.succeeded == 0 && summary.counts.failed == 0 && summary.counts.notData > 0 {
            throw CommandFailure.data(
                "no data found under \(configuration.inputs.map(\.display).joined(separator: " ")): "
                    + "\(summary.counts.notData) file(s) skipped as not data, reasons in "
                    + "\(outFolder)/\(BatchOutputs.skippedFileName)")
        }
        if summary.allFailed || (strict && summary.counts.failed > 0) { throw ExitCode(ExitStatus.dataError) }
        if summary.counts.failed > 0 { throw ExitCode(ExitStatus.partial) }
    }

    /// Warns about CSV columns the documentation does not define (`columns.csv` says "(undocumented)").
    static func warnUndocumented(_ counts: BatchOutputs.Counts, command: String, out: String) {
        if let table = counts.recordsTable {
            var text = "taskproc \(command): records table: \(table.matched) of \(table.records) records found "
            text += "their row (\(table.rows) rows)"
            if table.matched < table.records { text += "; the others have blank records-table columns" }
            Diagnostics.note(text + "\n")
        }
        let columns = counts.undocumentedColumns
        guard !columns.isEmpty else { return }
        var text =
            "taskproc \(command): warning: \(columns.count) CSV column(s) have no documented definition "
            + "(\"\(ColumnDictionary.undocumented)\" in \(out)/\(BatchOutputs.columnsFileName)): "
            + columns.prefix(5).joined(separator: ", ")
        if columns.count > 5 { text += ", … and \(columns.count - 5) more" }
        Diagnostics.note(text + "\n")
    }

    /// The final summary on standard error.
    static func report(_ s: BatchRunner.Summary, shard: ShardSpec?, out: String) {
        var text = "taskproc batch: "
        if s.alreadyComplete { text += "already complete; " }
        text += "\(s.records) records"
        if let shard { text += " (shard \(shard): \(s.records - s.otherShard) in this shard)" }
        text += ": \(s.counts.succeeded) analysed"
        if s.counts.partial > 0 { text += " (\(s.counts.partial) partly unreadable)" }
        text += ", \(s.counts.failed) failed"
        if s.counts.notData > 0 {
            text += ", \(s.counts.notData) skipped as not data (\(BatchOutputs.skippedFileName))"
        }
        let excluded = s.excluded.values.reduce(0, +)
        if excluded > 0 {
            text +=
                "; \(excluded) excluded by consent ("
                + s.excluded.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")"
        }
        if s.skippedFiles > 0 {
            text += "; \(s.skippedFiles) paths skipped (" + BatchRunner.describe(skips: s.skipReasons) + ")"
        }
        if !s.counts.rowsByKind.isEmpty {
            text +=
                "; rows: "
                + s.counts.rowsByKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        if !s.alreadyComplete {
            let rate = s.elapsed > 0 ? Double(s.processedNow) / s.elapsed : 0
            text += String(
                format:
                    "; %d processed in %.1f s (%.0f records/s; all found after %.1f s, all analysed after %.1f s, outputs %.1f s)",
                s.processedNow, s.elapsed, rate, s.discoverySeconds, s.analysisSeconds, s.outputSeconds)
        }
        if let documents = s.counts.consentDocuments {
            text += "\n  consent documents: \(documents) in \(ConsentArtefacts.folderName)/ (index.csv, SHA256SUMS)"
        }
        if let scan = s.consentScan {
            text += "\n  consent from records: " + scan.summary
            for source in scan.unattributed.prefix(3) { text += "\n    no participant key in the path: \(source)" }
        }
        if !s.hiddenFolders.isEmpty {
            let count = s.skipReasons[RecordDiscovery.SkipReason.hiddenFolder] ?? s.hiddenFolders.count
            text +=
                "\n  \(count) hidden folder(s) not searched (give one as an input to search it): "
                + s.hiddenFolders.prefix(5).joined(separator: ", ") + (count > 5 ? ", …" : "")
        }
        if !s.outputFolders.isEmpty {
            let own = URL(fileURLWithPath: out).standardizedFileURL.path
            let named = s.outputFolders.prefix(5).map { folder in
                let path = URL(fileURLWithPath: folder).standardizedFileURL.path
                return path == own ? folder + " (this run's --output)" : folder
            }
            text += "\n  batch output folders not read as input: " + named.joined(separator: ", ")
        }
        text += "\n  outputs in \(out)" + (s.counts.failed > 0 ? "; reasons in \(out)/errors.jsonl" : "") + "\n"
        if Diagnostics.verbosity > .quiet {
            printError(text)
        } else if s.counts.failed > 0 {
            // Quiet: the failures are errors and still said, in one line.
            printError(
                "taskproc batch: \(s.counts.failed) of \(s.counts.succeeded + s.counts.failed) records failed; reasons in "
                    + "\(out)/errors.jsonl")
        }
    }
}
