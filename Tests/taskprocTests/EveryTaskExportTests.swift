import Foundation
import TestSupport
import Testing

/// Issue 19's "done when": a generated export holding one run of every active task taskproc analyses
/// (`make_export.py --every-task`), mixed with the generator's other dialects and broken records, goes through
/// batch with zero error records among those runs, one CSV per kind, and the task-specific values where they can be
/// worked out from how the generator made the data.
@Suite struct EveryTaskExportTests {
    /// The CSV every every-task run must reach (the generator's task name → batch's kind file).
    static let kinds = [
        "walking", "balance", "tremor", "tapping", "dBHLToneAudiometry", "toneAudiometry", "environmentSPLMeter",
        "rangeOfMotion", "stroop", "trailMaking", "psat", "spatialSpanMemory", "towerOfHanoi", "holePeg",
        "accuracyStroop", "reactionTime", "normalizedReactionTime", "speechRecognition", "speechInNoise",
        "amslerGrid", "modelSelection", "survey",
    ]

    @Test func everyTaskThroughBatchWithoutAnError() throws {
        let dir = try E2E.temporaryDirectory("every-task")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(at: export, records: 30, seed: 19, extra: ["--every-task"])
        #expect(generated.status == 0, "\(generated.output)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export + ".manifest.json")))
                as? [String: Any])
        let records = try #require(manifest["records"] as? [[String: Any]])
        let everyTask = records.compactMap { $0["source"] as? String }.filter { $0.hasPrefix("every-task/") }
        #expect(everyTask.count == 22)
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", export, "--out", out, "--no-progress"])
        #expect(batch.status == ExpectedExit.success || batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        let errors = try String(contentsOfFile: out + "/errors.jsonl", encoding: .utf8)
        for source in everyTask { #expect(!errors.contains("/" + source + "/"), "\(source) failed") }
        let results = try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8)
        for source in everyTask { #expect(results.contains("/" + source + "/"), "\(source) has no result") }
        for kind in Self.kinds {
            let path = out + "/\(kind).csv"
            #expect(FileManager.default.fileExists(atPath: path), "no \(kind).csv")
        }
        // The tremor run's phone shakes at 5 Hz with amplitude 0.05 g on userAcceleration x (plus 0.003 g noise):
        // mhealthtools' spectral mode is within one bin (fs/998 ≈ 0.1 Hz) of 5 Hz, and the SD ≈ 0.05/√2 g.
        let tremor = try E2E.csvTable(try String(contentsOfFile: out + "/tremor.csv", encoding: .utf8))
        let row = try #require(tremor.rows.first { ($0["source"] ?? "").contains("every-task/tremor/") })
        #expect(row["featureFunction"] == "get_tremor_features")
        let mode = try #require(Double(row["accelerometer.x.mod.fr"] ?? ""))
        #expect(abs(mode - 5) < 0.11, "spectral mode \(mode) Hz")
        let sd = try #require(Double(row["accelerometer.x.sd.tm"] ?? ""))
        #expect(abs(sd - 0.05 / 2.0.squareRoot()) < 0.002, "SD \(sd) g")
    }

    /// Issue 54's "done when" for FHIR: every bundle of the every-task export, as a collection and as a transaction
    /// with Patients and an identifier system, passes the R4 models and the structure checks; the Bulk Data files hold
    /// every resource once, with bundle references resolved to `<type>/<id>`.
    @Test func everyTaskFHIRPassesTheModelsAndTheStructureChecks() throws {
        let dir = try E2E.temporaryDirectory("every-task-fhir")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(at: export, records: 30, seed: 19, extra: ["--every-task"])
        #expect(generated.status == 0, "\(generated.output)")
        var bundles: [String] = []
        for (name, extra) in [
            ("collection", [String]()),
            (
                "transaction",
                ["--fhir-bundle", "transaction", "--fhir-patient", "--fhir-subject-system", "https://example.org/p"]
            ),
        ] {
            let out = dir.appendingPathComponent(name).path
            let batch = try E2E.run(["batch", export, "--out", out, "--no-progress", "--format", "fhir"] + extra)
            let finished = batch.status == ExpectedExit.success || batch.status == ExpectedExit.batchPartial
            #expect(finished, "\(batch.stderr)")
            let lines = try String(contentsOfFile: out + "/export.fhir.jsonl", encoding: .utf8).split(separator: "\n")
            var resources = 0
            var patients: Set<String> = []
            var kindsWithResources: Set<String> = []
            for (i, line) in lines.enumerated() {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let bundle = try #require(object["export"] as? [String: Any])
                #expect(bundle["type"] as? String == name)
                for entry in bundle["entry"] as? [[String: Any]] ?? [] {
                    let resource = entry["resource"] as? [String: Any] ?? [:]
                    if resource["resourceType"] as? String == "Patient" {
                        patients.insert(resource["id"] as? String ?? "")
                    } else {
                        resources += 1
                    }
                    if resource["resourceType"] as? String != "Patient", let source = object["source"] as? String,
                        let range = source.range(of: "every-task/")
                    {
                        kindsWithResources.insert(String(source[range.upperBound...].prefix { $0 != "/" }))
                    }
                }
                let file = dir.appendingPathComponent("\(name)-\(i).json").path
                try JSONSerialization.data(withJSONObject: bundle).write(to: URL(fileURLWithPath: file))
                bundles.append(file)
            }
            // The Bulk Data form: every resource once (a participant's Patient once), references resolved.
            let all = try String(contentsOfFile: out + "/export.fhir.ndjson", encoding: .utf8)
            #expect(all.split(separator: "\n").count == resources + patients.count)
            #expect(!all.contains("\"reference\":\"urn:uuid:"), "references name <type>/<id> outside a bundle")
            let observations = try String(contentsOfFile: out + "/export.fhir.Observation.ndjson", encoding: .utf8)
            #expect(observations.split(separator: "\n").allSatisfy { $0.contains("\"resourceType\":\"Observation\"") })
            if name == "transaction" {
                #expect(!patients.isEmpty)
                #expect(all.contains("\"reference\":\"Patient/"))
            }
            // Every every-task run has a coded resource (legacy tone audiometry its dBFS levels under the local
            // code system: uncalibrated, never hearing thresholds).
            let runs = try FileManager.default.contentsOfDirectory(atPath: export + "/every-task")
            #expect(Set(runs).subtracting(kindsWithResources).isEmpty, "\(kindsWithResources.sorted())")
        }
        let validation = try E2E.validateFHIR(bundles)
        #expect(validation.status == 0, "\(validation.output)")
    }

    /// Issue 55's report: every result kind of the every-task export has its section (linked from the contents)
    /// with a summary table of its numbers, or a note where it has none; failures are counted by reason.
    @Test func everyTaskReportHasASectionPerKind() throws {
        let dir = try E2E.temporaryDirectory("every-task-report")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(at: export, records: 30, seed: 19, extra: ["--every-task"])
        #expect(generated.status == 0, "\(generated.output)")
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", export, "--out", out, "--no-progress"])
        #expect(batch.status == ExpectedExit.success || batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        let page = dir.appendingPathComponent("report.html").path
        let report = try E2E.run(["report", out, "-o", page, "--no-sources"])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        var kinds: Set<String> = []
        for line in try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8).split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for result in record["results"] as? [[String: Any]] ?? [] {
                if let kind = result["kind"] as? String { kinds.insert(kind) }
            }
        }
        #expect(kinds.count >= 20, "\(kinds.sorted())")
        // Kinds whose results hold no number to summarise (a model selection, a survey's answers, ResearchKit's
        // uncalibrated tone audiometry) say so.
        let withoutNumbers: Set<String> = ["modelSelection", "survey", "toneAudiometry"]
        for kind in kinds.sorted() {
            #expect(html.contains("<a href=\"#kind-\(kind)\">"), "\(kind) not in the contents")
            let start = try #require(html.range(of: "<h2 id=\"kind-\(kind)\">"), "\(kind) has no section")
            let rest = html[start.upperBound...]
            let section = rest[..<(rest.range(of: "<h2")?.lowerBound ?? rest.endIndex)]
            if withoutNumbers.contains(kind) {
                #expect(section.contains("No numeric measure to summarise"), "\(kind)")
            } else {
                #expect(section.contains("<table class=\"summary\">"), "\(kind) has no summary table")
            }
        }
        #expect(html.contains("<h2 id=\"problems\">Failures and warnings</h2>"))
        #expect(!html.contains("<h3>Survey answers</h3>\n<h"), "no empty survey heading")
    }
}
