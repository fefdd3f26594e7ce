import Foundation
import TestSupport
import Testing

/// Issue 20, item 2: "a test fails when a task emits a key or column that its article does not document, so the
/// docs cannot fall behind".
///
/// The test generates an export holding one run of every active task (`make_export.py --every-task`, plus the
/// generator's mPower, MyDataHelps, CSV, tapping and audio records), runs `taskproc batch --feature-set mhealthtools`
/// over it, and once more with the options that add keys (`--tapping-variant mpower2016 --sensitivity-offset iPhone
/// --third-octaves`) and over a small folder of inputs that bring the remaining keys (a two-ear dB HL test, a walk
/// with a gap), and collects from all three
/// - every key path of every result in `results.jsonl` (recursively; an array's elements' keys under the array's
///   key: `ears.frequencies.hits`), grouped by the result's `kind`;
/// - every column of every `<kind>.csv` (and of `columns.csv`, documented in docs/batch.md's section of that name);
/// - every key of the batch record envelope (`results.jsonl`, `errors.jsonl`).
///
/// **The coverage rule.** An article is a Markdown file, or one section of it (its heading line up to the next
/// heading of the same or a higher level). Fenced code blocks (```` ``` ````) are removed first. The article's
/// *documented tokens* are the inline-code spans (`` `key` ``) in its table rows (lines starting with `|`) and list
/// items (lines starting with `-`, `*`, `+` or `1.`, with their indented continuation lines); `[]` is dropped from
/// a token (`ears[].frequencies[]` is `ears.frequencies`). A token holding `<…>` placeholders and at least one
/// letter outside them is a pattern, each placeholder matching one or more of `A–Z a–z 0–9 _`
/// (`EnergyInBand<b>` matches `EnergyInBand10_5`). A key path is documented by a token set when
/// 1. the whole dotted path is a token or matches a pattern (`quality.hygiene.gaps`), or
/// 2. it splits into a documented parent path (recursively) and a rest that is a token or matches a pattern: a leaf
///    documented under its documented parent object (`ears.frequencies` + `hits`), or a sub-path documented in the
///    parent's table (`ears` + `volume.offset`).
///
/// The token set of a key path is the union of its kind's articles (`articles`), plus, for paths under a shared
/// sub-object, that sub-object's own article (`sharedSubtrees`): the `quality` report (timestamp hygiene and
/// resampling) of walking and motion-signal results is documented once, in `docs/quality.md`, and accepted from
/// both kinds; the mhealthtools feature objects (`features`, `imfFeatures`, walking's `mhealthtoolsFeatures`, all
/// one type) are documented once in `docs/tremor-balance.md` under the name `features`, and `imfFeatures` /
/// `mhealthtoolsFeatures` are read as that name there; likewise the dB HL test's `volumeCorrectedBilateral` is the
/// `bilateral` object of corrected thresholds and is read as `bilateral`. The children of objects keyed by data rather than by schema
/// (`stepDates`, keyed by step identifier) are not keys.
///
/// CSV columns: batch's own columns (`recordSource`, `contentHash`, `recordId`, `healthCode`,
/// `ParticipantIdentifier`, `taskRunUUID`, `status`, `error`, `taskAnswers`) must be documented in `docs/batch.md`'s
/// "`<kind>.csv`" section; a `result_X` column (a processor column renamed because it repeats a key
/// column's name, documented in that section) must have `X` documented in the kind's articles; a wide mhealthtools
/// column `<sensor>.<axis>.<feature>` (`accelerometer.x.mean.tm`) must have its feature part documented in
/// `docs/tremor-balance.md`; every other column is a key path of one component checked against the kind's articles.
@Suite struct DocsCoverageTests {
    /// One article: a Markdown file, or the section whose heading line contains `heading`.
    struct Article: Hashable, CustomStringConvertible {
        let file: String
        let heading: String?
        init(_ file: String, _ heading: String? = nil) {
            self.file = file
            self.heading = heading
        }
        var description: String { heading.map { "\(file) \"\($0)\"" } ?? file }
    }

    static let activeTasks = "docs/active-tasks.md"
    static let tremorBalance = Article("docs/tremor-balance.md")
    static let quality = Article("docs/quality.md")
    static let batchJSONL = Article("docs/batch.md", "### `results.jsonl` and `errors.jsonl`")
    static let batchCSV = Article("docs/batch.md", "### `<kind>.csv`")
    static let batchColumnsCSV = Article("docs/batch.md", "### `columns.csv`")
    static let batchSkippedCSV = Article("docs/batch.md", "### Files that are not data")
    static let studyTables = Article("docs/batch.md", "### Study tables")
    static let walking = [Article("docs/walking.md")]
    static let motionSignal = [
        Article("docs/tremor-balance.md", "## Which recordings are tremor, balance or rest"), tremorBalance,
    ]
    static let audio = [
        Article("docs/audio.md", "## `taskproc analyze` on an audio file"),
        Article("docs/audio.md", "## Sound level metering"),
    ]
    static let splMeter = [Article("docs/audio.md", "## Sound level metering")]
    static let audiometry = [Article("docs/audiometry.md")]
    static let tapping = [Article("docs/tapping.md")]
    static let survey = [Article("docs/surveys.md")]
    static let scoredKinds = [
        "stroop", "trailMaking", "psat", "spatialSpanMemory", "towerOfHanoi", "holePeg", "rangeOfMotion",
        "accuracyStroop", "reactionTime", "normalizedReactionTime", "speechRecognition", "speechInNoise",
        "amslerGrid", "modelSelection",
    ]

    /// The articles of a result `kind` (JSON) or a batch CSV kind (`<kind>.csv`).
    static func articles(_ kind: String) -> [Article]? {
        switch kind {
        case "walking": walking
        case "motionSignal", "tremor", "balance", "rest": motionSignal
        case "audio": audio
        case "splMeter", "environmentSPLMeter": splMeter
        case "dBHLToneAudiometry", "toneAudiometry": audiometry
        case "tapping": tapping
        case "survey": survey
        case "steps": [Article("docs/batch.md", "### `steps.csv`")]
        case "taps": [Article("docs/batch.md", "### `taps.csv`")]
        case _ where scoredKinds.contains(kind):
            [Article(activeTasks, "## The result"), Article(activeTasks, "(`\(kind)`")]
        default: nil
        }
    }

    /// Sub-objects documented once for every kind that has them: (path prefix, article, the name the article uses
    /// for the prefix's first component).
    static let sharedSubtrees: [(prefix: [String], article: Article, alias: String?)] = [
        (["quality"], quality, nil),
        (["features"], tremorBalance, nil),
        (["imfFeatures"], tremorBalance, "features"),
        (["mhealthtoolsFeatures"], tremorBalance, "features"),
        (["volumeCorrectedBilateral"], audiometry[0], "bilateral"),
    ]

    /// Objects whose keys are data (their children are not checked).
    static let dataKeyed: Set<[String]> = [["stepDates"]]

    static let batchColumns: Set<String> = [
        "recordSource", "contentHash", "recordId", "healthCode", "ParticipantIdentifier", "taskRunUUID", "participant",
        "date", "startTime", "status", "error", "taskAnswers", "flag_short", "flag_rate", "flag_still", "flag_repaired",
        "flag_implausible",
    ]
    static let sensors: Set<String> = ["accelerometer", "gyroscope"]

    // MARK: reading the articles

    /// The documented tokens and patterns of a Markdown text (the whole text, or the section under `heading`).
    struct Tokens {
        var words: Set<String> = []
        var patterns: [NSRegularExpression] = []

        mutating func formUnion(_ other: Tokens) {
            words.formUnion(other.words)
            patterns += other.patterns
        }

        func matches(_ token: String) -> Bool {
            if words.contains(token) { return true }
            let range = NSRange(token.startIndex..., in: token)
            return patterns.contains { $0.firstMatch(in: token, range: range) != nil }
        }

        /// Rule 1 or 2 of the suite's doc comment.
        func documents(_ path: [String]) -> Bool {
            guard !path.isEmpty else { return true }
            if matches(path.joined(separator: ".")) { return true }
            return (1..<path.count).contains { k in
                matches(path[k...].joined(separator: ".")) && documents(Array(path[..<k]))
            }
        }
    }

    static func tokens(markdown: String, heading: String?) -> Tokens {
        var lines: [Substring] = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if !fenced { lines.append(line) }
        }
        func level(_ line: Substring) -> Int? {
            let hashes = line.prefix { $0 == "#" }.count
            return hashes > 0 && line.dropFirst(hashes).first == " " ? hashes : nil
        }
        if let heading {
            guard let start = lines.firstIndex(where: { level($0) != nil && $0.contains(heading) }) else {
                return Tokens()
            }
            let startLevel = level(lines[start])!
            var end = start + 1
            while end < lines.count, (level(lines[end]).map { $0 > startLevel } ?? true) { end += 1 }
            lines = Array(lines[start..<end])
        }
        var result = Tokens()
        var inListItem = false
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            let isTable = trimmed.hasPrefix("|")
            let isItem =
                ["- ", "* ", "+ "].contains { trimmed.hasPrefix($0) }
                || trimmed.range(of: #"^[0-9]+\. "#, options: .regularExpression) != nil
            if trimmed.isEmpty || level(line) != nil {
                inListItem = false
            } else if isItem {
                inListItem = true
            } else if !(inListItem && trimmed.count < line.count) {
                inListItem = false
            }
            guard isTable || inListItem else { continue }
            for token in codeSpans(String(line)) { add(token, to: &result) }
        }
        return result
    }

    /// The inline-code spans of one line.
    static func codeSpans(_ line: String) -> [String] {
        let parts = line.components(separatedBy: "`")
        return stride(from: 1, to: parts.count - 1, by: 2).map { parts[$0] }
    }

    static func add(_ raw: String, to tokens: inout Tokens) {
        let token = raw.replacingOccurrences(of: "[]", with: "").trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { return }
        guard token.contains("<") else {
            tokens.words.insert(token)
            return
        }
        let literal = token.replacingOccurrences(of: #"<[^<>]*>"#, with: "", options: .regularExpression)
        guard literal.contains(where: \.isLetter) else { return }
        var pattern = "^"
        var rest = Substring(token)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + "[A-Za-z0-9_]+"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        if let regex = try? NSRegularExpression(pattern: pattern) { tokens.patterns.append(regex) }
    }

    /// Reads articles from the repository, once per article.
    final class Library {
        var cache: [Article: Tokens] = [:]
        let read: (String) -> String
        init(
            read: @escaping (String) -> String = {
                (try? String(contentsOfFile: repositoryPath($0), encoding: .utf8)) ?? ""
            }
        ) {
            self.read = read
        }
        func tokens(_ article: Article) -> Tokens {
            if let cached = cache[article] { return cached }
            let t = DocsCoverageTests.tokens(markdown: read(article.file), heading: article.heading)
            cache[article] = t
            return t
        }
        func tokens(_ articles: [Article]) -> Tokens {
            articles.reduce(into: Tokens()) { $0.formUnion(tokens($1)) }
        }
    }

    // MARK: checking keys and columns

    /// One undocumented key or column.
    struct Gap: Hashable, Comparable, CustomStringConvertible {
        let kind: String
        let key: String
        let articles: String
        static func < (a: Gap, b: Gap) -> Bool { (a.kind, a.key) < (b.kind, b.key) }
        var description: String { "\(kind): \(key) — not in \(articles)" }
    }

    /// Whether a result key path of `kind` is documented; nil when the kind has no article.
    static func check(kind: String, path: [String], library: Library) -> Gap? {
        guard let articles = articles(kind) else {
            return Gap(kind: kind, key: path.joined(separator: "."), articles: "(no article for this kind)")
        }
        var tokens = library.tokens(articles)
        var names = articles.map(\.description)
        for shared in sharedSubtrees where path.starts(with: shared.prefix) {
            tokens.formUnion(library.tokens(shared.article))
            names.append(shared.article.description)
            if let alias = shared.alias {
                // the article names the sub-object by its alias: the path is documented as either name
                let aliased = [alias] + path.dropFirst()
                if tokens.documents(aliased) { return nil }
            }
        }
        if tokens.documents(path) { return nil }
        return Gap(kind: kind, key: path.joined(separator: "."), articles: names.joined(separator: " + "))
    }

    /// Whether a column of `<kind>.csv` is documented.
    static func checkColumn(kind: String, column: String, library: Library) -> Gap? {
        if batchColumns.contains(column) {
            return library.tokens(batchCSV).matches(column)
                ? nil : Gap(kind: kind + ".csv", key: column, articles: batchCSV.description)
        }
        if column.hasPrefix("result_") {
            let inner = String(column.dropFirst("result_".count))
            return check(kind: kind, path: [inner], library: library).map {
                Gap(kind: kind + ".csv", key: column, articles: $0.articles)
            }
        }
        let parts = column.split(separator: ".", maxSplits: 2).map(String.init)
        if parts.count == 3, sensors.contains(parts[0]) {
            return library.tokens(tremorBalance).matches(parts[2])
                ? nil : Gap(kind: kind + ".csv", key: column, articles: tremorBalance.description)
        }
        return check(kind: kind, path: [column], library: library).map {
            Gap(kind: kind + ".csv", key: column, articles: $0.articles)
        }
    }

    /// Every key path of a JSON value: an object's keys, recursively; an array's elements' keys under the array's.
    static func keyPaths(_ value: Any, prefix: [String] = [], into paths: inout Set<[String]>) {
        if let object = value as? [String: Any] {
            for (key, child) in object {
                let path = prefix + [key]
                paths.insert(path)
                if !dataKeyed.contains(path) { keyPaths(child, prefix: path, into: &paths) }
            }
        } else if let array = value as? [Any] {
            for element in array { keyPaths(element, prefix: prefix, into: &paths) }
        }
    }

    /// Every undocumented key and column of a batch output folder.
    static func gaps(batchOutput out: String, library: Library) throws -> [Gap] {
        var gaps = Set<Gap>()
        var envelope = Set<[String]>()
        var byKind: [String: Set<[String]>] = [:]
        for file in ["results.jsonl", "errors.jsonl"] {
            let text = (try? String(contentsOfFile: out + "/" + file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                guard let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    continue
                }
                for (key, value) in record where key != "results" {
                    envelope.insert([key])
                    if !dataKeyed.contains([key]) { keyPaths(value, prefix: [key], into: &envelope) }
                }
                envelope.insert(["results"])
                for case let result as [String: Any] in record["results"] as? [Any] ?? [] {
                    let kind = result["kind"] as? String ?? "(no kind)"
                    keyPaths(result, into: &byKind[kind, default: []])
                }
            }
        }
        let batchTokens = library.tokens(batchJSONL)
        for path in envelope where !batchTokens.documents(path) {
            gaps.insert(Gap(kind: "batch record", key: path.joined(separator: "."), articles: batchJSONL.description))
        }
        for (kind, paths) in byKind {
            for path in paths { if let gap = check(kind: kind, path: path, library: library) { gaps.insert(gap) } }
        }
        let csvs = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".csv") }
        for file in csvs {
            let kind = String(file.dropLast(".csv".count))
            let text = try String(contentsOfFile: out + "/" + file, encoding: .utf8)
            guard let header = E2E.csvRows(text).first else { continue }
            if ["participant_day.csv", "participant_week.csv", "surveys_wide.csv", "adherence.csv"].contains(file) {
                // the study tables: their columns are in docs/batch.md's "Study tables"; surveys_wide's columns
                // after the first six are the study's question identifiers (data, not keys)
                let own = file == "surveys_wide.csv" ? Array(header.prefix(6)) : header
                for column in own where !library.tokens(studyTables).matches(column) {
                    gaps.insert(Gap(kind: file, key: column, articles: studyTables.description))
                }
                continue
            }
            if file == "columns.csv" || file == "skipped.csv" {
                // the column dictionary and the list of files skipped as not data: their own columns are
                // documented in their sections of docs/batch.md
                let article = file == "columns.csv" ? batchColumnsCSV : batchSkippedCSV
                for column in header where !library.tokens(article).matches(column) {
                    gaps.insert(Gap(kind: file, key: column, articles: article.description))
                }
                continue
            }
            for column in header {
                if let gap = checkColumn(kind: kind, column: column, library: library) { gaps.insert(gap) }
            }
        }
        return gaps.sorted()
    }

    // MARK: tests

    @Test func everyKeyAndColumnIsDocumented() throws {
        let dir = try E2E.temporaryDirectory("docs-coverage")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(at: export, records: 40, seed: 19, extra: ["--every-task"])
        try #require(generated.status == 0, "\(generated.output)")
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", export, "--out", out, "--feature-set", "mhealthtools", "--no-progress"])
        try #require(
            batch.status == ExpectedExit.success || batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        // every kind the every-task export reaches has its CSV, so no kind escapes the check by being absent
        for kind in EveryTaskExportTests.kinds + ["audio"] {
            #expect(FileManager.default.fileExists(atPath: out + "/\(kind).csv"), "no \(kind).csv")
        }
        // the keys only options bring: mPower 2016 tapping (`dfaTapInter`), a calibration, third-octave bands
        let optioned = dir.appendingPathComponent("out-options").path
        let second = try E2E.run([
            "batch", export, "--out", optioned, "--tapping-variant", "mpower2016", "--sensitivity-offset", "iPhone",
            "--third-octaves", "--no-progress",
        ])
        try #require(
            second.status == ExpectedExit.success || second.status == ExpectedExit.batchPartial, "\(second.stderr)")
        // the keys only some data brings: a dB HL test of both ears (`bilateral`), a walk with a gap, a duplicate
        // row and a row out of order (the hygiene report's `gaps[]`, the resampling's)
        let extra = dir.appendingPathComponent("extra").path
        try FileManager.default.createDirectory(atPath: extra, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: E2E.fixture("audiometry/dbhl-task.json"), toPath: extra + "/dbhl-task.json")
        try E2E.write(Self.untidyWalkCSV(), to: extra + "/walk.csv")
        let extraOut = dir.appendingPathComponent("out-extra").path
        let third = try E2E.run(["batch", extra, "--out", extraOut, "--no-progress"])
        try #require(third.status == ExpectedExit.success, "\(third.stderr)")
        let library = Library()
        var all = Set<Gap>()
        for folder in [out, optioned, extraOut] { all.formUnion(try Self.gaps(batchOutput: folder, library: library)) }
        let gaps = all.sorted()
        let byKind = Dictionary(grouping: gaps, by: \.kind).map { "\($0.key) \($0.value.count)" }.sorted()
        let report =
            "\(gaps.count) undocumented keys/columns (\(byKind.joined(separator: ", "))):\n"
            + gaps.map(\.description).joined(separator: "\n")
        #expect(gaps.count == 0, Comment(rawValue: report))
    }

    /// A 30 s accelerometer CSV at 100 Hz walking at 1.8 steps/s, with a 1 s gap, one duplicated row and one row
    /// out of time order, so the hygiene and resampling reports list a gap.
    static func untidyWalkCSV() -> String {
        var rows: [String] = []
        for i in 0..<3000 where !(1000..<1100).contains(i) {
            let t = Double(i) / 100
            let z = 1 + 0.3 * sin(2 * Double.pi * 1.8 * t)
            let x = 0.05 * sin(2 * Double.pi * 0.9 * t)
            rows.append(String(format: "%.3f,%.5f,0.01000,%.5f", t, x, z))
        }
        rows.insert(rows[500], at: 500)
        rows.insert("7.000,0.1,0.1,1.0", at: 800)
        return "timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n"
    }

    /// The rule can fail: a made-up key and column are reported, documented ones are not, and each part of the
    /// rule (sections, fences, list items, leaves under parents, patterns, shared sub-objects) does what it says.
    @Test func theRuleReportsWhatIsMissing() throws {
        let docs = [
            "a.md": """
            # A
            ## Walk (`walking`)
            | key | unit | definition |
            |---|---|---|
            | `stepCount` | steps | steps |
            | `bouts[]` | — | per bout: |
            | `bouts[].range.low` | — | a sub-path in the parent's table |
            - `start`, `end`: s
              continued with `steps`
            prose mentions `cadence` but is not a table or list
            ```
            | `fenced` | in a code block |
            ```
            ## Other
            | `otherKey` | — | another section |
            """,
            "q.md": "| `quality.hygiene` | — | report |\n| `gaps` | count | gaps |\n",
            "f.md":
                "| `features.rows[]` | — | rows |\n| `features` | — | object |\n| `EnergyInBand<b>` | Hz | band |\n",
        ]
        let library = Library { docs[$0] ?? "" }
        let article = Article("a.md", "## Walk")
        let tokens = library.tokens(article)
        #expect(tokens.documents(["stepCount"]))
        #expect(tokens.documents(["bouts", "start"]))
        #expect(tokens.documents(["bouts", "steps"]))
        #expect(tokens.documents(["bouts", "range", "low"]))
        #expect(!tokens.documents(["bouts", "range", "high"]))
        #expect(!tokens.documents(["cadence"]), "prose is not documentation")
        #expect(!tokens.documents(["fenced"]), "fenced blocks are removed")
        #expect(!tokens.documents(["otherKey"]), "another section is another article")
        #expect(!tokens.documents(["madeUpKey"]))
        #expect(!tokens.documents(["quality", "start"]), "a leaf needs its parent documented")
        let shared = library.tokens(Article("q.md"))
        #expect(shared.documents(["quality", "hygiene", "gaps"]))
        #expect(!shared.documents(["quality", "resampling", "gaps"]))
        let features = library.tokens(Article("f.md"))
        #expect(features.documents(["features", "rows", "features", "EnergyInBand10_5"]))
        #expect(!features.documents(["features", "rows", "features", "EnergyInBand"]))
        #expect(!features.documents(["features", "rows", "features", "mean.tm"]))

        // the real articles: a made-up key and column of a real kind are reported, a documented one is not
        let real = Library()
        #expect(Self.check(kind: "walking", path: ["stepCount"], library: real) == nil)
        let gap = try #require(Self.check(kind: "walking", path: ["madeUpKey"], library: real))
        #expect(gap.description.contains("docs/walking.md"))
        #expect(Self.checkColumn(kind: "stroop", column: "madeUpColumn", library: real) != nil)
        #expect(Self.checkColumn(kind: "tremor", column: "accelerometer.x.madeUp.tm", library: real) != nil)
        #expect(Self.checkColumn(kind: "walking", column: "recordSource", library: real) == nil)
        #expect(Self.check(kind: "noSuchKind", path: ["stepCount"], library: real) != nil)
    }
}
