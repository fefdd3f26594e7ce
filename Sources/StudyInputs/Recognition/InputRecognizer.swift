import Foundation

/// The one place that decides what a path holds: used by `analyze`, `inspect`, batch discovery and the loaders.
///
/// Files are recognised by name first (audio and skipped extensions, a `.gz` suffix looked through, MyDataHelps
/// `SurveyData/…` motion files, Bridge/mPower column files, `.zip` archives), then by content (``sniffJSON(_:)``
/// for JSON, the header row for CSV). A folder is one *ResearchKit task folder* only when its files belong to one
/// task result (see ``recognizeFolder(_:files:)``); otherwise each file in it is an input of its own.
public enum InputRecognizer {
    /// Audio file extensions (decoded by libsndfile, or by ffmpeg for the MP4 family). The only such list.
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "flac", "ogg", "oga", "opus", "aif", "aiff", "aifc", "caf", "rf64", "w64", "au", "snd",
        "m4a", "mp4", "aac", "mp3",
    ]

    /// Extensions of files that are never inputs (documentation, images, scripts): listed and skipped.
    public static let skippedExtensions: Set<String> = [
        "md", "markdown", "rst", "html", "htm", "pdf", "png", "jpg", "jpeg", "gif", "svg", "doc", "docx", "xls", "xlsx",
        "log", "yaml", "yml", "toml", "py", "r", "swift", "sh",
    ]

    /// The index tables of a MyDataHelps CSV export (lower case, without extension): survey results, step results,
    /// participants and tasks. The survey readers use the first two beside a result table; none is an input alone.
    public static let myDataHelpsJoinTables: Set<String> = [
        "surveyresults", "surveystepresults", "allparticipants", "enrolledparticipants", "surveytasks",
    ]

    /// Extensions read as delimited text tables.
    public static let tableExtensions: Set<String> = ["csv", "tsv", "txt"]

    /// What a file is, from its name (and, for archives, its first bytes).
    public enum FileKind: Sendable, Hashable {
        /// An audio recording.
        case audio
        /// Not an input (documentation, images, …), with its extension.
        case skipped(extension: String)
        /// A MyDataHelps motion file (`SurveyData/<participant>/<task>/<step>/Accelerometer.json`, …), its path parsed.
        case myDataHelpsMotion(MyDataHelpsMotionFile)
        /// A Bridge/mPower column file (`accel_walking_outbound.json.items`, `tapping_results.json.TappingSamples`, …),
        /// its name parsed.
        case mPower(MPowerFileName)
        /// A delimited table (CSV, TSV, TXT), optionally gzipped.
        case table
        /// An index table of a MyDataHelps CSV export (``myDataHelpsJoinTables``), read beside the result tables that
        /// refer to it, never on its own; its name in lower case without extensions.
        case myDataHelpsJoinTable(String)
        /// A ZIP archive (by extension or by its `PK\u{3}\u{4}` signature).
        case zipArchive
        /// Anything else: read as JSON, which decides by content.
        case json
    }

    /// What a delimited table holds, from its header row.
    public enum TableDialect: Sendable, Hashable {
        /// MyDataHelps tapping results (`SurveyTappingIntervalResultKey`, or `Taps` with `ButtonRect1`).
        case myDataHelpsTapping
        /// MyDataHelps survey question results.
        case myDataHelpsQuestions
        /// MyDataHelps consent-signature results.
        case myDataHelpsConsents
        /// MyDataHelps tone-audiometry results (`Samples` with `OutputVolume` or a tone-audiometry column).
        case myDataHelpsToneAudiometry
        /// An mhealthtools tap table (`t`, `x`, `y`, `buttonid`).
        case mhealthtoolsTaps
        /// An mhealthtools flattened device-motion table (`ua_x`, `g_x`, …).
        case mhealthtoolsDeviceMotion
        /// Anything else, a header-less numeric table included: a generic accelerometer CSV.
        case accelerometer
    }

    /// Recognises a table by its header row (the cells of its first record, as written).
    public static func recognizeTable(header cells: [String]) -> TableDialect {
        let header = cells.map { $0.lowercased() }
        let columns = Set(header)
        if columns.contains("surveytappingintervalresultkey")
            || columns.contains("taps") && columns.contains("buttonrect1")
        {
            return .myDataHelpsTapping
        }
        if MyDataHelpsSurveys.isQuestionTable(columns) { return .myDataHelpsQuestions }
        if MyDataHelpsSurveys.isConsentTable(columns) { return .myDataHelpsConsents }
        if columns.contains("samples")
            && (columns.contains("outputvolume") || header.contains(where: { $0.contains("toneaudiometry") }))
        {
            return .myDataHelpsToneAudiometry
        }
        if columns.isSuperset(of: ["t", "x", "y", "buttonid"]) { return .mhealthtoolsTaps }
        if columns.contains("ua_x") && columns.contains("g_x") { return .mhealthtoolsDeviceMotion }
        return .accelerometer
    }

    /// The extension that decides a file's kind: the last one, or the one before `.gz`, lower-cased.
    public static func effectiveExtension(_ path: String) -> String {
        if let ext = asciiEffectiveExtension(path) { return ext }
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        guard ext == "gz" else { return ext }
        return ((name as NSString).deletingPathExtension as NSString).pathExtension.lowercased()
    }

    /// ``effectiveExtension(_:)`` by bytes for a plain ASCII path (no trailing or doubled `/`): what `NSString`'s
    /// `lastPathComponent` and `pathExtension` give, at a small part of their cost (batch discovery asks for every
    /// entry of an archive); nil for any other path.
    static func asciiEffectiveExtension(_ path: String) -> String? {
        let bytes = path.utf8
        guard let last = bytes.last, last != UInt8(ascii: "/") else { return nil }
        var previous: UInt8 = 0
        for byte in bytes {
            if byte >= 0x80 || (byte == UInt8(ascii: "/") && previous == byte) { return nil }
            previous = byte
        }
        let name = bytes.lastIndex(of: UInt8(ascii: "/")).map { path[path.index(after: $0)...] } ?? path[...]
        // The extension of a name: after its last dot, unless that dot starts the name.
        func split(_ name: Substring) -> (stem: Substring, ext: Substring)? {
            guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return nil }
            return (name[..<dot], name[name.index(after: dot)...])
        }
        guard let (stem, ext) = split(name) else { return "" }
        let lowered = ext.lowercased()
        guard lowered == "gz" else { return lowered }
        return split(stem).map { $0.ext.lowercased() } ?? ""
    }

    /// Recognises a file by name; only archives are also recognised by their first bytes.
    public static func recognizeFile(_ path: String) -> FileKind {
        recognizeByName(path) ?? (hasZipSignature(path) ? .zipArchive : .json)
    }

    /// What ``recognizeFile(_:)`` says from the path alone, without reading the file; nil when its first bytes
    /// decide (a file with an unknown or no extension may be a ZIP archive).
    public static func recognizeByName(_ path: String) -> FileKind? {
        let ext = effectiveExtension(path)
        if audioExtensions.contains(ext) { return .audio }
        if ext == "zip" { return .zipArchive }
        if skippedExtensions.contains(ext) { return .skipped(extension: ext) }
        // MyDataHelps paths are checked before mPower names, which would also match the bare file name and lose
        // the participant and step identifiers.
        if let file = MyDataHelpsMotionFile(path: path) { return .myDataHelpsMotion(file) }
        if let name = MPowerFileName(path: path) { return .mPower(name) }
        if tableExtensions.contains(ext) {
            let base = ((path as NSString).lastPathComponent.lowercased() as NSString).deletingPathExtension
            let name = ext == "gz" || base.hasSuffix(".csv") ? (base as NSString).deletingPathExtension : base
            return myDataHelpsJoinTables.contains(name) ? .myDataHelpsJoinTable(name) : .table
        }
        // A file named .json is read as JSON (a ZIP in disguise fails there, naming its first byte); files with
        // other or no extensions are checked for a ZIP signature.
        return ext == "json" ? .json : nil
    }

    /// True when the path names a file that is never an input inside a folder or archive (documentation, images,
    /// scripts: ``skippedExtensions``; a MyDataHelps index table), decided from the name alone.
    public static func isNeverInputByName(_ path: String) -> Bool {
        switch recognizeByName(path) {
        case .skipped, .myDataHelpsJoinTable: return true
        default: return false
        }
    }

    /// True when the file starts with a ZIP local-file or end-of-central-directory signature.
    static func hasZipSignature(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)).map(startsWithZipSignature) ?? false
    }

    /// True when `head` starts with a ZIP local-file or end-of-central-directory signature.
    static func startsWithZipSignature(_ head: Data) -> Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    // MARK: JSON content

    /// The JSON dialect of a document, decided from its first significant bytes.
    public enum JSONShape {
        /// A ResearchKit result (`_class` tags), or an unknown object the ResearchKit decoder will explain.
        case researchKit
        /// A binary property list (`bplist00`): ResearchKit results archived with `NSKeyedArchiver`.
        case keyedArchive
        /// mPower tapping samples (`TapTimeStamp` items or a `TappingSamples` object).
        case mPowerTapping
        /// Survey answers of the MyDataHelps API (`{"surveyAnswers":[…]}` or an array of answers).
        case myDataHelpsSurveyAnswers
        /// The MyDataHelps JSON export's `SurveyResults.json` (survey results with nested step results).
        case myDataHelpsSurveyResults
        /// A recorder log: `{"items":[…]}`, or a bare array of samples (`bare`).
        case recorderLog(bare: Bool)
        /// Not JSON: the error to report for a given file.
        case notJSON((String) -> InputError)
    }

    /// Decides the JSON dialect from the first 4 KiB, without parsing the whole document.
    public static func sniffJSON(_ data: Data) -> JSONShape {
        if BinaryPropertyList.isBinaryPropertyList(data) { return .keyedArchive }
        let prefix = data.prefix(4096)
        let text = String(decoding: prefix, as: UTF8.self)
        guard let first = text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) else {
            return .notJSON {
                InputError(
                    .syntax, file: $0, expected: "a JSON document",
                    found: data.isEmpty ? "an empty (0-byte) file" : "only whitespace")
            }
        }
        if MyDataHelpsSurveys.looksLikeAPIAnswers(text) && !text.contains("\"_class\"") {
            return .myDataHelpsSurveyAnswers
        }
        if MyDataHelpsSurveys.looksLikeJSONExport(text) && !text.contains("\"_class\"") {
            return .myDataHelpsSurveyResults
        }
        if first == "[" {
            if text.contains("\"TapTimeStamp\"") { return .mPowerTapping }
            // An array of ResearchKit results (taskproc's researchkit export): recorder samples have no `_class`.
            if text.contains("\"_class\"") && text.contains("\"ORK") { return .researchKit }
            return .recorderLog(bare: true)
        }
        guard first == "{" else {
            let shown =
                prefix.first.map { $0 < 0x20 || $0 >= 0x80 ? String(format: "byte 0x%02X", $0) : "'\(first)'" } ?? "?"
            return .notJSON {
                InputError(
                    .syntax, file: $0, location: "$ (line 1, column 1)", expected: "a JSON object or array",
                    found: shown)
            }
        }
        if text.contains("\"_class\"") { return .researchKit }
        if text.contains("\"TappingSamples\"") { return .mPowerTapping }
        if text.contains("\"items\"") { return .recorderLog(bare: false) }
        // Unknown object: let the ResearchKit decoder explain what is missing.
        return .researchKit
    }

    // MARK: Folders

    /// What a folder is.
    public enum FolderKind: Sendable {
        /// A MyDataHelps step folder (`SurveyData/<participant>/<task>/<step>/`): one record of several files.
        case myDataHelpsStep
        /// One ResearchKit task result and the recorder files it names: one input.
        case taskFolder(taskFile: String, document: ResearchKitDocument)
        /// A phyphox export: its data tables, bounded by `meta/time.csv` (``PhyphoxExport``).
        case phyphox(PhyphoxExport)
        /// Independent inputs: each file (or sub-folder) is analysed on its own. `taskResults` counts the
        /// ResearchKit task results found, for the warning when there are several.
        case independent(taskResults: Int)
    }

    /// True for a MyDataHelps step folder path (`…/SurveyData/<participant>/<task>/<step>`).
    public static func isMyDataHelpsStepFolder(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 4 && parts[parts.count - 4].lowercased() == "surveydata"
    }

    /// Decides whether a folder is one task result with its files or a folder of independent inputs.
    ///
    /// The rule: the folder holds exactly one `ORKTaskResult`, and either it is the folder's only input file or it
    /// names recorder files (`ORKFileResult.fileName`). Its named files are then part of it (a named file that is
    /// missing is an error of the task); files it does not name are inputs of their own when they stand alone
    /// (``isStandaloneInput(_:)``: another ResearchKit result, audio, a table) and reported as not referenced
    /// otherwise. A task result that names no files (a dB HL or SPL-meter task), or several task results, make a
    /// folder of independent inputs: each file is analysed on its own.
    /// - Parameters:
    ///   - path: The folder.
    ///   - files: Its regular files, recursively (see ``walk(_:)``).
    public static func recognizeFolder(_ path: String, files: [String]) -> FolderKind {
        if isMyDataHelpsStepFolder(path) { return .myDataHelpsStep }
        if let export = PhyphoxExport.recognize(path, names: FileTree.sortedNames(path)) { return .phyphox(export) }
        var tasks: [(file: String, document: ResearchKitDocument)] = []
        // Only files whose first 4 KiB name an ORKTaskResult are read whole and decoded (ORKESerialization writes
        // `_class` first); recorder logs and other results are not read here.
        for file in files where effectiveExtension(file) == "json" && headMentions(file, "\"ORKTaskResult\"") {
            guard let data = try? DialectFiles.read(path: file, limit: 64 << 20), case .researchKit = sniffJSON(data),
                let document = try? ResearchKitDecoder.decode(data, file: file)
            else { continue }
            if document.taskResult != nil { tasks.append((file, document)) }
        }
        guard tasks.count == 1, let (taskFile, document) = tasks.first else {
            return .independent(taskResults: tasks.count)
        }
        let fileResults = (document.taskResult?.fileResults ?? []) + (document.result?.nestedFileResults ?? [])
        let named = fileResults.compactMap(\.result.fileName).filter { !$0.isEmpty }
        if !named.isEmpty { return .taskFolder(taskFile: taskFile, document: document) }
        let inputs = files.filter { file in
            if case .skipped = recognizeFile(file) { return false }
            return !(file as NSString).lastPathComponent.hasPrefix(".")
        }
        return inputs == [taskFile] ? .taskFolder(taskFile: taskFile, document: document) : .independent(taskResults: 1)
    }

    /// Batch discovery's form of ``recognizeFolder(_:files:)``, decided from text without decoding: true for a
    /// MyDataHelps step folder, or for a folder directly holding exactly one ResearchKit task result (its first
    /// 4 KiB name an `ORKTaskResult`) beside other files, whose text holds an `ORKFileResult` with a `fileName`.
    /// Where this and the decoded rule could differ, the loader analyses every input of the folder on its own, so
    /// nothing is lost either way.
    /// - Parameters:
    ///   - path: The folder.
    ///   - names: The names of its entries (files and sub-folders), not recursive.
    public static func isRecordFolder(_ path: String, names: [String]) -> Bool {
        if isMyDataHelpsStepFolder(path) { return true }
        if PhyphoxExport.recognize(path, names: names) != nil { return true }
        let taskFiles = names.filter { $0.lowercased().hasSuffix(".json") }.map { path + "/" + $0 }
            .filter { headMentions($0, "\"ORKTaskResult\"") }
        guard taskFiles.count == 1, names.count > 1, let task = FileManager.default.contents(atPath: taskFiles[0])
        else { return false }
        return contains(task, "\"ORKFileResult\"") && contains(task, "\"fileName\"")
    }

    /// A path as ``walk(_:)`` and ``records(under:)`` name what is under it: absolute, a relative path standardised
    /// against the working directory; and its URL.
    static func absolute(_ path: String) -> (path: String, url: URL) {
        let url = URL(fileURLWithPath: path)
        return (path.hasPrefix("/") ? url.path : url.standardizedFileURL.path, url)
    }

    /// What a folder that is not a record folder expands into (``records(under:)``).
    public struct Expansion: Sendable {
        /// The inputs, in byte order of their paths: files, and record folders (``isFolder``).
        public var inputs: [(path: String, isFolder: Bool)] = []
        /// Symbolic links met (never followed), sorted.
        public var links: [String] = []
        /// ResearchKit task results among the files (outside record folders): several in one folder are each loaded
        /// on their own, and their recorder files too.
        public var looseTaskResults = 0
    }

    /// The inputs under a folder that is not itself a record folder, cut as batch discovery cuts them: each visible
    /// file is an input of its own, and each sub-folder is one record when ``isRecordFolder(_:names:)`` says so and
    /// is expanded the same way otherwise. Hidden entries and `__MACOSX/` are skipped (``FileTree/sortedNames(_:)``).
    public static func records(under path: String) -> Expansion {
        var found = Expansion()
        // Each folder is listed once: the listing that decides whether it is a record folder is the one visited.
        func visit(_ folder: String, names: [String]) {
            for name in names {
                let child = folder == "/" ? "/" + name : folder + "/" + name
                switch FileTree.fileType(child) {
                case .regular:
                    found.inputs.append((child, false))
                    if effectiveExtension(child) == "json" && headMentions(child, "\"ORKTaskResult\"") {
                        found.looseTaskResults += 1
                    }
                case .link: found.links.append(child)
                case .directory:
                    let names = FileTree.sortedNames(child)
                    if isRecordFolder(child, names: names) {
                        found.inputs.append((child, true))
                    } else {
                        visit(child, names: names)
                    }
                case .other, .missing: continue
                }
            }
        }
        let root = absolute(path).path
        visit(root, names: FileTree.sortedNames(root))
        found.inputs.sort { FileTree.precedes($0.path, $1.path) }
        found.links.sort()
        return found
    }

    /// True when `data` holds the UTF-8 bytes of `text` (a byte search: no string decoding, no Foundation search).
    static func contains(_ data: Data, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty else { return true }
        guard data.count >= needle.count else { return false }
        return data.withUnsafeBytes { hay in
            let first = needle[0]
            var i = 0
            while i <= hay.count - needle.count {
                if hay[i] == first {
                    var j = 1
                    while j < needle.count && hay[i + j] == needle[j] { j += 1 }
                    if j == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// True when the first 4 KiB of a file (decompressed, for `.gz`) contain `text`.
    static func headMentions(_ path: String, _ text: String) -> Bool {
        let head: Data
        if path.lowercased().hasSuffix(".gz") {
            guard let data = try? DialectFiles.read(path: path, limit: 64 << 20) else { return false }
            head = data.prefix(4096)
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            head = (try? handle.read(upToCount: 4096)) ?? Data()
        }
        return contains(head, text)
    }

    /// True for a file that is an input of its own even inside a task folder that does not name it: a ResearchKit
    /// result (JSON with `_class`), an audio recording, a table, an archive, a MyDataHelps or mPower file. Recorder
    /// logs and other JSON belong to a task and are not.
    public static func isStandaloneInput(_ path: String) -> Bool {
        switch recognizeFile(path) {
        case .audio, .table, .zipArchive, .myDataHelpsMotion, .mPower: return true
        case .skipped, .myDataHelpsJoinTable: return false
        case .json: return headMentions(path, "\"_class\"")  // a ResearchKit result, not a recorder log
        }
    }

    /// Regular files and symbolic links (not followed) under `path`, recursively, in one walk, each sorted; hidden
    /// files are skipped. The loader reports the links.
    public static func walk(_ path: String) -> (files: [String], links: [String]) {
        // Paths as FileManager's enumerator gives them (absolute; a relative path standardised against the working
        // directory), read with one `lstat` per entry: the enumerator's URL resource values were 5 % of a batch's
        // CPU. A test compares the two.
        let (root, _) = absolute(path)
        guard FileTree.fileType(root) == .directory else { return ([], []) }
        var files: [String] = []
        var links: [String] = []
        func visit(_ folder: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
            for name in names where !name.hasPrefix(".") {
                let child = folder == "/" ? "/" + name : folder + "/" + name
                switch FileTree.fileType(child) {
                case .regular: files.append(child)
                case .link: links.append(child)
                case .directory: visit(child)
                case .other, .missing: continue
                }
            }
        }
        visit(root)
        return (files.sorted(), links.sorted())
    }
}
