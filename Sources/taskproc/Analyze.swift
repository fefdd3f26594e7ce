import ActiveTasks
import ArgumentParser
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs

extension OutputFormat: ExpressibleByArgument {}
extension FHIRConsentShape: ExpressibleByArgument {}
extension FHIRBundleType: ExpressibleByArgument {}

/// `taskproc analyze FILE`: summarise one recording or result.
struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse one recording, result file or task folder and print its summary.",
        discussion: """
            Audio files (WAV, FLAC, OGG/Vorbis, AIFF, CAF, RF64, W64, m4a/AAC/ALAC, ...): format and, per \
            channel, RMS/peak dBFS, crest factor, DC, clipping, dominant frequency and flatness, plus sound levels \
            (LAeq, LCeq, LZeq, LAFmax, LASmax, LAFmin, LCpeak, LA10/50/90, ResearchKit window series; dB SPL when \
            calibrated), in streaming blocks. Walking inputs (any dialect, a walking task folder): one result per \
            step with stepCount, cadence and gait features. Tapping inputs: the mhealthtools features (or \
            --tapping-variant mpower2016) and ResearchKit extras. SPL-meter results: energy mean, extremes, pass/fail. \
            dB HL tone audiometry: recorded and re-derived thresholds, dB SPL, volume defect, PTA, WHO grade \
            (--plot for an SVG audiogram); the SPL-meter step of a dB HL task is analysed too. A folder that is not one \
            task result, or a .zip archive, gives one result per input in it, in order. --format \
            researchkit|mork|fhir exports instead of printing.

            \(ExitStatus.help)
            """)

    @Argument(
        help:
            "The files or folders to analyse (a folder of independent inputs, a task folder, a .zip archive; - reads standard input).",
        completion: .file())
    var files: [String]

    /// The first input (what most invocations give).
    var file: String { files.first ?? "" }

    @OptionGroup(title: "Output")
    var out: OutputOptions

    @Flag(
        help:
            "Analyse what survives of a truncated audio file instead of failing (the result records the declared length)."
    )
    var acceptTruncated = false

    @Flag(
        help: ArgumentHelp(
            "Withhold identifying survey answers (names, e-mail, date of birth, phone, locations, a consent "
                + "signer's name and date) as \"withheld\": \"identifier\"."))
    var dropIdentifiers = false

    @Option(help: "Frames decoded per block, 1-1048576 (memory use is proportional to this).")
    var blockFrames = 65_536

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    func validate() throws {
        guard (1...AudioLimits.maximumBlockFrames).contains(blockFrames) else {
            throw ValidationError(
                "--block-frames: \(blockFrames) out of range (1…\(AudioLimits.maximumBlockFrames), AudioLimits.maximumBlockFrames)"
            )
        }
        if consentDocument != nil && consent.consentContract == nil {
            throw ValidationError("--consent-document needs --consent-contract (the terms the document attests)")
        }
    }

    @OptionGroup(title: "Accelerometer CSV")
    var csv: CSVInputOptions

    @OptionGroup(title: "Tapping")
    var tapping: TappingOptions

    @OptionGroup(title: "Feature sets")
    var features: FeatureSetOptions

    @OptionGroup(title: "Walking")
    var walking: WalkingOptions

    @OptionGroup(title: "Sound level")
    var sound: SoundLevelOptions

    @OptionGroup(title: "Tone audiometry")
    var audiometry: AudiometryOptions

    @OptionGroup(title: "Consent")
    var consent: ConsentOptions

    @Option(
        help: ArgumentHelp(
            "With --consent-contract: write the input's consent decision as a self-contained HTML consent document "
                + "(printable to PDF) that attests who signed which terms and when; --format fhir points to it by "
                + "its hashes.", valueName: "file"))
    var consentDocument: String?

    /// Every analysis option of the command line as the library's one options value.
    func analysisOptions() throws -> AnalysisOptions {
        var options = try AnalysisOptions(
            csv: csv, sound: sound, tapping: tapping, acceptTruncated: acceptTruncated, blockFrames: blockFrames)
        options.loader.readsAudioHeaders = false  // the audio analysis opens each recording once
        options.audiometry = audiometry.analysisOptions
        if dropIdentifiers { options.dropsIdentifiers = true }
        if features.featureSet != .taskproc { options.featureSet = features.featureSet }
        options.gait = walking.gaitOptions
        options.consent = try consent.rules()
        options.consentContract = try consent.contract()
        return options
    }

    /// Writes the one consent decision among `results` as a consent document.
    /// - Throws: ``CommandFailure`` 65 when the results hold no consent decision or more than one.
    func writeConsentDocument(
        _ path: String, results: [AnalysedResult], contract: ConsentContract, input: LoadedInput?, exportedAt: Date,
        renames: [PathRename]
    ) throws {
        var context =
            input.map { ExportContext(input: $0, exportedAt: exportedAt) } ?? ExportContext(exportedAt: exportedAt)
        if let participant = out.participant { context.participant = participant }
        let records = try ExportRecord.records(of: AnalysedResults(results))
        let documents = records.compactMap { record -> ConsentDocument? in
            var participant = context.participant
            if let named = record.json["participantIdentifier"]?.stringValue { participant = named }
            return ConsentDocument(
                record: record, participant: participant, contract: contract, generatedAt: context.exportedAt)
        }
        guard documents.count == 1, let document = documents.first else {
            throw CommandFailure.data(
                documents.isEmpty
                    ? "--consent-document: the input holds no consent decision (a signature, or a configured answer)"
                    : "--consent-document: the input holds \(documents.count) consent decisions; `taskproc batch "
                        + "--consent-contract` writes one document per record in consent/")
        }
        try OutputWriter.write(
            PathRename.apply(renames, to: document.html, json: false), to: path, force: out.force)
        Diagnostics.note("taskproc: consent document \(path): SHA-256 \(document.sha256)")
    }

    func run() async throws {
        guard !files.isEmpty else { throw ValidationError("give at least one file or folder to analyse") }
        let options = try analysisOptions()
        var analyses: [InputAnalysis] = []
        var loaded: [LoadedInput] = []
        guard files.filter({ $0 == "-" }).count <= 1 else {
            throw ValidationError("standard input (-) can be given once")
        }
        for argument in files {
            let path = try StandardInput.localPath(argument)
            guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.noInput(path) }
            let input: LoadedInput
            do throws(InputError) { input = try AnalysisRegistry.load(path: path, options: options.loader) } catch {
                throw CommandFailure.data(InputProblem(error).description)
            }
            loaded.append(input)
            let started = Date()
            let found = AnalysisRegistry.analyze(input, options: options)
            analyses += found
            let results = found.reduce(0) { $0 + $1.results.count }
            Diagnostics.detail(
                "taskproc analyze: \(path): read as \(input.dialect.rawValue) (\(input.taskKind.rawValue)); "
                    + "\(results) result(s), \(found.filter { $0.failure != nil }.count) input(s) not analysed, "
                    + String(format: "%.3f s", Date().timeIntervalSince(started)))
        }
        let results = analyses.flatMap(\.results)
        // Every input that gave nothing, with the reason (the registry always gives one).
        let failed = analyses.compactMap { a in a.failure.map { $0.hasPrefix(a.path + ": ") ? $0 : "\(a.path): \($0)" }
        }
        let unreadable = analyses.flatMap { $0.problems.filter { $0.severity == .error } }
        guard !results.isEmpty else {
            throw CommandFailure.data(
                failed.isEmpty
                    ? "nothing to analyse in \(files.joined(separator: " "))" : failed.joined(separator: "\n  "))
        }
        try plotAudiograms(results)
        // Inputs read from a ZIP archive are named `archive.zip!/entry`, never by the temporary extraction folder.
        let renames = loaded.flatMap(\.archiveRenames)
        // One export time for the export and the consent document, so the hashes the export holds are the file's.
        let exportedAt = Date()
        var consentShape = ConsentShape(contract: options.consentContract, documentURL: nil)
        if let consentDocument {
            consentShape.documentURL = URL(fileURLWithPath: consentDocument).lastPathComponent
        }
        if results.count == 1, let summary = results[0].result as? AudioFileSummary, analyses.count == 1 {
            // A single recording gives its summary object, as it always has.
            try out.emit(summary, input: loaded.count == 1 ? loaded[0] : nil, renames: renames)
        } else {
            try out.emit(
                AnalysedResults(results), input: loaded.count == 1 ? loaded[0] : nil, renames: renames,
                exportedAt: exportedAt, consent: consentShape)
        }
        if let consentDocument, let contract = options.consentContract {
            try writeConsentDocument(
                consentDocument, results: results, contract: contract, input: loaded.count == 1 ? loaded[0] : nil,
                exportedAt: exportedAt, renames: renames)
        }
        for reason in failed {
            printError("taskproc: not analysed: " + PathRename.apply(renames, to: reason, json: false))
        }
        if !failed.isEmpty || !unreadable.isEmpty {
            let parts = unreadable.isEmpty ? "" : "\(unreadable.count) part(s) could not be read; "
            printError(
                "taskproc: partial result: \(parts)\(failed.count) input(s) not analysed; run `taskproc inspect` for details"
            )
            throw ExitCode(ExitStatus.partial)
        }
    }
}
