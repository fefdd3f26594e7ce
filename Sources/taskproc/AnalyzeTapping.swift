import ActiveTasks
import ArgumentParser

/// `analyze` options for tapping inputs.
struct TappingOptions: ParsableArguments {}

extension Analyze {
    /// Analyses a tapping input (ResearchKit, mPower, MyDataHelps or mhealthtools dialect).
    func analyzeTapping(_ input: LoadedInput) throws {
        throw failure(input, "analysis of tapping inputs is not available yet (see `taskproc inspect`) for")
    }
}
