import ActiveTasks
import ArgumentParser
import StudyBatch
import StudyInputs
import StudyOutputs

extension TappingVariant: ExpressibleByArgument {}

/// `analyze` options for tapping inputs.
struct TappingOptions: ParsableArguments {
    @Option(
        name: .customLong("tapping-variant"),
        help:
            "Which R tapping features to reproduce: mhealthtools or mpower2016 (the 2016 mPower code, with dfaTapInter)."
    )
    var variant: TappingVariant = .mhealthtools

    @Option(help: "The x jump between two depress events, in points (the R code's depress threshold).")
    var depressThreshold: Double = 20

    func validate() throws {
        guard depressThreshold.isFinite, depressThreshold >= 0 else {
            throw ValidationError("--depress-threshold must be a finite number of points ≥ 0, got \(depressThreshold)")
        }
    }
}
