import Foundation
import StudyInputs
import Testing

@testable import ActiveTasks

/// The help says what the commands do: exit statuses as they are, each default once, the output folder first, every
/// task kind named.
@Suite struct HelpTextTests {
    /// Options of a help text, each with its whole (wrapped) description on one line, spaces collapsed.
    static func options(_ help: String) -> [String] {
        var out: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") {
                out.append(String(line))
            } else if line.hasPrefix("                        "), !out.isEmpty {
                out[out.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return out.map { $0.split(separator: " ").joined(separator: " ") }
    }

    @Test(arguments: ["analyze", "inspect", "batch", "merge", "report"])
    func everyDefaultIsSaidOnce(command: String) throws {
        let help = try E2E.run(["help", command])
        #expect(help.status == 0)
        for option in Self.options(help.stdout) {
            let count = option.components(separatedBy: "default").count - 1
            #expect(count <= 1, "\(command): \(option)")
        }
    }

    @Test func batchHelpGivesTheRealStrictStatusAndTheOutputFirst() throws {
        let help = try E2E.run(["help", "batch"]).stdout
        let strict = try #require(Self.options(help).first { $0.hasPrefix("--strict") })
        #expect(strict.contains("65"), "\(strict)")
        let output = try #require(help.range(of: "-o, --output"))
        let consent = try #require(help.range(of: "CONSENT:"))
        #expect(output.lowerBound < consent.lowerBound)
        #expect(help.contains("participant_day.csv"))
    }

    @Test func topLevelHelpNamesEveryTaskKind() throws {
        let help = try E2E.run(["--help"]).stdout.split(separator: " ").joined(separator: " ")
        let flat = help.replacingOccurrences(of: "\n", with: " ")
        for kind in AnalysisRegistry.taskKinds { #expect(flat.contains(kind.rawValue), "\(kind.rawValue)") }
    }
}
