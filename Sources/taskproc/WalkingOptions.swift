import ActiveTasks
import ArgumentParser

extension SensorPlacement: ExpressibleByArgument {}
extension LowerBackSteps: ExpressibleByArgument {}

/// `analyze` and `batch` options for the gait parameters beyond cadence: where the sensor was worn and how high.
struct WalkingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where the motion sensor was worn: unknown (default: a phone; the step detector's steps, cadence, step "
                + "and stride times) or lower-back (steps and bouts from the Mobilise-D chain of gait sequences and "
                + "initial contacts; also final contacts, stance, swing and double support; with a sensor height, "
                + "stride length and walking speed). --sensor-height or --height imply lower-back."))
    var placement: SensorPlacement?

    @Option(
        help: ArgumentHelp(
            "Height of the lower-back sensor above the ground while standing, in m (0.3-1.5): the inverted-pendulum "
                + "leg length for stride length and walking speed.", valueName: "m"))
    var sensorHeight: Double?

    @Option(
        help: ArgumentHelp(
            "The participant's height, in m (0.5-2.5), when the sensor height was not measured: the sensor height is "
                + "taken as 0.593 of it (docs/walking.md).", valueName: "m"))
    var height: Double?

    @Option(
        help: ArgumentHelp(
            "How a lower-back sensor's steps are found: contacts (default: the Mobilise-D chain, gait sequences "
                + "(Paraschiv-Ionescu 2019) and every initial contact in them a step) or detector (the phone step "
                + "detector's steps and bouts).", valueName: "source"))
    var lowerBackSteps: LowerBackSteps?

    func validate() throws {
        if let h = sensorHeight, !(h.isFinite && GaitOptions.sensorHeightRange.contains(h)) {
            throw ValidationError("--sensor-height must be 0.3…1.5 m, got \(h)")
        }
        if let h = height, !(h.isFinite && GaitOptions.heightRange.contains(h)) {
            throw ValidationError("--height must be 0.5…2.5 m, got \(h)")
        }
        if sensorHeight != nil && height != nil {
            throw ValidationError("give --sensor-height or --height, not both")
        }
        if placement == .unknown && (sensorHeight != nil || height != nil) {
            throw ValidationError(
                "--sensor-height and --height describe a lower-back sensor; not with --placement unknown")
        }
        if placement == .unknown && lowerBackSteps != nil {
            throw ValidationError("--lower-back-steps describes a lower-back sensor; not with --placement unknown")
        }
    }

    /// The library's gait options; nil when no option was given.
    var gaitOptions: GaitOptions? {
        guard placement != nil || sensorHeight != nil || height != nil || lowerBackSteps != nil else { return nil }
        return GaitOptions(
            placement: placement ?? .lowerBack, sensorHeight: sensorHeight, height: height,
            lowerBackSteps: lowerBackSteps)
    }

    /// The options as arguments (stored with a batch run).
    var arguments: [String] {
        var args: [String] = []
        if let placement { args += ["--placement", placement.rawValue] }
        if let sensorHeight { args += ["--sensor-height", String(sensorHeight)] }
        if let height { args += ["--height", String(height)] }
        if let lowerBackSteps { args += ["--lower-back-steps", lowerBackSteps.rawValue] }
        return args
    }
}
