import ActiveTasks
import Archives
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

#if canImport(Glibc)
    import Glibc
#endif

/// `-o/--output` and `--force`: where a command that prints a result writes it.
struct OutputDestination: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: "Write the result to this file instead of standard output (never overwrites; see --force).")
    var output: String?

    @Flag(help: "Overwrite the --output file if it exists.")
    var force = false

    /// Writes `text` to `--output`, or to standard output.
    func write(_ text: String) throws { try OutputWriter.write(text, to: output, force: force) }
}

/// `-o/--output DIR`, the output folder of `batch` and `merge`; `--out` is accepted as the older spelling but
/// hidden from `--help`.
struct OutputFolderOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output folder (created if missing).", completion: .directory)
    var output: String?

    @Option(
        name: .customLong("out"), help: ArgumentHelp("The older spelling of --output.", visibility: .hidden),
        completion: .directory)
    var olderSpelling: String?

    /// The folder, whichever spelling gave it.
    var path: String { output ?? olderSpelling ?? "" }

    func validate() throws {
        switch (output, olderSpelling) {
        case (nil, nil): throw ValidationError("give the output folder with -o/--output")
        case (.some, .some):
            throw ValidationError("give the output folder once (-o/--output; --out is its older spelling)")
        default: break
        }
    }
}

/// The consent contract an export follows and the consent document it points to (`analyze --consent-contract`,
/// `--consent-document`).
struct ConsentShape {
    /// The contract; nil: none.
    var contract: ConsentContract?
    /// The document's file name; nil: none.
    var documentURL: String?
}

/// How the export formats are shaped, declared once for `analyze` and `batch`: `--mork-config` (with `--format
/// mork`) and `--fhir-consent` (with `--format fhir`); each command checks the pairing against its own `--format`.
struct ExportShapeOptions: ParsableArguments {
    @Option(
        help: "For --format mork: a JSON file with the form_data envelope and item-OID overrides (see docs/exports.md)."
    )
    var morkConfig: String?

    @Option(help: "For --format fhir: a consent signature as an R4 Consent (default) or C3-PRO's signed Contract.")
    var fhirConsent: FHIRConsentShape?

    @Option(
        help:
            "For --format fhir: the Bundle type, collection (default) or transaction (conditional creates a server runs)."
    )
    var fhirBundle: FHIRBundleType?

    @Option(help: "For --format fhir: the identifier system (a URI) of participant identifiers.")
    var fhirSubjectSystem: String?

    @Flag(help: "For --format fhir: write a Patient per participant and reference it from every resource.")
    var fhirPatient = false

    /// The FHIR settings these options give (defaults where not given).
    var fhirSettings: FHIRExport.Settings {
        var settings = FHIRExport.Settings()
        if let fhirConsent { settings.consentShape = fhirConsent }
        if let fhirBundle { settings.bundleType = fhirBundle }
        settings.subjectSystem = fhirSubjectSystem
        settings.includesPatient = fhirPatient
        return settings
    }

    /// The first FHIR option given, for the error when the format is not fhir.
    var givenFHIROption: String? {
        if fhirConsent != nil { return "--fhir-consent" }
        if fhirBundle != nil { return "--fhir-bundle" }
        if fhirSubjectSystem != nil { return "--fhir-subject-system" }
        return fhirPatient ? "--fhir-patient" : nil
    }

    /// Checks the FHIR options' values: the subject system must be an absolute URI.
    func validateFHIR() throws {
        if let system = fhirSubjectSystem {
            guard let colon = system.firstIndex(of: ":"), colon != system.startIndex,
                !system.contains(where: \.isWhitespace)
            else {
                throw ValidationError(
                    "--fhir-subject-system must be an absolute URI (such as https://example.org/participants), got '\(system)'"
                )
            }
        }
    }
}

/// `analyze`'s output options: any ``OutputFormat`` (the results, or an export of them), and where to write it.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help:
            "Output format: json, table, csv, or an export: researchkit (ORKStepResult JSON), mork (Medidata Rave form_data) or fhir (FHIR R4 Bundle)."
    )
    var format: OutputFormat = .json

    @OptionGroup var exportShape: ExportShapeOptions

    @Option(help: "Participant identifier for the export formats (default: from the input, e.g. a MyDataHelps path).")
    var participant: String?

    /// `--mork-config`.
    var morkConfig: String? { exportShape.morkConfig }
    /// `--fhir-consent`.
    var fhirConsent: FHIRConsentShape? { exportShape.fhirConsent }

    @OptionGroup var destination: OutputDestination

    /// The `--output` file; nil for standard output.
    var output: String? { destination.output }
    /// Whether `--force` was given.
    var force: Bool { destination.force }

    func validate() throws {
        if morkConfig != nil && format != .mork { throw ValidationError("--mork-config applies to --format mork only") }
        if let option = exportShape.givenFHIROption, format != .fhir {
            throw ValidationError("\(option) applies to --format fhir only")
        }
        try exportShape.validateFHIR()
    }

    /// Renders `result` in the chosen format and writes it; `input` gives the export formats their dates,
    /// identifiers and participant.
    func emit(
        _ result: some RenderableResult, input: LoadedInput? = nil,
        renames: [PathRename] = [], exportedAt: Date = Date(), consent: ConsentShape = ConsentShape()
    ) throws {
        let context =
            input.map { ExportContext(input: $0, exportedAt: exportedAt) } ?? ExportContext(exportedAt: exportedAt)
        let export = ExportOptions(context: context)
        if let participant { export.context.participant = participant }
        export.fhir = exportShape.fhirSettings
        export.fhir.consentContract = consent.contract
        export.fhir.consentDocumentURL = consent.documentURL
        if format == .mork, let morkConfig {
            do { export.mork = try MORKExport.Configuration(file: morkConfig) } catch let error as ExportError {
                throw CommandFailure.data(error.description)
            }
        }
        let text: String
        do { text = try ResultEncoding.render(result, as: format, export: export) } catch let error as ExportError {
            let file = input.map { $0.path + ": " } ?? ""
            throw CommandFailure.data(file + error.description)
        }
        let json = format == .json || format.isExport
        try destination.write(PathRename.apply(renames, to: text, json: json))
        for note in export.notes {
            Diagnostics.note("taskproc: \(format.rawValue): \(note)")
        }
    }
}

/// The `--format` values one command accepts: a subset of ``OutputFormat``, the one format type of every command.
///
/// `--format F` means the same in every command: the command hands over its results in `F`. `analyze` prints them
/// (or writes `--output`) in any format; `inspect` prints a description of files, which has no export form; `batch`
/// always keeps its results as JSON and CSV (`results.jsonl`, `<kind>.csv`: the run itself, which `--resume` and
/// `merge` read) and hands them over as an export, written as `export.<format>.jsonl`.
protocol FormatChoices {
    /// The accepted formats, in the order help lists them.
    static var accepted: [OutputFormat] { get }
}

/// One `--format` value of a command whose choices are `Choices`.
///
/// An ``OutputFormat`` that command accepts; a refused value is a usage error (64) that lists the accepted ones.
struct FormatOption<Choices: FormatChoices>: ExpressibleByArgument, Equatable, Sendable {
    /// The format.
    var outputFormat: OutputFormat

    /// A format the command accepts.
    init(_ format: OutputFormat) { outputFormat = format }

    /// Parses an accepted format's name; nil otherwise.
    init?(argument: String) {
        guard let format = OutputFormat(rawValue: argument), Choices.accepted.contains(format) else { return nil }
        outputFormat = format
    }

    /// The accepted names.
    static var allValueStrings: [String] { Choices.accepted.map(\.rawValue) }

    /// The format's name.
    var defaultValueDescription: String { outputFormat.rawValue }

    /// The format's name.
    var rawValue: String { outputFormat.rawValue }
}

/// `inspect`'s formats: an inspection describes files rather than measuring a participant, so it has no export
/// (researchkit, mork, fhir) form.
enum InspectFormats: FormatChoices {
    static let accepted: [OutputFormat] = [.json, .table, .csv]
}

/// `batch`'s formats: the exports, written beside the run's JSON and CSV tables.
enum BatchFormats: FormatChoices {
    static let accepted: [OutputFormat] = OutputFormat.allCases.filter(\.isExport)
}

/// What `inspect --format` takes.
typealias InspectFormat = FormatOption<InspectFormats>
/// What `batch --format` takes.
typealias BatchExportFormat = FormatOption<BatchFormats>

/// Writes command output to standard output or, atomically, to a file.
enum OutputWriter {
    /// Writes `text` to `path`, or to standard output when `path` is nil.
    ///
    /// A file is written atomically (a sibling renamed over it), refusing to replace an existing one unless
    /// `force`; an existing device or FIFO (with `force`) is opened and written, never renamed over.
    static func write(_ text: String, to path: String?, force: Bool) throws {
        guard let path else {
            do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch {
                throw CommandFailure.io("cannot write standard output: \(Self.reason(error))")
            }
            return
        }
        try stream(to: path, force: force) { write in try write(text) }
    }

    /// Streams text into `path` as `produce` hands it over, with ``write(_:to:force:)``'s rules: a regular file is
    /// written to a sibling and renamed over the target at the end (a failure leaves no partial file), a device or
    /// FIFO is written in place. Never holds the whole text. Failures are `PATH: cannot write: REASON`, 73 when the
    /// file cannot be created, 74 for an I/O error such as a full disk.
    static func stream<T>(to path: String, force: Bool, _ produce: ((String) throws -> Void) throws -> T) throws -> T {
        let target = OutputTarget(path: path)
        if !force && target.exists {
            throw CommandFailure.cannotCreate("\(path) exists; pass --force to overwrite it")
        }
        if target.isDirectory { throw CommandFailure.cannotCreate("\(path): is a folder; name a file") }
        let temporary = target.isSpecial ? path : target.temporarySibling()
        func failure(_ error: FileFailure) -> CommandFailure {
            CommandFailure(
                status: error.category == .cannotCreate ? ExitStatus.cannotCreate : ExitStatus.ioError,
                message: "\(path): cannot write: \(error.reason)")
        }
        let sink: BufferedOutput
        do {
            sink = target.isSpecial ? try BufferedOutput(existing: path) : try BufferedOutput(replacing: temporary)
        } catch {
            throw failure(error)
        }
        do {
            let value = try produce { text in try sink.append(text) }
            try sink.close()
            if !target.isSpecial { try target.replace(with: temporary) }
            return value
        } catch {
            if !target.isSpecial { unlink(temporary) }
            if let error = error as? FileFailure { throw failure(error) }
            throw error
        }
    }

    /// The operating system's reason for a file error (`No space left on device`), without Foundation's wrapping.
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        // swift-corelibs-foundation stores the underlying error as a Swift `Error`: bridge it, do not cast to NSError.
        if let any = ns.userInfo[NSUnderlyingErrorKey] as? any Error, case let underlying = any as NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(truncatingIfNeeded: underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(truncatingIfNeeded: ns.code))) }
        if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
            case .fileWriteNoPermission, .fileReadNoPermission: return String(cString: strerror(EACCES))
            case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
            case .fileWriteFileExists: return String(cString: strerror(EEXIST))
            case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
            default: break
            }
        }
        return ns.localizedDescription
    }
}

/// What is at an output path, and how to replace it: a regular file (or nothing) is replaced by renaming a
/// finished sibling over it; a device node or FIFO is opened and written in place (renaming over `/dev/null` would
/// replace the device with a regular file).
struct OutputTarget {
    /// The output path.
    var path: String
    /// Something exists at the path (a dangling link counts).
    var exists: Bool
    /// The path is a folder (after following links).
    var isDirectory: Bool
    /// The path exists and is neither a regular file nor a folder: a character or block device, FIFO or socket.
    var isSpecial: Bool

    init(path: String) {
        self.path = path
        var st = stat()
        var lst = stat()
        let linkExists = lstat(path, &lst) == 0
        if stat(path, &st) == 0 {
            let type = st.st_mode & S_IFMT
            exists = true
            isDirectory = type == S_IFDIR
            isSpecial = type != S_IFREG && type != S_IFDIR
        } else {
            exists = linkExists
            isDirectory = false
            isSpecial = false
        }
    }

    /// A fresh path beside the target (same folder, so the rename is atomic): `.name.taskproc-PID-N.tmp`.
    func temporarySibling() -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).taskproc-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Renames `temporary` over the target; on failure removes `temporary` and throws a clear error (73).
    func replace(with temporary: String) throws {
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandFailure.cannotCreate("\(path): cannot write: \(reason)")
        }
    }
}
