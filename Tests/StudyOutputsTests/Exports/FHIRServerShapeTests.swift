import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// FHIR R4 a server accepts (issue 54 item 3).
///
/// Transaction bundles with conditional creates, a Patient and an
/// identifier system for the subject, code systems that are code systems, value types that fit the value, a local
/// code for every kind without a published one, and a validator that checks the structure rules the R4 models do
/// not. Expected values come from the FHIR R4 specification (element names, value sets' code systems) and the
/// fixtures.
@Suite struct FHIRServerShapeTests {
    static func survey(_ name: String) throws -> (records: [ExportRecord], input: LoadedInput) {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path(name))
        let results = AnalysisRegistry.analyze(input).flatMap(\.results)
        return (try results.flatMap { try ExportRecord.records(of: $0.result) }, input)
    }

    static func resources(_ bundle: JSONValue) -> [JSONObject] {
        (bundle.objectValue?["entry"]?.arrayValue ?? []).compactMap { $0.objectValue?["resource"]?.objectValue }
    }

    static func validate(_ bundles: [JSONValue]) throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-shape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (i, bundle) in bundles.enumerated() {
            let file = folder.appendingPathComponent("\(i).json").path
            try ResultEncoding.json(bundle).write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        return try runPythonScript("Tools/validators/fhir_validate.py", files)
    }

    @Test func aTransactionCreatesEachResourceOnceAndReferencesItsPatient() throws {
        let (records, input) = try Self.survey("consent-researchkit3.json")
        var context = ExportContext(input: input)
        context.participant = "P-7"
        var settings = FHIRExport.Settings()
        settings.bundleType = .transaction
        settings.includesPatient = true
        settings.subjectSystem = "https://example.org/participants"
        let bundle = FHIRExport.bundle(records, context: context, settings: settings).bundle
        let root = try #require(bundle.objectValue)
        #expect(root["type"]?.stringValue == "transaction" && root["timestamp"] == nil)
        let entries = (root["entry"]?.arrayValue ?? []).compactMap(\.objectValue)
        #expect(
            entries.compactMap { $0["resource"]?.objectValue?["resourceType"]?.stringValue } == [
                "Patient", "QuestionnaireResponse", "Consent",
            ])
        for entry in entries {
            let request = try #require(entry["request"]?.objectValue)
            let type = entry["resource"]?.objectValue?["resourceType"]?.stringValue
            #expect(request["method"]?.stringValue == "POST" && request["url"]?.stringValue == type)
            #expect(request["ifNoneExist"]?.stringValue?.hasPrefix("identifier=") == true)
        }
        #expect(
            entries[0]["request"]?.objectValue?["ifNoneExist"]?.stringValue
                == "identifier=https://example.org/participants%7CP-7")
        let patientURL = try #require(entries[0]["fullUrl"]?.stringValue)
        let consent = try #require(entries[2]["resource"]?.objectValue)
        #expect(consent["patient"]?.objectValue?["reference"]?.stringValue == patientURL)
        #expect(
            consent["patient"]?.objectValue?["identifier"]?.objectValue?["system"]?.stringValue
                == "https://example.org/participants")
        // The sharing scope's extension is a StructureDefinition URL under taskproc's canonical base.
        let url = consent["extension"]?.arrayValue?.first?.objectValue?["url"]?.stringValue
        #expect(url == "http://taskproc.org/fhir/StructureDefinition/sharing-scope")
        let validation = try Self.validate([bundle])
        #expect(validation.status == 0, "\(validation.output)")
    }

    @Test func contractCodesAreFromCodeSystems() throws {
        let (records, input) = try Self.survey("consent-researchkit3.json")
        let bundle = FHIRExport.bundle(records, context: ExportContext(input: input), consentShape: .contract).bundle
        let contract = try #require(Self.resources(bundle).first { $0["resourceType"]?.stringValue == "Contract" })
        let signer = try #require(contract["signer"]?.arrayValue?.first?.objectValue)
        #expect(
            signer["type"]?.objectValue?["system"]?.stringValue
                == "http://terminology.hl7.org/CodeSystem/contractsignertypecodes")
        let signature = signer["signature"]?.arrayValue?.first?.objectValue
        #expect(
            signature?["type"]?.arrayValue?.first?.objectValue?["system"]?.stringValue == "urn:iso-astm:E1762-95:2013")
        #expect(try Self.validate([bundle]).status == 0)
    }

    @Test func valuesHaveTheTypeThatFitsThem() throws {
        let result = ScoredTaskResult(
            kind: "amslerGrid", stepIdentifier: "amsler",
            scores: [
                TaskScore("marked", 1, "boolean"), TaskScore("areas", 3, "count"), TaskScore("width", 12.5, "pt"),
                TaskScore("ratio", 0.25, "count"),
            ])
        let records = try ExportRecord.records(of: result)
        let observations = Self.resources(FHIRExport.bundle(records, context: ExportContext()).bundle)
        let byCode = Dictionary(
            uniqueKeysWithValues: observations.compactMap { o -> (String, JSONObject)? in
                (o["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue?["code"]?.stringValue).map {
                    ($0, o)
                }
            })
        #expect(byCode["amslerGrid.marked"]?["valueBoolean"] == .bool(true))
        #expect(byCode["amslerGrid.areas"]?["valueInteger"] == .number(3))
        #expect(byCode["amslerGrid.ratio"]?["valueQuantity"] != nil, "a fractional count stays a quantity")
        let width = byCode["amslerGrid.width"]?["valueQuantity"]?.objectValue
        #expect(width?["code"]?.stringValue == "{screen_point}", "UCUM's [pt] is the pint")
        #expect(try Self.validate([FHIRExport.bundle(records, context: ExportContext()).bundle]).status == 0)
    }

    @Test func kindsWithoutAPublishedCodeGetTheLocalOne() throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("researchkit-samples/ORKTappingIntervalResult.json"))
        let results = AnalysisRegistry.analyze(input).flatMap(\.results)
        let records = try results.flatMap { try ExportRecord.records(of: $0.result) }
        let observations = Self.resources(FHIRExport.bundle(records, context: ExportContext(input: input)).bundle)
        let taps = try #require(
            observations.first {
                $0["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue?["code"]?.stringValue
                    == "tapping.leftTaps"
            })
        #expect(
            taps["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue?["system"]?.stringValue
                == ScoredTasks.codeSystem)
        #expect(taps["valueInteger"]?.numberValue != nil)
    }

    /// Legacy tone audiometry: the level of each answered tone, 20·log10(amplitude) dBFS, under the local code;
    /// the unanswered tone is listed as skipped.
    @Test func legacyToneLevelsGoOutInDBFSUnderTheLocalCode() throws {
        let input = try AnalysisRegistry.load(path: fixturePath("researchkit/tone-audiometry-legacy.json"))
        let results = AnalysisRegistry.analyze(input).flatMap(\.results)
        let records = try results.flatMap { try ExportRecord.records(of: $0.result) }
        let output = FHIRExport.bundle(records, context: ExportContext(input: input))
        let observations = Self.resources(output.bundle).filter { $0["resourceType"]?.stringValue == "Observation" }
        #expect(observations.count == 1)
        let coding = observations.first?["code"]?.objectValue?["coding"]?.arrayValue?.first?.objectValue
        #expect(coding?["system"]?.stringValue == ScoredTasks.codeSystem)
        #expect(coding?["code"]?.stringValue == "toneAudiometry.left.8000Hz")
        let quantity = observations.first?["valueQuantity"]?.objectValue
        #expect(abs((quantity?["value"]?.numberValue ?? 0) - 20 * log10(0.0041)) < 1e-9)
        #expect(quantity?["code"]?.stringValue == "dB" && quantity?["unit"]?.stringValue == "dBFS")
        #expect(output.skipped.contains { $0.contains("no response") })
        let validation = try Self.validate([output.bundle])
        #expect(validation.status == 0, "\(validation.output)")
    }

    @Test func theValidatorRejectsWhatAServerWould() throws {
        let broken = """
            {"resourceType":"Bundle","type":"transaction","entry":[
             {"fullUrl":"urn:uuid:0b0c4a5e-7f0e-4c3b-9d1a-2e3f4a5b6c7d","resource":{"resourceType":"QuestionnaireResponse",
              "status":"completed","subject":{"reference":"urn:uuid:11111111-1111-4111-8111-111111111111"},
              "item":[{"linkId":"web","item":[{"linkId":"web","answer":[{"valueString":"x"}]}]},
                      {"linkId":"a","answer":[{"valueString":""}]},{"linkId":"a","answer":[{"valueBoolean":true}]}]}},
             {"fullUrl":"urn:uuid:22222222-2222-4222-8222-222222222222","resource":{"resourceType":"Observation",
              "status":"final","code":{"coding":[{"system":"http://hl7.org/fhir/ValueSet/signature-type","code":"x"}]},
              "extension":[{"url":"urn:taskproc:fhir:sharingScope","valueCode":"x"}],
              "valueQuantity":{"value":1,"system":"http://unitsofmeasure.org","code":"[pt]"}},
              "request":{"method":"POST","url":"Observation"}}]}
            """
        let value = try JSONParser.parse(Data(broken.utf8), file: "broken.json")
        let rejected = try Self.validate([value])
        #expect(rejected.status == 1)
        for message in [
            "needs request.method", "repeats its parent's", "repeats among its siblings", "empty string",
            "resolves to no entry", "is a ValueSet", "not the UCUM unit", "not a StructureDefinition URL",
        ] {
            #expect(rejected.output.contains(message), "\(message): \(rejected.output)")
        }
    }

    @Test func theLegacySharingExtensionIsStillRead() throws {
        let consent = """
            {"resourceType":"Consent","status":"active","patient":{"identifier":{"value":"P-1"}},
             "extension":[{"url":"urn:taskproc:fhir:sharingScope","valueCode":"sponsors_and_partners"}]}
            """
        var found: [String: SharingScope] = [:]
        try ConsentPolicy.collectScopes(
            try JSONParser.parse(Data(consent.utf8), file: "c.json"), file: "c.json", into: &found)
        #expect(found["P-1"] == .sponsorsAndPartners)
    }
}

/// The conformance resources in `docs/fhir/` are what the export refers to (`FHIRDefinitions`).
///
/// They pass the R4 models. `TASKPROC_WRITE_FHIR_DEFINITIONS=1 swift test --filter FHIRDefinitionsTests` rewrites them.
@Suite struct FHIRDefinitionsTests {
    @Test func docsHoldTheDefinitionsTheExportUses() throws {
        let write = ProcessInfo.processInfo.environment["TASKPROC_WRITE_FHIR_DEFINITIONS"] == "1"
        for (file, resource) in FHIRDefinitions.resources {
            let path = repositoryPath("docs/fhir/" + file)
            let text = try ResultEncoding.json(resource) + "\n"
            if write { try text.write(toFile: path, atomically: true, encoding: .utf8) }
            let published = try String(contentsOfFile: path, encoding: .utf8)
            #expect(published == text, "docs/fhir/\(file) differs from FHIRDefinitions: rewrite it (see above)")
        }
        let urls = FHIRDefinitions.resources.compactMap { $0.resource.objectValue?["url"]?.stringValue }
        #expect(urls.contains(FHIRExport.sharingScopeExtension))
        #expect(urls.allSatisfy { $0.hasPrefix(FHIRDefinitions.base + "/") })
        let validation = try FHIRServerShapeTests.validate([FHIRDefinitions.bundle])
        #expect(validation.status == 0, "\(validation.output)")
    }
}
