import ActiveTasks
import ArgumentParser
import Foundation
import StudyInputs

/// `analyze` and `batch` option naming which answers carry a task's consent decision and sharing choice.
struct ConsentOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Which answers carry the consent decision and sharing choice: a JSON file {\"sharing\": [{\"step\": ..., "
                + "\"question\": ..., \"values\": {\"2\": \"sponsors_and_partners\"}}], \"decision\": [...], "
                + "\"signatureSteps\": [...]} tried before the defaults (ResearchKit's legacy review and ResearchKit "
                + "3's web-view signature, ORKCatalog's sharing choices; docs/surveys.md).", valueName: "file"),
        completion: .file())
    var consentConfig: String?

    @Option(
        help: ArgumentHelp(
            "The study's consent as a FHIR R4 Contract (C3-PRO's: terms, and an eligibility Group as its contained "
                + "subject whose characteristics name their questions in code.coding): eligibility is checked against "
                + "the answers, a signed consent's Contract follows it, and consent documents attest its terms "
                + "(docs/surveys.md).", valueName: "file"),
        completion: .file())
    var consentContract: String?

    /// The rules of `--consent-config`; nil when not given.
    /// - Throws: ``CommandFailure`` 66 when the file does not exist, 65 naming the rule that cannot be read.
    func rules() throws -> ConsentRules? {
        guard let consentConfig else { return nil }
        guard FileManager.default.fileExists(atPath: consentConfig) else { throw CommandFailure.noInput(consentConfig) }
        do { return try ConsentRules(file: consentConfig) } catch let error as ExportError {
            throw CommandFailure.data("--consent-config: \(error.description)")
        }
    }

    /// The contract of `--consent-contract`; nil when not given.
    /// - Throws: ``CommandFailure`` 66 when the file does not exist, 65 naming the field that cannot be read.
    func contract() throws -> ConsentContract? {
        guard let consentContract else { return nil }
        guard FileManager.default.fileExists(atPath: consentContract) else {
            throw CommandFailure.noInput(consentContract)
        }
        do { return try ConsentContract(file: consentContract) } catch let error as ExportError {
            throw CommandFailure.data("--consent-contract: \(error.description)")
        }
    }
}
