import Foundation
import GRDB
import Testing

/// A small hand-made study export with known answers.
///
/// Written by the test (no shared data copied):
///
/// | participant | path scope | `scopes.csv` | record | known answer |
/// |---|---|---|---|---|
/// | HC1 | all_qualified_researchers | – | tap table | 11 taps |
/// | HC2 | sponsors_and_partners | – | tap table | 12 taps |
/// | HC3 | no_sharing | – | tap table | 13 taps |
/// | HC4 | – | sponsors_and_partners | tap table | 14 taps |
/// | HC5 | – | – | tap table | 15 taps |
/// | HC6 | – | all_qualified_researchers | mPower walk, 1.8 Hz × 20 s | 36 steps, 108 steps/min |
/// | HC7 | – | no_sharing | mPower walk, 1.6 Hz × 20 s | 32 steps, 96 steps/min |
///
/// Tap counts are the rows written; step counts are f·T of the synthetic rhythm (`E2E.mPowerWalk`).
struct StudyExport {
    static let taps = ["HC1": 11, "HC2": 12, "HC3": 13, "HC4": 14, "HC5": 15]
    static let walks: [String: (frequency: Double, seconds: Double)] = ["HC6": (1.8, 20), "HC7": (1.6, 20)]
    static let pathScopes = [
        "HC1": "all_qualified_researchers", "HC2": "sponsors_and_partners", "HC3": "no_sharing",
    ]
    static let fileScopes = ["HC4": "sponsors_and_partners", "HC6": "all_qualified_researchers", "HC7": "no_sharing"]
    static var participants: [String] { (Array(taps.keys) + Array(walks.keys)).sorted() }

    let root: URL
    var export: String { root.path + "/export" }
    var scopes: String { root.path + "/scopes.csv" }

    init(name: String) throws {
        root = try E2E.temporaryDirectory(name)
        for (p, n) in Self.taps {
            let folder = Self.pathScopes[p].map { "userSharingScope=\($0)/" } ?? ""
            try E2E.write(E2E.tapTable(count: n), to: "\(root.path)/export/\(folder)healthCode=\(p)/tap.csv")
        }
        for (p, w) in Self.walks {
            try E2E.write(
                E2E.mPowerWalk(frequency: w.frequency, seconds: w.seconds),
                to: "\(root.path)/export/healthCode=\(p)/accel_walking_outbound.json")
        }
        var csv = "healthCode,userSharingScope\n"
        for (p, s) in Self.fileScopes.sorted(by: { $0.key < $1.key }) { csv += "\(p),\(s)\n" }
        try E2E.write(csv, to: scopes)
    }

    func remove() { E2E.remove(root) }

    /// The participant a source belongs to, read from its `healthCode=` path component (by the test, not taskproc).
    static func participant(_ source: String) -> String? {
        source.split(separator: "/").first { $0.hasPrefix("healthCode=") }.map { String($0.dropFirst(11)) }
    }
}

/// `taskproc batch` through the built binary: every output and export format, consent, resume, shards and merge,
/// the calibration option, asserting on the content.
@Suite struct BatchFormatsEndToEndTests {
    /// Runs `batch` with `--no-progress`.
    func batch(_ arguments: [String]) throws -> E2E.Run { try E2E.run(["batch"] + arguments + ["--no-progress"]) }

    /// Participants of the records in `results.jsonl`.
    func participants(_ out: String) throws -> [String] {
        try E2E.jsonLines(out + "/results.jsonl").compactMap { StudyExport.participant($0["source"] as? String ?? "") }
            .sorted()
    }

    /// Counts of the final summary's "N excluded by consent (a withdrawn, b sharingScope, …)".
    func excluded(_ stderr: String) -> [String: Int] {
        guard let open = stderr.range(of: "excluded by consent ("),
            let close = stderr[open.upperBound...].firstIndex(of: ")")
        else { return [:] }
        var out: [String: Int] = [:]
        for part in stderr[open.upperBound..<close].split(separator: ",") {
            let words = part.split(separator: " ")
            if words.count == 2, let n = Int(words[0]) { out[String(words[1])] = n }
        }
        return out
    }

    /// Every text output of a batch folder (JSONL, CSV), and the SQLite cells.
    func everyOutputText(_ out: String) throws -> String {
        var text = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: out)
        where name.hasSuffix(".jsonl") || name.hasSuffix(".csv") {
            text += try String(contentsOfFile: out + "/" + name, encoding: .utf8)
        }
        let queue = try DatabaseQueue(path: out + "/taskproc.sqlite")
        defer { try? queue.close() }
        try queue.read { db in
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            where table != "run_log" && table != "run_info" {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") { text += "\(row)\n" }
            }
        }
        return text
    }

    // MARK: Outputs and export formats

    @Test func outputsHoldEveryRecordWithItsKnownValues() throws {
        let study = try StudyExport(name: "batch-outputs")
        defer { study.remove() }
        let out = study.root.path + "/out"
        let r = try batch([study.export, "--out", out])
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        #expect(r.stderr.contains("7 records: 7 analysed, 0 failed"))

        // results.jsonl: one line per record, keys sorted, participant as a join key.
        let lines = try E2E.jsonLines(out + "/results.jsonl")
        #expect(lines.count == 7)
        #expect(try participants(out) == StudyExport.participants)
        for line in lines {
            let p = StudyExport.participant(line["source"] as? String ?? "")
            #expect((line["keys"] as? [String: Any])?["healthCode"] as? String == p)
            #expect(line["status"] as? String == "ok")
        }
        #expect(try String(contentsOfFile: out + "/errors.jsonl", encoding: .utf8).isEmpty)

        // tapping.csv: docs/batch.md's key columns first, one row per tap table, tapCount = rows written.
        let tapping = try E2E.csvTable(try String(contentsOfFile: out + "/tapping.csv", encoding: .utf8))
        let keyColumns = [
            "recordSource", "contentHash", "recordId", "healthCode", "ParticipantIdentifier", "taskRunUUID",
            "participant", "date", "startTime", "status", "error",
        ]
        #expect(Array(tapping.header.prefix(keyColumns.count)) == keyColumns)
        #expect(
            Array(tapping.header.suffix(6))
                == ["flag_short", "flag_rate", "flag_still", "flag_repaired", "flag_implausible", "taskAnswers"])
        #expect(tapping.rows.count == StudyExport.taps.count)
        for row in tapping.rows {
            let p = try #require(row["healthCode"])
            #expect(row["participant"] == p)  // healthCode is the participant
            // Every tap table has ≥ 10 taps, none backwards: not short, not repaired; rate is not judged for taps.
            #expect(row["flag_short"] == "false" && row["flag_repaired"] == "false" && row["flag_rate"] == "")
            #expect(row["tapCount"] == StudyExport.taps[p].map(String.init), "\(p)")
            #expect(row["numberTaps"] == StudyExport.taps[p].map(String.init), "\(p)")  // every tap a depress event
            #expect(row["status"] == "ok" && row["error"] == "")
        }

        // walking.csv: step count f·T within one step, cadence 60·f within 1 step/min.
        let walking = try E2E.csvTable(try String(contentsOfFile: out + "/walking.csv", encoding: .utf8))
        #expect(walking.rows.count == StudyExport.walks.count)
        for row in walking.rows {
            let walk = try #require(StudyExport.walks[row["healthCode"] ?? ""])
            let steps = try #require(Double(row["stepCount"] ?? ""))
            #expect(abs(steps - walk.frequency * walk.seconds) <= 1)
            #expect(abs((Double(row["cadence"] ?? "") ?? 0) - 60 * walk.frequency) <= 1)
        }

        // SQLite: the same records and values.
        let queue = try DatabaseQueue(path: out + "/taskproc.sqlite")
        defer { try? queue.close() }
        try queue.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM results") == 7)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM errors") == 0)
            let taps = try Row.fetchAll(db, sql: "SELECT healthCode, tapCount FROM tapping ORDER BY healthCode")
            #expect(taps.count == StudyExport.taps.count)
            for row in taps {
                let p: String = row["healthCode"]
                let count: Int = row["tapCount"]
                #expect(count == StudyExport.taps[p], "\(p)")
            }
            let walks = try Row.fetchAll(db, sql: "SELECT healthCode, stepCount FROM walking")
            #expect(walks.count == StudyExport.walks.count)
            for row in walks {
                let p: String = row["healthCode"]
                let steps: Int = row["stepCount"]
                let walk = try #require(StudyExport.walks[p])
                #expect(abs(Double(steps) - walk.frequency * walk.seconds) <= 1)
            }
        }
    }

    @Test func everyExportFormatHasOneLinePerRecordWithItsValues() throws {
        let study = try StudyExport(name: "batch-formats")
        defer { study.remove() }
        let morkConfig = study.root.path + "/mork.json"
        try E2E.write(#"{"envelope": {"study_uuid": "S-1", "folder_oid": "F", "form_oid": "TASKS"}}"#, to: morkConfig)

        // The table formats are analyze-only: batch refuses them before writing anything.
        for format in ["json", "table", "csv"] {
            let r = try batch([study.export, "--out", study.root.path + "/\(format)", "--format", format])
            #expect(r.status == ExpectedExit.usage, "\(format)")
            #expect(!FileManager.default.fileExists(atPath: study.root.path + "/\(format)/results.jsonl"))
        }

        var bundles: [String] = []
        for format in ["researchkit", "mork", "fhir"] {
            let out = study.root.path + "/\(format)"
            let extra = format == "mork" ? ["--mork-config", morkConfig] : []
            let r = try batch([study.export, "--out", out, "--format", format] + extra)
            #expect(r.status == ExpectedExit.success, "\(r.stderr)")
            #expect(r.stderr.contains("7 records exported to"))
            let lines = try E2E.jsonLines(out + "/export.\(format).jsonl")
            let results = try E2E.jsonLines(out + "/results.jsonl")
            try #require(lines.count == results.count && lines.count == 7)
            // Same order as results.jsonl.
            #expect(lines.map { $0["source"] as? String } == results.map { $0["source"] as? String })
            for line in lines {
                let source = try #require(line["source"] as? String)
                let p = try #require(StudyExport.participant(source))
                switch format {
                case "researchkit":
                    let steps = try #require(line["export"] as? [[String: Any]])
                    #expect(steps.count == 1 && steps[0]["_class"] as? String == "ORKStepResult")
                    let child = try #require((steps[0]["results"] as? [[String: Any]])?.first)
                    if let taps = StudyExport.taps[p] {
                        #expect(child["_class"] as? String == "taskproc.TappingResult")
                        #expect(child["tapCount"] as? Int == taps)
                    } else {
                        #expect(child["_class"] as? String == "taskproc.WalkingResult")
                        let walk = try #require(StudyExport.walks[p])
                        #expect(abs(Double(child["stepCount"] as? Int ?? -99) - walk.frequency * walk.seconds) <= 1)
                    }
                case "mork":
                    let form = try #require((line["export"] as? [String: Any])?["form_data"] as? [String: Any])
                    #expect(form["subject_name"] as? String == p)  // the record's healthCode
                    #expect(form["form_oid"] as? String == "TASKS")
                    let fields = try #require(form["field_data"] as? [[String: Any]])
                    #expect(fields.allSatisfy { $0.values.allSatisfy { $0 is String } })
                    let values = Dictionary(
                        fields.map { ($0["item_oid"] as? String ?? "", $0["data_value"] as? String ?? "") },
                        uniquingKeysWith: { a, _ in a })
                    if let taps = StudyExport.taps[p] {
                        #expect(values["TAPPING_TAP_COUNT"] == String(taps))
                    } else {
                        let walk = try #require(StudyExport.walks[p])
                        // README: `<STEP>_<FEATURE>`; mPower names the step in its file name (accel_walking_outbound).
                        let steps = try #require(Double(values["WALKING_OUTBOUND_STEP_COUNT"] ?? ""))
                        #expect(abs(steps - walk.frequency * walk.seconds) <= 1)
                    }
                default:
                    let bundle = try #require(line["export"] as? [String: Any])
                    #expect(bundle["resourceType"] as? String == "Bundle" && bundle["type"] as? String == "collection")
                    let observations = E2E.observations(bundle)
                    if StudyExport.taps[p] != nil {
                        // Tapping has no published code: its headlines under tapping.<key> (docs/exports.md).
                        #expect(!observations.isEmpty)
                        #expect(
                            observations.allSatisfy { E2E.codings($0).allSatisfy { $0.code.hasPrefix("tapping.") } })
                    } else {
                        let walk = try #require(StudyExport.walks[p])
                        try #require(observations.count == 1)
                        #expect(
                            E2E.codings(observations[0]).contains {
                                $0.system == "http://loinc.org" && $0.code == "55423-8"
                            })
                        #expect(abs((E2E.value(observations[0]) ?? -99) - walk.frequency * walk.seconds) <= 1)
                        let subject = (observations[0]["subject"] as? [String: Any])?["identifier"] as? [String: Any]
                        #expect(subject?["value"] as? String == p)
                    }
                    let file = study.root.path + "/bundle-\(bundles.count).json"
                    try JSONSerialization.data(withJSONObject: bundle).write(to: URL(fileURLWithPath: file))
                    bundles.append(file)
                }
            }
            if format == "fhir" { #expect(!r.stderr.contains("no FHIR mapping for tapping")) }
        }
        let validation = try E2E.validateFHIR(bundles)
        #expect(validation.status == 0, "\(validation.output)")
    }

    // MARK: Consent

    /// One consent configuration and the participants it must leave.
    struct ConsentCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var scope: String?
        var scopeFile = false
        /// Contents of withdrawal files (text lists or FHIR JSON).
        var withdrawals: [String] = []
        var included: [String]
        var excluded: [String: Int]
    }

    static let consentCases: [ConsentCase] = [
        // Path scopes: HC1 all, HC2 sponsors, HC3 no_sharing; the CSV adds HC4 sponsors, HC6 all, HC7 no_sharing;
        // HC5 has no scope anywhere.
        ConsentCase(
            testDescription: "--sharing-scope sponsors_and_partners --sharing-scopes", scope: "sponsors_and_partners",
            scopeFile: true, included: ["HC1", "HC2", "HC4", "HC6"],
            excluded: ["sharingScope": 2, "sharingScopeUnknown": 1]),
        ConsentCase(
            testDescription: "--sharing-scope all_qualified_researchers --sharing-scopes",
            scope: "all_qualified_researchers", scopeFile: true, included: ["HC1", "HC6"],
            excluded: ["sharingScope": 4, "sharingScopeUnknown": 1]),
        ConsentCase(
            testDescription: "--sharing-scope from the path alone", scope: "sponsors_and_partners",
            included: ["HC1", "HC2"], excluded: ["sharingScope": 1, "sharingScopeUnknown": 4]),
        ConsentCase(
            testDescription: "--sharing-scope no_sharing keeps every participant with a scope on file",
            scope: "no_sharing", scopeFile: true, included: ["HC1", "HC2", "HC3", "HC4", "HC6", "HC7"],
            excluded: ["sharingScopeUnknown": 1]),
        ConsentCase(
            testDescription: "--withdrawals: a text list, a FHIR Consent and a FHIR Contract",
            withdrawals: [
                "# withdrawn by e-mail\nHC6\n",
                #"{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Consent","status":"active","provision":{"type":"deny"},"patient":{"identifier":{"value":"HC2"}}}}]}"#,
                #"[{"resourceType":"Contract","status":"revoked","subject":[{"identifier":{"value":"HC4"}}]}]"#,
            ],
            included: ["HC1", "HC3", "HC5", "HC7"], excluded: ["withdrawn": 3]),
        ConsentCase(
            testDescription: "withdrawal wins over scope", scope: "sponsors_and_partners", scopeFile: true,
            withdrawals: ["HC1\n"], included: ["HC2", "HC4", "HC6"],
            excluded: ["withdrawn": 1, "sharingScope": 2, "sharingScopeUnknown": 1]),
    ]

    @Test(arguments: consentCases) func consentExcludesExactlyTheRightParticipants(_ c: ConsentCase) throws {
        let study = try StudyExport(name: "batch-consent")
        defer { study.remove() }
        var arguments = [study.export, "--out", study.root.path + "/out"]
        if let scope = c.scope { arguments += ["--sharing-scope", scope] }
        if c.scopeFile { arguments += ["--sharing-scopes", study.scopes] }
        for (i, text) in c.withdrawals.enumerated() {
            let file =
                study.root.path + "/withdrawals-\(i)" + (text.hasPrefix("{") || text.hasPrefix("[") ? ".json" : ".txt")
            try E2E.write(text, to: file)
            arguments += ["--withdrawals", file]
        }
        let r = try batch(arguments)
        #expect(r.status == ExpectedExit.success, "\(r.stderr)")
        let out = study.root.path + "/out"
        #expect(try participants(out) == c.included)
        #expect(excluded(r.stderr) == c.excluded)
        let total = c.excluded.values.reduce(0, +)
        #expect(r.stderr.contains("7 records: \(c.included.count) analysed, 0 failed; \(total) excluded by consent"))
        // An excluded participant appears in no output (only counted).
        let text = try everyOutputText(out)
        for p in StudyExport.participants where !c.included.contains(p) {
            #expect(!text.contains("healthCode=\(p)/") && !text.contains("\"\(p)\""), "\(p) appears in an output")
        }
        #expect(try E2E.jsonLines(out + "/results.jsonl").count == c.included.count)
    }

    @Test func badConsentInputsAreUsageErrors() throws {
        let study = try StudyExport(name: "batch-consent-bad")
        defer { study.remove() }
        let out = study.root.path + "/out"
        #expect(try batch([study.export, "--out", out, "--sharing-scope", "everyone"]).status == ExpectedExit.usage)
        try E2E.write("healthCode,scope\nHC1,no_sharing\n", to: study.root.path + "/bad.csv")
        #expect(
            try batch([
                study.export, "--out", out, "--sharing-scope", "no_sharing", "--sharing-scopes",
                study.root.path + "/bad.csv",
            ])
            .status == ExpectedExit.usage)
        #expect(
            try batch([study.export, "--out", out, "--withdrawals", study.root.path + "/missing.txt"]).status
                == ExpectedExit.usage)
        #expect(!FileManager.default.fileExists(atPath: out + "/results.jsonl"))
    }

    // MARK: Resume

    /// Leaves `out` as a kill leaves it (README "Resume"): the journal's first `keep` lines plus a torn line, the
    /// run not marked complete, no output files.
    func interrupt(_ out: String, keep: Int) throws {
        let journal = out + "/.taskproc-batch/journal.jsonl"
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        try #require(lines.count > keep)
        try (lines.prefix(keep).joined(separator: "\n") + "\n" + lines[keep].prefix(40))
            .write(toFile: journal, atomically: true, encoding: .utf8)
        let run = out + "/.taskproc-batch/run.json"
        var state = try E2E.object(try String(contentsOfFile: run, encoding: .utf8))
        try #require(state["complete"] as? Bool == true)
        state["complete"] = false
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: run))
        for name in try FileManager.default.contentsOfDirectory(atPath: out) where !name.hasPrefix(".") {
            try FileManager.default.removeItem(atPath: out + "/" + name)
        }
    }

    func outputFiles(_ out: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out)
        where name.hasSuffix(".jsonl") || name.hasSuffix(".csv") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
        }
        return files
    }

    @Test func resumeAfterAnInterruptionKeepsTheConsentPolicy() throws {
        let study = try StudyExport(name: "batch-resume")
        defer { study.remove() }
        let policy = ["--sharing-scope", "sponsors_and_partners", "--sharing-scopes", study.scopes]
        let reference = study.root.path + "/reference"
        #expect(try batch([study.export, "--out", reference] + policy).status == ExpectedExit.success)
        let victim = study.root.path + "/victim"
        #expect(try batch([study.export, "--out", victim] + policy).status == ExpectedExit.success)
        try interrupt(victim, keep: 2)
        #expect(!FileManager.default.fileExists(atPath: victim + "/results.jsonl"))

        // The policy is stored with the run: giving it again is refused, and the resumed run applies it.
        #expect(try batch(["--resume", "--out", victim, "--sharing-scope", "no_sharing"]).status == ExpectedExit.usage)
        let resumed = try batch(["--resume", "--out", victim])
        #expect(resumed.status == ExpectedExit.success, "\(resumed.stderr)")
        #expect(excluded(resumed.stderr) == ["sharingScope": 2, "sharingScopeUnknown": 1])
        #expect(try participants(victim) == ["HC1", "HC2", "HC4", "HC6"])
        let expected = try outputFiles(reference)
        #expect(
            expected.keys.sorted() == [
                "adherence.csv", "columns.csv", "errors.jsonl", "participant_day.csv", "participant_week.csv",
                "results.jsonl", "skipped.csv", "steps.csv", "surveys_wide.csv", "tapping.csv", "taps.csv",
                "walking.csv",
            ])
        #expect(try outputFiles(victim) == expected)
        // Resuming a finished run changes nothing; an empty folder has nothing to resume.
        #expect(try batch(["--resume", "--out", victim]).status == ExpectedExit.success)
        #expect(try outputFiles(victim) == expected)
        let empty = study.root.path + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try batch(["--resume", "--out", empty]).status == ExpectedExit.missingInput)  // no stored run
    }

    /// README "Resume": the resumed outputs are identical to an uninterrupted run's; with `--format` that includes
    /// `export.<format>.jsonl`: the format is stored with the run.
    @Test func resumeWritesTheExportOfTheInterruptedRun() throws {
        let study = try StudyExport(name: "batch-resume-export")
        defer { study.remove() }
        let reference = study.root.path + "/reference"
        #expect(
            try batch([study.export, "--out", reference, "--format", "researchkit"]).status == ExpectedExit.success)
        let victim = study.root.path + "/victim"
        #expect(try batch([study.export, "--out", victim, "--format", "researchkit"]).status == ExpectedExit.success)
        try interrupt(victim, keep: 3)
        #expect(try batch(["--resume", "--out", victim]).status == ExpectedExit.success)
        let expected = try outputFiles(reference)
        #expect(expected["export.researchkit.jsonl"] != nil)
        // The export format is stored with the run, so the resumed run writes the same export.
        #expect(try outputFiles(victim) == expected)
    }

    // MARK: Shards and merge

    @Test func shardsUnderAConsentPolicyMergeToTheSingleRun() throws {
        let study = try StudyExport(name: "batch-shards")
        defer { study.remove() }
        let policy = ["--sharing-scope", "sponsors_and_partners", "--sharing-scopes", study.scopes]
        let root = study.root.path
        #expect(try batch([study.export, "--out", root + "/single"] + policy).status == ExpectedExit.success)
        var shardRecords = 0
        for k in 1...2 {
            let r = try batch([study.export, "--out", root + "/s\(k)", "--shard", "\(k)/2"] + policy)
            #expect(r.status == ExpectedExit.success, "\(r.stderr)")
            shardRecords += try E2E.jsonLines(root + "/s\(k)/results.jsonl").count
        }
        #expect(shardRecords == 4)  // HC1, HC2, HC4, HC6: each in exactly one shard
        let merge = try E2E.run(["merge", root + "/s2", root + "/s1", "--out", root + "/merged"])
        #expect(merge.status == ExpectedExit.success, "\(merge.stderr)")
        #expect(merge.stderr.contains("2 shards, 7 records: 4 analysed, 0 failed"))
        #expect(try outputFiles(root + "/merged") == outputFiles(root + "/single"))
        #expect(try participants(root + "/merged") == ["HC1", "HC2", "HC4", "HC6"])

        // A shard run without the policy, a missing shard, or merging into existing outputs is refused.
        #expect(try batch([study.export, "--out", root + "/open2", "--shard", "2/2"]).status == ExpectedExit.success)
        let mixed = try E2E.run(["merge", root + "/s1", root + "/open2", "--out", root + "/m2"])
        #expect(mixed.status == ExpectedExit.dataError)
        #expect(mixed.stderr.contains("differ"))
        let missing = try E2E.run(["merge", root + "/s1", "--out", root + "/m3"])
        #expect(missing.status == ExpectedExit.dataError)
        #expect(missing.stderr.contains("2/2 missing"))
        #expect(
            try E2E.run(["merge", root + "/s1", root + "/s2", "--out", root + "/merged"]).status
                == ExpectedExit.outputExists)
        #expect(
            try E2E.run(["merge", root + "/s1", root + "/s2", "--out", root + "/merged", "--force"]).status
                == ExpectedExit.success)
    }

    /// Merging shards run with `--format` gives the single run's export.
    ///
    /// docs/batch.md "Sharding": merge gives "exactly what one run would have produced"; a run with `--format` includes
    /// `export.<format>.jsonl`, whose lines travel with each record in the shards' journals.
    @Test func mergeOfShardsRunWithAFormatHasTheExport() throws {
        let study = try StudyExport(name: "batch-merge-export")
        defer { study.remove() }
        let root = study.root.path
        let format = ["--format", "researchkit"]
        #expect(try batch([study.export, "--out", root + "/single"] + format).status == ExpectedExit.success)
        for k in 1...2 {
            #expect(
                try batch([study.export, "--out", root + "/s\(k)", "--shard", "\(k)/2"] + format).status
                    == ExpectedExit.success)
            #expect(FileManager.default.fileExists(atPath: root + "/s\(k)/export.researchkit.jsonl"))
        }
        #expect(
            try E2E.run(["merge", root + "/s1", root + "/s2", "--out", root + "/merged"]).status == ExpectedExit.success
        )
        let single = try outputFiles(root + "/single")
        #expect(single["export.researchkit.jsonl"] != nil)
        let merged = try outputFiles(root + "/merged")
        #expect(merged == single)
        #expect(try batch(["--resume", "--out", root + "/merged"] + format).status == ExpectedExit.success)
        #expect(try outputFiles(root + "/merged") == single)
    }

    // MARK: Calibration (the ResearchKit release's tables)

    /// `--researchkit-version` chooses the calibration tables of dB HL records (spec `researchkit-formats.md` §4.6–4.7,
    /// README "Calibration tables"): AirPods Pro 2 at 1000 Hz has RETSPL 9.27 dB SPL from 3.2.0, the generic 7 dB SPL
    /// in 3.1, and no tables in 3.0.
    @Test func researchKitVersionChoosesTheCalibrationTables() throws {
        let dir = try E2E.temporaryDirectory("batch-rk-version")
        defer { E2E.remove(dir) }
        try E2E.write(#"{"1000": 25}"#, to: dir.path + "/truth.json")
        let export = dir.path + "/export/healthCode=HC9"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        let sim = try E2E.run([
            "audiometry", "simulate", dir.path + "/truth.json", "--frequencies", "1000", "--headphone-type",
            "AIRPODSPROV2", "--no-clipping", "--output", export + "/dbhl.json",
        ])
        #expect(sim.status == ExpectedExit.success, "\(sim.stderr)")
        for (version, retspl) in [("current", 9.27 as Double?), ("3.1", 7), ("3.0", nil)] {
            let out = dir.path + "/out-\(version)"
            let r = try batch([dir.path + "/export", "--out", out, "--researchkit-version", version])
            #expect(r.status == ExpectedExit.success, "\(r.stderr)")
            let line = try #require(try E2E.jsonLines(out + "/results.jsonl").first)
            let test = try #require((line["results"] as? [[String: Any]])?.first)
            let ear = try #require((test["ears"] as? [[String: Any]])?.first)
            let f = try #require((ear["frequencies"] as? [[String: Any]])?.first)
            #expect(E2E.number(f["calculatedThreshold"]) == 25)
            if let retspl {
                #expect(ear["calibrationError"] is NSNull, "\(version)")
                #expect(abs((E2E.number(f["thresholdSPL"]) ?? 0) - (retspl + 25)) < 1e-9, "\(version)")
            } else {
                #expect(ear["calibrationError"] is String, "\(version)")
                #expect(f["thresholdSPL"] is NSNull, "\(version)")
            }
        }
    }

    // MARK: Exit statuses

    @Test func strictAndAllFailedExitStatuses() throws {
        let study = try StudyExport(name: "batch-exit")
        defer { study.remove() }
        try E2E.write("{\"items\": [", to: study.export + "/healthCode=HC8/accel_walking_outbound.json")
        let root = study.root.path
        let mixed = try batch([study.export, "--out", root + "/o1"])
        #expect(mixed.status == ExpectedExit.batchPartial)
        #expect(mixed.stderr.contains("8 records: 7 analysed, 1 failed"))
        let errors = try E2E.jsonLines(root + "/o1/errors.jsonl")
        #expect(errors.count == 1 && StudyExport.participant(errors[0]["source"] as? String ?? "") == "HC8")
        #expect(try batch([study.export, "--out", root + "/o2", "--strict"]).status == ExpectedExit.batchFailed)
        #expect(try batch([study.export, "--out", root + "/o1"]).status == ExpectedExit.outputExists)  // no --force
        // Consent can leave only the broken record: every analysed record failed.
        try E2E.write("HC1\nHC2\nHC3\nHC4\nHC5\nHC6\nHC7\n", to: root + "/all.txt")
        let allFailed = try batch([study.export, "--out", root + "/o3", "--withdrawals", root + "/all.txt"])
        #expect(allFailed.status == ExpectedExit.batchFailed)
        #expect(allFailed.stderr.contains("0 analysed, 1 failed; 7 excluded by consent (7 withdrawn)"))
    }
}
