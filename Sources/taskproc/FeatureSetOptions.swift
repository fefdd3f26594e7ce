import ActiveTasks
import ArgumentParser
import StudyBatch
import StudyInputs
import StudyOutputs

extension FeatureSet: ExpressibleByArgument {}

/// `analyze` and `batch` option choosing the published feature sets added to taskproc's own analyses.
struct FeatureSetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "taskproc or mhealthtools: also mhealthtools' get_walk_features on walking recordings and "
                + "get_kinetic_tremor_features on tremor recordings (IMF = 2, an empirical mode decomposition per "
                + "axis; JSON keys mhealthtoolsFeatures and imfFeatures). Tremor, balance and rest steps always get "
                + "mhealthtools' IMF = 1 features."))
    var featureSet: FeatureSet = .taskproc
}
