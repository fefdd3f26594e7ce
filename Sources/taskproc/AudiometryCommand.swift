import ActiveTasks
import ArgumentParser
import StudyBatch
import StudyInputs
import StudyOutputs

/// `taskproc audiometry …`: tone-audiometry tools beyond `analyze`.
struct Audiometry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tone-audiometry tools (simulation of ResearchKit's dB HL staircase).",
        subcommands: [AudiometrySimulate.self])
}
