import ActiveTasks
import ArgumentParser

/// `analyze` options for tone-audiometry results.
struct AudiometryOptions: ParsableArguments {}

extension Analyze {
    /// Analyses a dB HL (or legacy) tone-audiometry result or task.
    func analyzeAudiometry(_ input: LoadedInput) throws {
        throw failure(input, "analysis of tone-audiometry results is not available yet (see `taskproc inspect`) for")
    }
}
