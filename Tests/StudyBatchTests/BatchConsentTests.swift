import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

/// Consent-aware batch processing on a generated export: withdrawn participants and participants outside the
/// sharing scope are never analysed or written anywhere, only counted.
@Suite(.serialized) struct BatchConsentTests {
    /// The participant a generated record belongs to, read from its path (`healthCode=…` or MyDataHelps
    /// `SurveyData/<participant>`), independently of the code under test.
    static func participant(_ source: String) -> String? {
        let parts = source.split(separator: "/").map(String.init)
        if let p = parts.first(where: { $0.hasPrefix("healthCode=") }) { return String(p.dropFirst("healthCode=".count)) }
        if let i = parts.firstIndex(of: "SurveyData"), i + 1 < parts.count { return parts[i + 1] }
        return nil
    }

    /// Reading the consent records first (`--consent-from-records`) must not change which records the run finds:
    /// the scan extracts the archives before the analysis pass walks them (the two walks once ran at the same time
    /// and extracted the same archives into one folder, losing and splitting records).
    @Test func consentFromRecordsFindsExactlyTheRecordsOfARunWithoutIt() async throws {
        let folder = try BatchSupport.temporaryFolder("consent-scan")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = folder + "/export"
        let manifest = try BatchSupport.generateExport(at: export, records: 400, seed: 11)
        func sources(_ policy: ConsentPolicy?, _ name: String) async throws -> [String] {
            let out = folder + "/" + name
            let summary = try await BatchRunner.run(
                configuration: BatchConfiguration(inputs: [.init(export)], consent: policy),
                analysis: RecordAnalysis.Options(), outputFolder: out, mode: .fresh(force: false), jobs: 2)
            #expect(summary.records == manifest.records.count, "\(name)")
            return try (BatchSupport.jsonLines(out + "/results.jsonl") + BatchSupport.jsonLines(out + "/errors.jsonl"))
                .map { $0["source"] as! String }.sorted()
        }
        var scanning = ConsentPolicy()
        scanning.fromRecords = true
        let plain = try await sources(nil, "plain")
        #expect(plain.count == manifest.records.count)
        #expect(try await sources(scanning, "scanning") == plain)
    }

    @Test func excludedRecordsAreNeverWrittenOnlyCounted() async throws {
        let folder = try BatchSupport.temporaryFolder("consent")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = folder + "/export"
        let manifest = try BatchSupport.generateExport(at: export, records: 120, seed: 7)
        let participants = Array(Set(manifest.records.compactMap { Self.participant($0.source) })).sorted()
        try #require(participants.count >= 12)
        // Scopes on file for all but the last two participants: every third narrow.
        var csv = "healthCode,ParticipantIdentifier,userSharingScope\n"
        var scope: [String: SharingScope] = [:]
        for (i, p) in participants.dropLast(2).enumerated() {
            let s: SharingScope = i % 3 == 0 ? .noSharing : (i % 3 == 1 ? .sponsorsAndPartners : .allQualifiedResearchers)
            scope[p] = s
            csv += p.hasPrefix("HC") ? "\(p),,\(s.rawValue)\n" : ",\(p),\(s.rawValue)\n"
        }
        let scopes = folder + "/scopes.csv"
        try csv.write(toFile: scopes, atomically: true, encoding: .utf8)
        // Two withdrawals: one by identifier list, one by a FHIR Consent that became inactive.
        let withdrawnIDs = [participants[1], participants[2]]
        let list = folder + "/withdrawn.txt"
        try (withdrawnIDs[0] + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let consent = folder + "/consent.json"
        try """
            {"resourceType":"Consent","status":"inactive","patient":{"identifier":{"value":"\(withdrawnIDs[1])"}}}
            """.write(toFile: consent, atomically: true, encoding: .utf8)

        var policy = ConsentPolicy()
        policy.minimumScope = .sponsorsAndPartners
        try policy.addScopes(csvFile: scopes)
        try policy.addWithdrawals(file: list)
        try policy.addWithdrawals(file: consent)

        // What the test expects, computed from the manifest alone.
        var expected: [String: Int] = [:]
        var excludedSources: Set<String> = []
        for record in manifest.records {
            let p = Self.participant(record.source)
            let reason: ConsentPolicy.Exclusion?
            if let p, withdrawnIDs.contains(p) {
                reason = .withdrawn
            } else if let p, let s = scope[p] {
                reason = s < .sponsorsAndPartners ? .sharingScope : nil
            } else {
                reason = .sharingScopeUnknown
            }
            if let reason {
                expected[reason.rawValue, default: 0] += 1
                excludedSources.insert(export + "/" + record.source)
            }
        }
        try #require(expected.count == 3, "the export should exercise every exclusion: \(expected)")

        let out = folder + "/out"
        let summary = try await BatchRunner.run(
            configuration: BatchConfiguration(inputs: [.init(export)], consent: policy),
            analysis: RecordAnalysis.Options(), outputFolder: out, mode: .fresh(force: false), jobs: 2)
        #expect(summary.excluded == expected)

        // Every record is in exactly one of results, errors, excluded.
        let results = try BatchSupport.jsonLines(out + "/results.jsonl").map { $0["source"] as! String }
        let errors = try BatchSupport.jsonLines(out + "/errors.jsonl").map { $0["source"] as! String }
        #expect(results.count + errors.count + excludedSources.count == manifest.records.count)
        #expect(Set(results + errors).isDisjoint(with: excludedSources))

        // No output file names an excluded record or a withdrawn participant; the run log counts only.
        let excludedParticipants = Set(withdrawnIDs + scope.filter { $0.value == .noSharing }.map(\.key))
        for (name, data) in try BatchSupport.textOutputs(out) {
            let text = String(decoding: data, as: UTF8.self)
            for source in excludedSources { #expect(!text.contains(source), "\(name) lists excluded \(source)") }
            for p in excludedParticipants { #expect(!text.contains("=\(p)/") && !text.contains("/\(p)/"), "\(name) names \(p)") }
        }
        for (table, rows) in try BatchSupport.sqliteTables(out) {
            let cells = rows.joined().joined(separator: "\n")
            for source in excludedSources { #expect(!cells.contains(source), "SQLite \(table) lists excluded \(source)") }
        }
        let log = try BatchSupport.runLogEvents(out)
        #expect(log.contains("consent"))
    }
}
