import Archives
import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 against the FIPS 180-2 / NIST example vectors.
@Suite struct BatchHashTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func nistVectors(message: String, digest: String) {
        #expect(SHA256.hex(Data(message.utf8)) == digest)
    }

    @Test func oneMillionAsInUnevenPieces() {
        var hasher = SHA256()
        var remaining = 1_000_000
        var piece = 1
        while remaining > 0 {
            let n = min(piece, remaining)
            hasher.update(Data(repeating: UInt8(ascii: "a"), count: n))
            remaining -= n
            piece = piece * 3 % 997 + 1
        }
        #expect(hasher.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func shardsPartitionEveryHash() throws {
        // Each hash lands in exactly one of N shards; hashes spread over all of them.
        var counts = [0, 0, 0]
        for i in 0..<300 {
            let hash = SHA256.hex(Data("record \(i)".utf8))
            let owners = (1...3).filter { ShardSpec("\($0)/3")!.contains(hash: hash) }
            #expect(owners.count == 1)
            counts[owners[0] - 1] += 1
        }
        #expect(counts.allSatisfy { $0 > 60 })
        #expect(ShardSpec("0/3") == nil)
        #expect(ShardSpec("4/3") == nil)
        #expect(ShardSpec("1-3") == nil)
    }
}

/// Record discovery: one record per task folder / file, links and hidden files.
@Suite struct BatchDiscoveryTests {
    @Test func symbolicLinksLeavingTheInputAreRejected() throws {
        let folder = try BatchSupport.temporaryFolder("links")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let input = folder + "/export"
        let fm = FileManager.default
        try fm.createDirectory(atPath: input + "/sub", withIntermediateDirectories: true)
        try Data("t,x,y,z\n".utf8).write(to: URL(fileURLWithPath: input + "/sub/a.csv"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: folder + "/outside.csv"))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: input + "/.hidden.csv"))
        try fm.createSymbolicLink(atPath: input + "/escape.csv", withDestinationPath: folder + "/outside.csv")
        try fm.createSymbolicLink(atPath: input + "/inside.csv", withDestinationPath: input + "/sub/a.csv")
        try fm.createSymbolicLink(atPath: input + "/loop", withDestinationPath: input)
        let found = try RecordDiscovery.discover(
            inputs: [.init(input)], archiveFolder: folder + "/archives", limits: ArchiveLimits())
        let sources = found.records.map(\.source)
        // sub/a.csv is the file inside.csv links to: one record, under the name it was found by first.
        #expect(sources == [input + "/escape.csv", input + "/inside.csv"])
        #expect(found.records[0].rejection?.contains("leaves the input folder; not followed") == true)
        #expect(found.records[1].rejection == nil)
        // Every other path is a skip with its reason, none vanishes.
        #expect(found.skipped == [input + "/.hidden.csv", input + "/loop", input + "/sub/a.csv"])
        #expect(
            found.skipReasons == [
                RecordDiscovery.SkipReason.hidden: 1, RecordDiscovery.SkipReason.linkToFolder: 1,
                RecordDiscovery.SkipReason.reachedTwice: 1,
            ])
    }

    @Test func nothingVanishesNothingDoubles() throws {
        let folder = try BatchSupport.temporaryFolder("vanish")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let input = folder + "/export"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        let walk = Data("t,x,y,z\n0,0,0,1\n".utf8)
        // NFC and NFD twins: two files to Linux, one string to Swift's ==.
        let nfc = input + "/caf\u{E9}.csv"
        let nfd = input + "/cafe\u{301}.csv"
        try walk.write(to: URL(fileURLWithPath: nfc))
        try walk.write(to: URL(fileURLWithPath: nfd))
        // A name that is not UTF-8 (Latin-1 é), made with the raw bytes.
        let latin1 = Array((input + "/caf").utf8) + [0xE9] + Array(".csv".utf8) + [0]
        let fd = latin1.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(fd >= 0)
        close(fd)
        #expect(mkfifo(input + "/pipe.csv", 0o644) == 0)
        // The same export given twice, under two spellings.
        let found = try RecordDiscovery.discover(
            inputs: [.init(input), .init(folder + "/./export")], archiveFolder: folder + "/archives",
            limits: ArchiveLimits())
        let sources = found.records.map(\.source)
        #expect(sources.count == 3, "\(sources)")
        #expect(
            sources.contains { $0.utf8.elementsEqual(nfc.utf8) } && sources.contains { $0.utf8.elementsEqual(nfd.utf8) }
        )
        let bad = try #require(found.records.first { $0.rejection != nil })
        #expect(bad.source == input + "/caf\\xE9.csv")
        #expect(bad.rejection?.contains("the file name is not valid UTF-8") == true)
        #expect(
            found.skipReasons == ["a FIFO (named pipe)": 1, RecordDiscovery.SkipReason.reachedTwice: 1],
            "\(found.skipReasons)")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads every folder"))
    func anUnreadableFolderIsARejectedRecordNotSilence() throws {
        let folder = try BatchSupport.temporaryFolder("unreadable")
        defer {
            chmod(folder + "/export/locked", 0o755)
            for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) }
        }
        let locked = folder + "/export/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try Data("t,x,y,z\n".utf8).write(to: URL(fileURLWithPath: locked + "/a.csv"))
        chmod(locked, 0)
        let found = try RecordDiscovery.discover(
            inputs: [.init(folder + "/export")], archiveFolder: folder + "/archives", limits: ArchiveLimits())
        #expect(found.records.map(\.source) == [folder + "/export/locked"])
        #expect(found.records.first?.rejection == "cannot list the folder: Permission denied")
    }

    @Test func archivesOfArchivesShareOneByteBudget() throws {
        let folder = try BatchSupport.temporaryFolder("budget")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let input = folder + "/export"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        let csv = Data(("t,x,y,z\n" + String(repeating: "0,0,0,1\n", count: 500)).utf8)  // 4 008 bytes
        let inner = BatchSupport.zip([.init(name: "walk.csv", data: csv)])
        let outer = BatchSupport.zip((1...3).map { .init(name: "part\($0).zip", data: inner) })
        try outer.write(to: URL(fileURLWithPath: input + "/export.zip"))
        var limits = ArchiveLimits()
        // Each archive alone is within it; the outer archive and its three inner ones are not.
        limits.maxTotalBytes = Int64(3 * inner.count + 2 * csv.count + 100)
        let found = try RecordDiscovery.discover(
            inputs: [.init(input)], archiveFolder: folder + "/archives", limits: limits)
        let rejected = found.records.filter { $0.rejection != nil }
        #expect(found.records.count == 3)
        #expect(rejected.map(\.source) == [input + "/export.zip!/part3.zip"])
        #expect(rejected.first?.rejection?.contains("of the run's --max-archive-bytes") == true)
    }

    /// Entries that are never inputs are not extracted, yet discovery of the archive finds what the walk of the
    /// same tree as a folder finds: the same records (a task folder keeps its documents), the same skips.
    @Test func archiveEntriesThatAreNeverInputsAreSkippedUnextractedAsInAFolder() throws {
        let folder = try BatchSupport.temporaryFolder("omit")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let task = #"{"_class":"ORKTaskResult","results":[{"_class":"ORKFileResult","fileName":"accel.json"}]}"#
        let tree: [(String, String)] = [
            ("docs/readme.md", "# x"), ("docs/figure.png", "png"), ("docs/sub/notes.MD", "n"),
            (".git/config", "c"), (".git/objects/ab", "o"), (".DS_Store", "d"), ("data/.hidden.csv", "t,x\n"),
            ("data/walk.csv", "t,x,y,z\n0,0,0,1\n"), ("__MACOSX/data/._walk.csv", "a"),
            ("task1/taskResult.json", task), ("task1/accel.json", "{}"), ("task1/readme.md", "r"),
            ("task1/.meta", "m"), ("SurveyData/P-1/SR-1/walking.outbound/Accelerometer.json", "[]"),
            ("SurveyData/P-1/SR-1/walking.outbound/thumb.png", "p"), ("surveyresults.csv", "a,b\n"),
            ("notes/a.b/c.md", "m"), ("notes/x.json.gz.md", "m"),
        ]
        let input = folder + "/tree"
        for (path, text) in tree {
            let file = input + "/" + path
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        }
        let archive = folder + "/tree.zip"
        try BatchSupport.zip(tree.map { .init(name: $0.0, data: Data($0.1.utf8)) })
            .write(to: URL(fileURLWithPath: archive))
        struct Seen: Equatable {
            var records: [String]
            var skipped: [String]
            var reasons: [String: Int]
        }
        func seen(_ path: String, _ prefix: String) throws -> Seen {
            let found = try RecordDiscovery.discover(
                inputs: [.init(path)], archiveFolder: folder + "/archives", limits: ArchiveLimits())
            func relative(_ source: String) -> String { String(source.dropFirst(prefix.count)) }
            return Seen(
                records: found.records.map {
                    relative($0.source) + ($0.isFolder ? "/" : "") + ($0.rejection.map { " ✗ " + $0 } ?? "")
                },
                skipped: found.skipped.map(relative).sorted(), reasons: found.skipReasons)
        }
        let asFolder = try seen(input, input + "/")
        let asArchive = try seen(archive, archive + "!/")
        #expect(asArchive == asFolder)
        #expect(
            asFolder.records == [
                "SurveyData/P-1/SR-1/walking.outbound/", "data/walk.csv", "task1/",
            ])
        #expect(
            asFolder.reasons == [
                RecordDiscovery.SkipReason.hidden: 3, RecordDiscovery.SkipReason.hiddenFolder: 1,
                RecordDiscovery.SkipReason.notAnInput: 6,
            ])
        // Nothing that is skipped was written; a record folder's files all were.
        let extracted = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/archives").first { !$0.contains(".") })
        let files = Set(
            (FileManager.default.enumerator(atPath: folder + "/archives/" + extracted)?.allObjects as? [String]) ?? [])
        #expect(
            files.filter { !$0.hasSuffix("/") && !["SurveyData", "data", "task1"].contains($0) }.sorted()
                == [
                    "SurveyData/P-1", "SurveyData/P-1/SR-1", "SurveyData/P-1/SR-1/walking.outbound",
                    "SurveyData/P-1/SR-1/walking.outbound/Accelerometer.json",
                    "SurveyData/P-1/SR-1/walking.outbound/thumb.png", "data/walk.csv", "task1/taskResult.json",
                    "task1/accel.json", "task1/readme.md", "task1/.meta",
                ].sorted())
        // A second discovery reuses the extraction and its report: the same again.
        #expect(try seen(archive, archive + "!/") == asFolder)
    }

    @Test func effectiveExtensionByBytesIsNSStringsOnASCIIPaths() {
        let paths = [
            ".md", "a.", "a..md", ".a.md", "a.MD", "x/.md", "x/a.b/c", "a/b.c.gz", "a.tar.gz", ".gz", "a/.x.gz",
            "x.gz", "a..gz", "a. b", "a.b c", "/x/y.CSV.GZ", "y.json", "noext", "a/b/c.d/e.f.g",
        ]
        for path in paths {
            let byBytes = InputRecognizer.asciiEffectiveExtension(path)
            let name = (path as NSString).lastPathComponent
            var ext = (name as NSString).pathExtension.lowercased()
            if ext == "gz" { ext = ((name as NSString).deletingPathExtension as NSString).pathExtension.lowercased() }
            #expect(byBytes == ext, "\(path)")
        }
        for path in ["a/", "a//b.c", "é.ñ", "a.\u{301}b"] {
            #expect(InputRecognizer.asciiEffectiveExtension(path) == nil)
        }
    }

    @Test func taskFoldersAndMyDataHelpsStepsAreOneRecord() throws {
        let fixtures = fixturePath("mydatahelps")
        let folder = try BatchSupport.temporaryFolder("mdh")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let found = try RecordDiscovery.discover(
            inputs: [.init(fixtures)], archiveFolder: folder, limits: ArchiveLimits())
        let step = found.records.first { $0.source.hasSuffix("SurveyData/P-0001/SR-77/walking.outbound") }
        #expect(step?.isFolder == true)
        #expect(!found.records.contains { $0.source.hasSuffix("Accelerometer.json") })
    }

    @Test func missingInputIsAnError() throws {
        let folder = try BatchSupport.temporaryFolder("missing")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        #expect(throws: BatchError.self) {
            try RecordDiscovery.discover(
                inputs: [.init(folder + "/nope")], archiveFolder: folder, limits: ArchiveLimits())
        }
    }
}

/// End to end on a generated export of a few hundred mixed records, some broken.
@Suite(.serialized) struct BatchEndToEndTests {
    func run(
        _ export: String, out: String, shard: ShardSpec? = nil, jobs: Int = 2,
        mode: BatchRunner.Mode = .fresh(force: false)
    ) async throws
        -> BatchRunner.Summary
    {
        try await BatchRunner.run(
            configuration: BatchConfiguration(inputs: [.init(export)], shard: shard),
            analysis: RecordAnalysis.Options(),
            outputFolder: out, mode: mode, jobs: jobs)
    }

    @Test func everyRecordIsInResultsOrErrorsAndShardsMergeToTheSingleRun() async throws {
        let folder = try BatchSupport.temporaryFolder("e2e")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        let manifest = try BatchSupport.generateExport(at: export, records: 240, seed: 11)
        let single = folder + "/single"
        let summary = try await run(export, out: single)
        #expect(summary.records == manifest.records.count)
        #expect(summary.skippedFiles == manifest.skipped.count)

        // Every record exactly once, in results or errors; every broken one in errors.
        let results = try BatchSupport.jsonLines(single + "/results.jsonl")
        let errors = try BatchSupport.jsonLines(single + "/errors.jsonl")
        var where_: [String: String] = [:]
        for line in results { where_[line["source"] as! String, default: ""] += "r" }
        for line in errors { where_[line["source"] as! String, default: ""] += "e" }
        #expect(where_.count == manifest.records.count)
        for record in manifest.records {
            let placed = where_[export + "/" + record.source]
            if record.broken != nil {
                #expect(placed == "e", "\(record.source) (\(record.kind), broken: \(record.broken ?? "no"))")
            } else {
                #expect(placed == "r", "\(record.source) (\(record.kind))")
            }
        }
        #expect(summary.counts.succeeded == results.count)
        #expect(summary.counts.failed == errors.count)
        // Sources are sorted byte-wise; archive entries are named archive.zip!/inner.
        let sources = (results + errors).map { $0["source"] as! String }
        #expect(
            results.map { $0["source"] as! String }
                == results.map { $0["source"] as! String }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(sources.contains { $0.contains(".zip!/") })
        // No path of the extraction folder leaks into any output.
        for (name, data) in try BatchSupport.textOutputs(single) {
            #expect(!String(decoding: data, as: UTF8.self).contains(BatchRunner.workFolderName), "\(name)")
        }
        // Join keys from the paths and the task results reach the CSV.
        let walking = try String(contentsOfFile: single + "/walking.csv", encoding: .utf8)
        let header = walking.split(separator: "\n")[0]
        #expect(
            header.hasPrefix(
                "recordSource,contentHash,recordId,healthCode,ParticipantIdentifier,taskRunUUID,participant,date,"
                    + "startTime,status,error,stepIdentifier"
            ))
        #expect(walking.contains(",HC0"))

        // Shards 1/3, 2/3, 3/3 then merge reproduce the single run byte for byte (SQLite row for row).
        var shardFolders: [String] = []
        var analysed = 0
        for k in 1...3 {
            let out = folder + "/shard\(k)"
            let s = try await run(export, out: out, shard: ShardSpec("\(k)/3"), jobs: 1)
            analysed += s.counts.succeeded + s.counts.failed
            shardFolders.append(out)
        }
        #expect(analysed == manifest.records.count)
        let merged = folder + "/merged"
        _ = try BatchMerge.merge(shardFolders: shardFolders.reversed(), into: merged, force: false)
        let mergedOutputs = try BatchSupport.textOutputs(merged)
        let singleOutputs = try BatchSupport.textOutputs(single)
        #expect(mergedOutputs == singleOutputs)
        // Name what differs (seen once under heavy load, 2026-11-26, and not reproduced): the file and its first
        // differing line.
        for name in Set(mergedOutputs.keys).union(singleOutputs.keys) where mergedOutputs[name] != singleOutputs[name] {
            let a = String(decoding: mergedOutputs[name] ?? Data(), as: UTF8.self).split(separator: "\n")
            let b = String(decoding: singleOutputs[name] ?? Data(), as: UTF8.self).split(separator: "\n")
            let line = zip(a, b).first { $0 != $1 }
            Issue.record(
                "\(name) differs: merged \(a.count) lines, single \(b.count); first difference \(String(describing: line))"
            )
        }
        #expect(try BatchSupport.sqliteTables(merged) == BatchSupport.sqliteTables(single))
        #expect(try BatchSupport.runLogEvents(merged).filter { $0 == "start" }.count == 3)

        // A missing shard is refused with a clear error.
        let error = #expect(throws: (any Error).self) {
            _ = try BatchMerge.merge(shardFolders: Array(shardFolders.prefix(2)), into: folder + "/bad", force: false)
        }
        #expect(error.map { "\($0)" }?.contains("shard(s) 3/3 missing") == true)

        // Parallelism does not change a byte.
        let serial = folder + "/serial"
        _ = try await run(export, out: serial, jobs: 1)
        #expect(try BatchSupport.textOutputs(serial) == BatchSupport.textOutputs(single))
    }

    @Test func aDamagedOrDoubledJournalLineIsQuarantinedAndNeverCopiedOut() async throws {
        let folder = try BatchSupport.temporaryFolder("damage")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 60, seed: 6)
        let reference = folder + "/reference"
        _ = try await run(export, out: reference)
        let damaged = folder + "/damaged"
        _ = try await run(export, out: damaged)
        let path = damaged + "/" + BatchRunner.workFolderName + "/journal.jsonl"
        var lines = try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: 0x0A).map { Array($0) }
        // A flipped byte inside line 11's results (its head still decodes), a zeroed line 21 (what a lost NFS
        // block looks like), and line 30 written twice (two writers shared the journal once).
        let tab = try #require(lines[10].firstIndex(of: 0x09))
        lines[10][tab + 12] ^= 0x01
        lines[20] = [UInt8](repeating: 0, count: lines[20].count)
        lines.insert(lines[29], at: 30)
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: path))
        var state = try BatchRunner.loadState(damaged)
        #expect(state.complete)
        // A complete run whose journal is damaged is not complete: the resume analyses those records again.
        let resumed = try await run(export, out: damaged, mode: .resume)
        #expect(!resumed.alreadyComplete)
        #expect(resumed.quarantined.map(\.line) == [11, 21])
        #expect(resumed.quarantined[0].reason.hasPrefix("checksum mismatch"))
        #expect(resumed.processedNow == 2)
        #expect(try BatchSupport.textOutputs(damaged) == BatchSupport.textOutputs(reference))
        #expect(try BatchSupport.sqliteTables(damaged) == BatchSupport.sqliteTables(reference))
        let quarantine = try BatchSupport.jsonLines(damaged + "/" + BatchRunner.workFolderName + "/quarantine.jsonl")
        #expect(quarantine.map { $0["line"] as? Int } == [11, 21])
        // The damage left the journal: the run is complete now.
        #expect(try BatchJournal.damage(path).isEmpty)
        state = try BatchRunner.loadState(damaged)
        #expect(state.complete)
        #expect(try await run(export, out: damaged, mode: .resume).alreadyComplete)
    }

    @Test func aResumeAfterTheInputsChangedReanalysesChangedRecordsAndDropsDeletedOnes() async throws {
        let folder = try BatchSupport.temporaryFolder("changed")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 60, seed: 7)
        let out = folder + "/out"
        _ = try await run(export, out: out)
        // Between sessions: one file's content changes, one is deleted, one is only touched.
        let files = RecordDiscovery.filesUnder(export).filter { $0.hasSuffix(".csv") && $0.hasPrefix("csv/") }
        try #require(files.count >= 3)
        let changed = export + "/" + files[0]
        var text = try String(contentsOfFile: changed, encoding: .utf8)
        text += text.split(separator: "\n").last.map { String($0) + "\n" } ?? ""
        try text.write(toFile: changed, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: export + "/" + files[1])
        let touched = export + "/" + files[2]
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: touched)
        var state = try BatchRunner.loadState(out)
        state.complete = false
        try BatchRunner.saveState(state, out)
        let resumed = try await run(export, out: out, mode: .resume)
        #expect(resumed.changedInputs == [changed])
        #expect(resumed.deletedInputs == [export + "/" + files[1]])
        #expect(resumed.touchedInputs == 1)
        #expect(resumed.processedNow == 2)
        // The outputs are those of a fresh run over the inputs as they are now.
        let fresh = folder + "/fresh"
        _ = try await run(export, out: fresh)
        #expect(try BatchSupport.textOutputs(out) == BatchSupport.textOutputs(fresh))
        #expect(try BatchSupport.sqliteTables(out) == BatchSupport.sqliteTables(fresh))
    }

    @Test func shardsThatDoNotFitTogetherAreRefusedNamingTheRecord() async throws {
        let folder = try BatchSupport.temporaryFolder("merge-misfit")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 40, seed: 12)
        _ = try await run(export, out: folder + "/s1", shard: ShardSpec("1/2"))
        // The inputs change between the shard runs: shard 2 discovers one more record.
        try Data("t,x,y,z\n0,0,0,1\n".utf8).write(to: URL(fileURLWithPath: export + "/late.csv"))
        _ = try await run(export, out: folder + "/s2", shard: ShardSpec("2/2"))
        let misfit = #expect(throws: BatchError.self) {
            try BatchMerge.merge(shardFolders: [folder + "/s1", folder + "/s2"], into: folder + "/m1", force: false)
        }
        #expect(
            misfit?.message.contains("discovered different records (e.g. \(export)/late.csv)") == true,
            "\(String(describing: misfit))")
        // A record analysed by both shards (a journal line of shard 1 appended to shard 2's).
        try FileManager.default.removeItem(atPath: export + "/late.csv")
        _ = try await run(export, out: folder + "/s2", shard: ShardSpec("2/2"), mode: .fresh(force: true))
        let one = folder + "/s1/" + BatchRunner.workFolderName + "/journal.jsonl"
        let two = folder + "/s2/" + BatchRunner.workFolderName + "/journal.jsonl"
        let analysedLine = try #require(
            try String(contentsOfFile: one, encoding: .utf8).split(separator: "\n").first {
                !$0.contains("\"otherShard\"")
            })
        let handle = try #require(FileHandle(forWritingAtPath: two))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((analysedLine + "\n").utf8))
        try handle.close()
        let twice = #expect(throws: BatchError.self) {
            try BatchMerge.merge(shardFolders: [folder + "/s1", folder + "/s2"], into: folder + "/m2", force: false)
        }
        #expect(
            twice?.message.contains("was analysed by both \(folder)/s1 and \(folder)/s2") == true,
            "\(String(describing: twice))")
        // A damaged line in a shard's journal: the merge names it and the resume that repairs it.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: one)))
        let second = try #require(bytes.firstIndex(of: 0x0A)) + 1
        bytes[second + 5] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: one))
        let damaged = #expect(throws: BatchError.self) {
            try BatchMerge.merge(shardFolders: [folder + "/s1", folder + "/s2"], into: folder + "/m3", force: false)
        }
        #expect(
            damaged?.message.contains("\(folder)/s1: its journal is damaged (line 2: checksum mismatch") == true,
            "\(String(describing: damaged))")
    }

    @Test func resumeAfterAnInterruptedJournalReproducesTheRun() async throws {
        let folder = try BatchSupport.temporaryFolder("resume")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 80, seed: 5)
        let reference = folder + "/reference"
        _ = try await run(export, out: reference)

        // Simulate a crash: keep 40 % of the journal plus half of the next line, drop the outputs, mark incomplete.
        let crashed = folder + "/crashed"
        _ = try await run(export, out: crashed)
        let work = crashed + "/" + BatchRunner.workFolderName
        let journal = try Data(contentsOf: URL(fileURLWithPath: work + "/journal.jsonl"))
        let lines = journal.split(separator: 0x0A, omittingEmptySubsequences: false)
        let keep = lines.count * 2 / 5
        var cut = Data(lines[0..<keep].joined(separator: [0x0A]))
        cut.append(0x0A)
        cut.append(lines[keep].prefix(lines[keep].count / 2))
        try cut.write(to: URL(fileURLWithPath: work + "/journal.jsonl"))
        var state = try BatchRunner.loadState(crashed)
        state.complete = false
        try BatchRunner.saveState(state, crashed)
        for name in try FileManager.default.contentsOfDirectory(atPath: crashed) where !name.hasPrefix(".") {
            try FileManager.default.removeItem(atPath: crashed + "/" + name)
        }
        try Data("half".utf8).write(to: URL(fileURLWithPath: crashed + "/results.jsonl.partial"))

        // A new run refuses the folder; --resume finishes it.
        await #expect(throws: BatchError.self) { _ = try await run(export, out: crashed) }
        let resumed = try await run(export, out: crashed, mode: .resume)
        #expect(resumed.processedNow == lines.count - 1 - keep)
        #expect(try BatchSupport.textOutputs(crashed) == BatchSupport.textOutputs(reference))
        #expect(try BatchSupport.sqliteTables(crashed) == BatchSupport.sqliteTables(reference))
        #expect(!FileManager.default.fileExists(atPath: crashed + "/results.jsonl.partial"))
        // Resuming a complete run does nothing.
        let again = try await run(export, out: crashed, mode: .resume)
        #expect(again.alreadyComplete)
        // --force starts again.
        _ = try await run(export, out: crashed, mode: .fresh(force: true))
        #expect(try BatchSupport.textOutputs(crashed) == BatchSupport.textOutputs(reference))
    }

    @Test func journalsOfTheOneJSONObjectPerLineFormatStillResume() async throws {
        // Journals written before the line moved out of the JSON (one whole entry per line, `line` inside) are
        // read as they are: a run interrupted by an older taskproc resumes to the same outputs.
        let folder = try BatchSupport.temporaryFolder("oldjournal")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        _ = try BatchSupport.generateExport(at: export, records: 30, seed: 9)
        let reference = folder + "/reference"
        _ = try await run(export, out: reference)
        let old = folder + "/old"
        _ = try await run(export, out: old)
        let work = old + "/" + BatchRunner.workFolderName
        let journal = try Data(contentsOf: URL(fileURLWithPath: work + "/journal.jsonl"))
        let lines = journal.split(separator: 0x0A)
        #expect(lines.count == 30)
        var rewritten = Data()
        for line in lines.prefix(20) {
            let parts = line.split(separator: 0x09, omittingEmptySubsequences: false)
            try #require(parts.count == 5, "a journal line has a head, the line, the tables, the export, a CRC")
            var head = try #require(JSONSerialization.jsonObject(with: Data(parts[0])) as? [String: Any])
            head["line"] = String(decoding: parts[1], as: UTF8.self)
            head["tables"] = try JSONSerialization.jsonObject(with: Data(parts[2]))
            head["headerKinds"] = nil
            #expect(parts[3].isEmpty)  // this run exports nothing
            rewritten.append(try JSONSerialization.data(withJSONObject: head, options: [.sortedKeys]))
            rewritten.append(0x0A)
        }
        // And lines of the next version: four parts, no checksum.
        for line in lines[20..<25] {
            let parts = line.split(separator: 0x09, omittingEmptySubsequences: false)
            rewritten.append(Data(parts.prefix(4).joined(separator: [0x09])))
            rewritten.append(0x0A)
        }
        try rewritten.write(to: URL(fileURLWithPath: work + "/journal.jsonl"))
        var state = try BatchRunner.loadState(old)
        state.complete = false
        try BatchRunner.saveState(state, old)
        let resumed = try await run(export, out: old, mode: .resume)
        #expect(resumed.processedNow == 5)
        #expect(resumed.quarantined.isEmpty)
        #expect(try BatchSupport.textOutputs(old) == BatchSupport.textOutputs(reference))
        #expect(try BatchSupport.sqliteTables(old) == BatchSupport.sqliteTables(reference))
    }

    @Test func aDatabaseFailureStopsTheOutputsAndNothingIsMovedIntoPlace() throws {
        // The database is written on its own thread: its failure (here a task kind named like a fixed table, so
        // CREATE TABLE fails halfway through) must reach the caller, and no output may be moved into place.
        let folder = try BatchSupport.temporaryFolder("sqlitefail")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = try BatchJournal(folder + "/journal.jsonl")
        for i in 0..<600 {  // more entries than the queue between the threads holds
            let kind = i == 300 ? "results" : "walking"
            let row = ["r\(i)", "h", "", "", "", "", "ok", "", "1"]
            try journal.append(
                BatchEntry(
                    source: String(format: "r%03d", i), contentHash: "h", status: .ok, kind: "walking", line: "{}",
                    reason: nil, tables: [.init(kind: kind, header: ["x"], rows: [row])], keys: RecordKeys(),
                    dialect: nil))
        }
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(throws: (any Error).self) {
            try BatchOutputs.write(journals: [journal.path], to: out, runLog: [], runInfo: [])
        }
        for name in ["results.jsonl", "errors.jsonl", "walking.csv", "taskproc.sqlite"] {
            #expect(!FileManager.default.fileExists(atPath: out + "/" + name), "\(name)")
        }
        // The same journal without the clash writes every output.
        let fine = try BatchJournal(folder + "/fine.jsonl")
        for i in 0..<600 {
            let row = ["r\(i)", "h", "", "", "", "", "ok", "", "1"]
            try fine.append(
                BatchEntry(
                    source: String(format: "r%03d", i), contentHash: "h", status: .ok, kind: "walking", line: "{}",
                    reason: nil, tables: [.init(kind: "walking", header: ["x"], rows: [row])], keys: RecordKeys(),
                    dialect: nil))
        }
        let counts = try BatchOutputs.write(journals: [fine.path], to: out, runLog: [], runInfo: [])
        #expect(counts.rowsByKind == ["walking": 600])
        #expect(try BatchSupport.sqliteTables(out)["walking"]?.count == 600)
    }

    @Test func archiveProblemsBecomeErrorRecords() async throws {
        let folder = try BatchSupport.temporaryFolder("zipe2e")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        let csv = Data("time_ms,ax,ay,az\n0,0,0,1\n20,0,0,1\n40,0,0,1\n".utf8)
        try BatchSupport.zip([.init(name: "ok.csv", data: csv), .init(name: "../../slip.csv", data: csv)])
            .write(to: URL(fileURLWithPath: export + "/a.zip"))
        try BatchSupport.zip((0..<3).map { .init(name: "f\($0).csv", data: csv) })
            .write(to: URL(fileURLWithPath: export + "/many.zip"))
        var configuration = BatchConfiguration(inputs: [.init(export)])
        configuration.limits.maxEntries = 2
        let out = folder + "/out"
        let summary = try await BatchRunner.run(
            configuration: configuration, analysis: RecordAnalysis.Options(), outputFolder: out,
            mode: .fresh(force: false))
        #expect(summary.records == 3)
        let errors = try BatchSupport.jsonLines(out + "/errors.jsonl")
        let reasons = Dictionary(
            uniqueKeysWithValues: errors.map { ($0["source"] as! String, $0["reason"] as! String) })
        #expect(reasons[export + "/a.zip!/../../slip.csv"]?.contains("zip slip") == true)
        #expect(reasons[export + "/many.zip"]?.contains("holds 3 entries, over the limit of 2") == true)
        let results = try BatchSupport.jsonLines(out + "/results.jsonl")
        #expect(results.map { $0["source"] as! String } == [export + "/a.zip!/ok.csv"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/slip.csv"))
    }

    @Test func oneDecompressedSizeLimitForGzipFilesAndZipEntries() async throws {
        // Issue 16: --max-entry-bytes applied to ZIP entries only; a small .gz could inflate to gigabytes in memory.
        let folder = try BatchSupport.temporaryFolder("gzlimit")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        let rows = (0..<400).map { "\($0 * 20),0,0,1" }.joined(separator: "\n")
        let csv = Data(("time_ms,ax,ay,az\n" + rows + "\n").utf8)  // about 4 KB
        try csv.write(to: URL(fileURLWithPath: export + "/walk.csv"))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = [export + "/walk.csv"]  // leaves walk.csv.gz only
        try gzip.run()
        gzip.waitUntilExit()
        try Data("time_ms,ax,ay,az\n0,0,0,1\n20,0,0,1\n40,0,0,1\n".utf8)
            .write(to: URL(fileURLWithPath: export + "/small.csv"))
        try BatchSupport.zip([.init(name: "inside.csv", data: csv)]).write(to: URL(fileURLWithPath: export + "/a.zip"))
        var configuration = BatchConfiguration(inputs: [.init(export)])
        configuration.limits.maxEntryBytes = 2000
        let out = folder + "/out"
        _ = try await BatchRunner.run(
            configuration: configuration, analysis: RecordAnalysis.Options(), outputFolder: out,
            mode: .fresh(force: false))
        let errors = try BatchSupport.jsonLines(out + "/errors.jsonl")
        let reasons = Dictionary(
            uniqueKeysWithValues: errors.map { ($0["source"] as! String, $0["reason"] as! String) })
        let message = "decompressed size exceeds the limit (max 2000 bytes, --max-entry-bytes)"
        #expect(reasons[export + "/walk.csv.gz"]?.contains(message) == true, "\(reasons)")
        #expect(reasons[export + "/a.zip!/inside.csv"]?.contains(message) == true, "\(reasons)")
        let results = try BatchSupport.jsonLines(out + "/results.jsonl")
        #expect(results.map { $0["source"] as! String } == [export + "/small.csv"])
    }
}

/// The dispatcher sends each task kind to its processor.
@Suite struct BatchDispatchTests {
    static let fixtures = fixturePath("") + "/"

    @Test func eachKindReachesItsProcessor() throws {
        let cases: [(String, String, Int)] = [
            (
                "researchkit/spl-meter.json", "environmentSPLMeter",
                SPLMeterProcessor.analyze(try AnalysisRegistry.load(path: Self.fixtures + "researchkit/spl-meter.json"))
                    .count
            ),
            (
                "researchkit/dbhl-result.json", "dBHLToneAudiometry",
                AudiometryProcessor.analyze(
                    try AnalysisRegistry.load(path: Self.fixtures + "researchkit/dbhl-result.json")
                )
                .count
            ),
            (
                "researchkit/tapping-task.json", "tapping",
                TappingProcessor.analyze(
                    try AnalysisRegistry.load(path: Self.fixtures + "researchkit/tapping-task.json")
                )
                .count
            ),
            ("researchkit/timed-walk-task.json", "walking", 2),
        ]
        for (file, kind, count) in cases {
            let outcome = RecordAnalysis.analyze(recordAt: Self.fixtures + file)
            #expect(outcome.failure == nil, "\(file): \(outcome.failure ?? "")")
            #expect(outcome.results.count == count && count > 0, "\(file)")
            #expect(outcome.results.allSatisfy { $0.kind == kind }, "\(file)")
        }
        // Range of motion, long without a processor, is scored now (ScoredTaskTests).
        let motion = RecordAnalysis.analyze(recordAt: Self.fixtures + "researchkit/range-of-motion.json")
        #expect(motion.failure == nil && motion.results.map(\.kind) == ["rangeOfMotion"])
        #expect(motion.taskKind == .rangeOfMotion)
    }

    @Test func tapTableFromSharedDataKeepsEveryTap() throws {
        // mhealthtools' tap_data: 181 taps (90 left, 75 right, 16 none) per the data's README.
        let outcome = RecordAnalysis.analyze(recordAt: sharedDataPath("mpower-samples/mhealthtools_tap_data.csv"))
        let result = try #require(outcome.results.first)
        #expect(result.kind == "tapping")
        let header = result.csvHeader
        let row = try #require(result.csvRows.first)
        #expect(row[try #require(header.firstIndex(of: "tapCount"))] == "181")
        #expect(row[try #require(header.firstIndex(of: "leftTaps"))] == "90")
        #expect(row[try #require(header.firstIndex(of: "rightTaps"))] == "75")
    }
}
