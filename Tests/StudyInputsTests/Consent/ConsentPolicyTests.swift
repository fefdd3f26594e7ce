import Foundation
import Testing

@testable import StudyInputs

/// Consent-aware processing: sharing scopes and withdrawals (identifier lists, FHIR Consent and Contract).
@Suite struct ConsentPolicyTests {
    static func write(_ text: String, _ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("consent-\(UUID().uuidString)-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func keys(health: String? = nil, participant: String? = nil) -> RecordKeys {
        var k = RecordKeys()
        k.healthCode = health
        k.participantIdentifier = participant
        return k
    }

    @Test func scopesAreOrderedAndFiltered() throws {
        #expect(SharingScope.noSharing < .sponsorsAndPartners && .sponsorsAndPartners < .allQualifiedResearchers)
        #expect(SharingScope(text: "SPONSORS_AND_PARTNERS") == .sponsorsAndPartners)
        var policy = ConsentPolicy()
        #expect(policy.isOpen && policy.exclusion(keys: Self.keys(health: "h1")) == nil)
        try policy.addScopes(
            csvFile: Self.write(
                "healthCode,userSharingScope\nh1,all_qualified_researchers\nh2,sponsors_and_partners\nh3,no_sharing\n",
                "scopes.csv"))
        policy.minimumScope = .sponsorsAndPartners
        #expect(policy.exclusion(keys: Self.keys(health: "h1")) == nil)
        #expect(policy.exclusion(keys: Self.keys(health: "h2")) == nil)
        #expect(policy.exclusion(keys: Self.keys(health: "h3")) == .sharingScope)
        #expect(policy.exclusion(keys: Self.keys(health: "unknown")) == .sharingScopeUnknown)
        #expect(policy.exclusion(keys: Self.keys()) == .sharingScopeUnknown)
        // A scope named by the record's own path wins over the table.
        #expect(policy.exclusion(keys: Self.keys(health: "h3"), recordScope: .allQualifiedResearchers) == nil)
        #expect(ConsentPolicy.scope(inPath: "export/userSharingScope=no_sharing/healthCode=h9/rec.json") == .noSharing)
        policy.minimumScope = .allQualifiedResearchers
        #expect(policy.exclusion(keys: Self.keys(health: "h2")) == .sharingScope)
    }

    @Test func badScopeTablesAreRejectedWithTheirPosition() throws {
        var policy = ConsentPolicy()
        #expect(throws: ExportError.self) { try policy.addScopes(csvFile: Self.write("healthCode\nh1\n", "a.csv")) }
        do {
            try policy.addScopes(csvFile: Self.write("healthCode,userSharingScope\nh1,everyone\n", "b.csv"))
            Issue.record("accepted an unknown scope")
        } catch let error as ExportError {
            #expect(error.description.contains("line 2") && error.description.contains("no_sharing"))
        }
    }

    @Test func withdrawalListsAndFHIRResources() throws {
        var policy = ConsentPolicy()
        #expect(try policy.addWithdrawals(file: Self.write("# withdrawn\nP-1\n\n  P-2 \n", "ids.txt")) == 2)
        let bundle = """
            {"resourceType":"Bundle","type":"collection","entry":[
              {"resource":{"resourceType":"Consent","status":"inactive","patient":{"reference":"Patient/P-3"}}},
              {"resource":{"resourceType":"Consent","status":"active","patient":{"identifier":{"value":"P-4"}}}},
              {"resource":{"resourceType":"Consent","status":"active","provision":{"type":"deny"},
                           "patient":{"identifier":{"value":"P-5"}}}},
              {"resource":{"resourceType":"Consent","status":"rejected","patient":{"identifier":{"value":"P-6"}}}},
              {"resource":{"resourceType":"Contract","status":"executed","signer":[
                 {"party":{"identifier":{"value":"P-7"}},
                  "extension":[{"url":"http://example.org/signature-status","valueCode":"declined"}]},
                 {"party":{"identifier":{"value":"P-8"}}}]}},
              {"resource":{"resourceType":"Contract","status":"revoked","subject":[{"reference":"Patient/P-9"}]}}
            ]}
            """
        #expect(try policy.addWithdrawals(file: Self.write(bundle, "consents.json")) == 5)
        #expect(policy.withdrawn == ["P-1", "P-2", "P-3", "P-5", "P-6", "P-7", "P-9"])
        #expect(policy.exclusion(keys: Self.keys(participant: "P-7")) == .withdrawn)
        #expect(policy.exclusion(keys: Self.keys(participant: "P-8")) == nil)
        #expect(!policy.isOpen)
        #expect(throws: ExportError.self) {
            try policy.addWithdrawals(file: Self.write(#"{"resourceType":"Patient","id":"x"}"#, "patient.json"))
        }
    }
}

/// Scopes from taskproc's own FHIR export of consent signatures (issue 18 item 6): the sharing-scope extension of a
/// Consent, `no_sharing` for a declined one, the narrowest when a participant has several; JSON Lines unwrapped.
@Suite struct ConsentScopesFromFHIRTests {
    static func consent(_ patient: String, status: String, scope: String?) -> String {
        let ext = scope.map { #","extension":[{"url":"urn:taskproc:fhir:sharingScope","valueCode":"\#($0)"}]"# } ?? ""
        return #"{"resourceType":"Consent","status":"\#(status)"\#(ext),"patient":{"identifier":{"value":"\#(patient)"}}}"#
    }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scopes-\(UUID().uuidString).jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func narrowestScopeDeclinedIsNoSharingAndLinesAreUnwrapped() throws {
        let bundle = { (resources: [String]) in
            #"{"export":{"resourceType":"Bundle","type":"collection","entry":["#
                + resources.map { #"{"resource":\#($0)}"# }.joined(separator: ",") + #"]},"source":"r"}"#
        }
        let path = try Self.write(
            [
                bundle([Self.consent("A", status: "active", scope: "all_qualified_researchers")]),
                bundle([Self.consent("A", status: "active", scope: "sponsors_and_partners")]),
                bundle([Self.consent("B", status: "rejected", scope: "all_qualified_researchers")]),
                bundle([Self.consent("C", status: "active", scope: nil), #"{"resourceType":"Observation"}"#]),
            ].joined(separator: "\n"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var policy = ConsentPolicy()
        #expect(try policy.addScopes(file: path) == 2)
        #expect(policy.scopes == ["A": .sponsorsAndPartners, "B": .noSharing])
        // The same file as withdrawals: B declined.
        #expect(try policy.addWithdrawals(file: path) == 1 && policy.withdrawn == ["B"])
    }

    @Test func anUnknownScopeIsAnErrorNamingTheFile() throws {
        let path = try Self.write(Self.consent("A", status: "active", scope: "everyone"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var policy = ConsentPolicy()
        #expect { try policy.addScopes(file: path) } throws: { "\($0)".contains(path) && "\($0)".contains("sponsors_and_partners") }
    }
}
