import Foundation
import TestSupport
import Testing

/// Issue 20, item 1: the README is a short entry point (at most 320 lines) into the articles under `docs/`, and
/// what it says can be followed.
/// - every relative link of `README.md`, `docs/*.md`, `Benchmarks/README.md`, `Tools/README.md` and
///   `Tools/peers/README.md` names a file of the repository, and a `#fragment` names a heading of the linked
///   Markdown file (GitHub's slug of it, or an explicit `{#id}`);
/// - the README's quick start (the `sh` block under "## Quick start") runs, command by command, on a generated
///   export with every task: `EXPORT` is that export, `OUT` the batch output folder, `FILE` the walking task
///   folder in it, and `report.html` is written beside them.
@Suite struct ReadmeTests {
    static let maximumReadmeLines = 320

    /// The Markdown files whose links are checked, relative to the repository.
    static func markdownFiles() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repositoryPath("docs"))
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "Benchmarks/README.md", "Tools/README.md", "Tools/peers/README.md"] + docs
    }

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: repositoryPath(relative), encoding: .utf8)
    }

    /// The lines outside fenced code blocks.
    static func prose(_ markdown: String) -> [Substring] {
        var fenced = false
        return markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                return false
            }
            return !fenced
        }
    }

    /// The targets of the inline links `[text](target)` of a Markdown text, code spans removed.
    static func links(_ markdown: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#) else { return [] }
        return prose(markdown).flatMap { line -> [String] in
            let parts = line.components(separatedBy: "`")
            let text = stride(from: 0, to: parts.count, by: 2).map { parts[$0] }.joined(separator: " ")
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            }
        }
    }

    /// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` removed, spaces to `-`.
    static func slug(_ heading: String) -> String {
        String(
            heading.lowercased().replacingOccurrences(of: " ", with: "-").unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_"
            })
    }

    /// Every anchor of a Markdown text: its headings' slugs (with GitHub's `-1`, `-2` for repeats) and `{#id}`s.
    static func anchors(_ markdown: String) -> Set<String> {
        var result: Set<String> = []
        var seen: [String: Int] = [:]
        for line in prose(markdown) {
            let hashes = line.prefix { $0 == "#" }.count
            guard hashes > 0, line.dropFirst(hashes).first == " " else { continue }
            var heading = String(line.dropFirst(hashes + 1)).trimmingCharacters(in: .whitespaces)
            if let id = heading.range(of: #"\{#([^}]+)\}\s*$"#, options: .regularExpression) {
                result.insert(String(heading[id].dropFirst(2).dropLast()).trimmingCharacters(in: .whitespaces))
                heading.removeSubrange(id)
            }
            let base = slug(heading.trimmingCharacters(in: .whitespaces))
            let n = seen[base, default: 0]
            seen[base] = n + 1
            result.insert(n == 0 ? base : "\(base)-\(n)")
        }
        return result
    }

    /// The broken links of the checked files, as `file: target (reason)`.
    static func brokenLinks() throws -> [String] {
        var broken: [String] = []
        for file in try markdownFiles() {
            let folder = (file as NSString).deletingLastPathComponent
            for target in links(try read(file)) {
                if target.range(of: #"^[a-z][a-z0-9+.-]*:"#, options: .regularExpression) != nil { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let linked =
                    path.isEmpty
                    ? file : ((folder as NSString).appendingPathComponent(path) as NSString).standardizingPath
                guard !linked.hasPrefix(".."), FileManager.default.fileExists(atPath: repositoryPath(linked)) else {
                    broken.append("\(file): \(target) (no such file)")
                    continue
                }
                guard parts.count == 2, !parts[1].isEmpty, linked.hasSuffix(".md") else { continue }
                if !anchors(try read(linked)).contains(String(parts[1])) {
                    broken.append("\(file): \(target) (no such heading in \(linked))")
                }
            }
        }
        return broken
    }

    @Test func readmeIsShort() throws {
        let lines = try Self.read("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= Self.maximumReadmeLines, "README.md has \(lines) lines")
    }

    @Test func everyRelativeLinkResolves() throws {
        #expect(try Self.brokenLinks() == [])
        // the check itself: a missing file and a missing heading are found, a heading's slug is accepted
        #expect(
            Self.slug("`taskproc batch`: a whole export (in one command)")
                == "taskproc-batch-a-whole-export-in-one-command")
        #expect(
            Self.anchors("# A\n## Exit status\n```\n# not a heading\n```\n## Exit status\n## Seeds {#seeds}\n")
                == ["a", "exit-status", "exit-status-1", "seeds"])
        #expect(Self.links("see [a](a.md#x) and `[b](b.md)`\n```\n[c](c.md)\n```\n") == ["a.md#x"])
    }

    /// The README's documentation index links every `docs/*.md` article.
    @Test func readmeLinksEveryArticle() throws {
        let linked = Set(
            Self.links(try Self.read("README.md")).map { $0.split(separator: "#").first.map(String.init) ?? "" })
        for file in try Self.markdownFiles() where file.hasPrefix("docs/") {
            #expect(linked.contains(file), "README.md does not link \(file)")
        }
    }

    /// The commands of the README's quick start, placeholders replaced.
    static func quickStart(export: String, out: String, file: String, report: String) throws -> [[String]] {
        let readme = try read("README.md")
        guard let start = readme.range(of: "## Quick start") else { return [] }
        let section = readme[start.upperBound...]
        guard let open = section.range(of: "```sh\n"), let close = section[open.upperBound...].range(of: "```")
        else { return [] }
        return section[open.upperBound..<close.lowerBound].split(separator: "\n").compactMap { line in
            let command = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
            let words = command.split(separator: " ").map(String.init)
            guard words.first == "taskproc" else { return nil }
            return words.dropFirst().map { word in
                word.replacingOccurrences(of: "EXPORT", with: export).replacingOccurrences(of: "OUT", with: out)
                    .replacingOccurrences(of: "FILE", with: file).replacingOccurrences(of: "report.html", with: report)
            }
        }
    }

    @Test func quickStartRuns() throws {
        let dir = try E2E.temporaryDirectory("readme")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(
            at: export, records: 20, seed: 20, extra: ["--every-task", "--broken", "0"])
        try #require(generated.status == 0, "\(generated.output)")
        let out = dir.appendingPathComponent("out").path
        let commands = try Self.quickStart(
            export: export, out: out, file: export + "/every-task/walking",
            report: dir.appendingPathComponent("report.html").path)
        #expect(commands.count >= 3, "the quick start has a batch, a report and an analyze command")
        for arguments in commands {
            let r = try E2E.run(arguments + (arguments.first == "batch" ? ["--no-progress"] : []))
            #expect(r.status == 0, "taskproc \(arguments.joined(separator: " ")): \(r.stderr)")
        }
    }

    /// The rows of the README's command table ("## The commands"): the command's words (without `taskproc`) and the
    /// excerpts of its output (the code spans of the last cell; none when the cell is a parenthesis).
    static func tour() throws -> [(words: [String], excerpts: [String])] {
        let readme = try read("README.md")
        guard let start = readme.range(of: "## The commands") else { return [] }
        let section = readme[start.upperBound...]
        let end = section.range(of: "\n## ").map { section[..<$0.lowerBound] } ?? section
        return end.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| ") else { return nil }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 6, let command = codeSpans(cells[3]).first, command.hasPrefix("taskproc ") else {
                return nil
            }
            let excerpts = cells[4].hasPrefix("(") ? [] : codeSpans(cells[4])
            return (command.split(separator: " ").dropFirst().map(String.init), excerpts)
        }
    }

    static func codeSpans(_ text: String) -> [String] {
        let parts = text.components(separatedBy: "`")
        return stride(from: 1, to: parts.count - 1, by: 2).map { parts[$0] }
    }

    /// The README's command tour is real output.
    ///
    /// Every command of the tour runs as shown, on `../shared/data` and on the export the README
    /// generates (`make_export.py EXPORT --records 20 --every-task --broken 0`, its default seed), and prints the
    /// excerpts the README quotes (compared with runs of spaces collapsed, as the tables align their columns).
    /// Files the examples make (`tone.wav`, `sims/`, `s1`, `s2`, …) live in a temporary folder; `synth`,
    /// `audiometry simulate` and `batch` run first, because other rows read what they write.
    @Test func commandTourIsRealOutput() throws {
        let dir = try E2E.temporaryDirectory("readme-tour")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(
            at: export, records: 20, seed: 1, extra: ["--every-task", "--broken", "0"])
        try #require(generated.status == 0, "\(generated.output)")
        try E2E.write(
            #"[{"250": 10, "500": 15, "1000": 20, "2000": 25, "3000": 30, "4000": 40, "8000": 50}]"#,
            to: dir.appendingPathComponent("audiograms.json").path)
        let out = dir.appendingPathComponent("out").path
        func resolve(_ word: String) -> String {
            let replaced = word.replacingOccurrences(of: "EXPORT", with: export)
            if replaced != word || word == "OUT" { return word == "OUT" ? out : replaced }
            if word.hasPrefix("-") || Double(word) != nil { return word }
            if FileManager.default.fileExists(atPath: sharedDataPath(word)) { return sharedDataPath(word) }
            if word.contains(".") || word.contains("/") || ["s1", "s2", "merged"].contains(word) {
                return dir.appendingPathComponent(word).path
            }
            return word
        }
        let first = ["synth", "audiometry", "batch"]
        let rows = try Self.tour().sorted {
            (first.firstIndex(of: $0.words[0]) ?? first.count) < (first.firstIndex(of: $1.words[0]) ?? first.count)
        }
        #expect(
            Set(rows.map { $0.words[0] }) == [
                "analyze", "inspect", "batch", "merge", "summarize", "report", "synth", "audiometry",
            ])
        for row in rows {
            if row.words[0] == "merge" {
                for (k, shard) in ["s1", "s2"].enumerated() {
                    let r = try E2E.run([
                        "batch", export, "--out", dir.appendingPathComponent(shard).path, "--shard", "\(k + 1)/2",
                        "--no-progress",
                    ])
                    try #require(r.status == 0, "\(r.stderr)")
                }
            }
            let subcommand = row.words[0] == "audiometry" ? 2 : 1  // `audiometry` is also a shared data folder
            let arguments = row.words.prefix(subcommand) + row.words.dropFirst(subcommand).map(resolve)
            let r = try E2E.run(Array(arguments))
            let shown = "taskproc " + row.words.joined(separator: " ")
            #expect(r.status == 0, "\(shown): \(r.stderr)")
            let printed = (r.stdout + "\n" + r.stderr).replacingOccurrences(
                of: " +", with: " ", options: .regularExpression
            ).replacingOccurrences(of: dir.path + "/", with: "")
            for excerpt in row.excerpts {
                #expect(printed.contains(excerpt), "\(shown) does not print `\(excerpt)`:\n\(printed)")
            }
        }
    }
}
