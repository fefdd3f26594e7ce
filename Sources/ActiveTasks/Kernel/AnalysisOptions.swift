import Foundation
import SensorSignal
import StudyInputs

/// Every analysis option as one value: what `taskproc analyze` builds from its command line and what
/// `taskproc batch` stores in its run configuration, so `--resume`, shards and `merge` need no argument parsing.
public struct AnalysisOptions: Sendable, Hashable, Codable {
    /// How inputs are read (accelerometer CSV columns and units, timestamp hygiene).
    public var loader = InputLoader.Options()
    /// How audio files are decoded and summarised (block size, truncation, sound-level options and calibration).
    public var audio = AudioAnalysisOptions()
    /// Which R implementation the tapping features reproduce.
    public var tappingVariant = TappingVariant.mhealthtools
    /// The x jump between two tapping depress events, points.
    public var depressThreshold: Double = 20
    /// How tone-audiometry results are analysed (ResearchKit release, staircase parameters).
    public var audiometry = AudiometryAnalysisOptions()
    /// Overrides the threshold rule of ResearchKit SPL-meter steps; nil keeps each step's own (or ResearchKit's
    /// default).
    public var splMeterRule: SPLThresholdRule?
    /// Withhold identifying survey answers — names, e-mail, date of birth, phone number, locations, a consent
    /// signer's name and signature date (``ResearchKit/isIdentifying(_:)``) — as `"withheld": "identifier"`;
    /// nil or false keeps them. Optional so that run configurations stored before it existed still decode.
    public var dropsIdentifiers: Bool?

    /// Which answers carry a task's consent decision and sharing choice (`--consent-config`); nil (run
    /// configurations stored before it existed) means ``ConsentRules/default``.
    public var consent: ConsentRules?

    /// The study's consent contract (`--consent-contract`): a survey result that answers one of its eligibility
    /// criteria or holds a consent decision gets ``SurveyResult/eligibility``; nil: none.
    public var consentContract: ConsentContract?

    /// Which published feature sets to add besides taskproc's own analyses; nil (run configurations stored before
    /// it existed) means ``FeatureSet/taskproc``.
    public var featureSet: FeatureSet?

    /// The walking sensor's placement and height for the gait parameters beyond cadence; nil (run
    /// configurations stored before it existed) means placement unknown, no heights.
    public var gait: GaitOptions?

    /// Default options.
    public init() {}
}

/// Which published feature sets `analyze` and `batch` add (`--feature-set`).
public enum FeatureSet: String, Sendable, Hashable, Codable, CaseIterable {
    /// taskproc's own analyses only (tremor, balance and rest steps still get mhealthtools' `IMF = 1` features,
    /// which cost little).
    case taskproc
    /// Also mhealthtools' `IMF = 2` sets: `get_walk_features` on every walking recording (the walking result's
    /// `mhealthtoolsFeatures`) and `get_kinetic_tremor_features` on every tremor recording (the motion-signal
    /// result's `imfFeatures`). Each needs an empirical mode decomposition per axis, so it is opt-in.
    case mhealthtools
}
