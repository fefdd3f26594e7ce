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

    /// The rules of `--consent-config`; nil when not given.
    /// - Throws: ``CommandFailure`` 66 when the file does not exist, 65 naming the rule that cannot be read.
    func rules() throws -> ConsentRules? {
        guard let consentConfig else { return nil }
        guard FileManager.default.fileExists(atPath: consentConfig) else { throw CommandFailure.noInput(consentConfig) }
        do { return try ConsentRules(file: consentConfig) } catch let error as ExportError {
            throw CommandFailure.data("--consent-config: \(error.description)")
        }
    }
}
