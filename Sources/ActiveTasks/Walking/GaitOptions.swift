import Foundation

/// Where the motion sensor was worn, for the gait parameters that depend on it (`--placement`).
public enum SensorPlacement: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not known, or a phone in a pocket, bag or hand: steps, cadence, step and stride times only.
    case unknown
    /// On the lower back (L4–L5, over the sacrum), as in Mobilise-D: also initial and final contacts, stance,
    /// swing and double support, and with a sensor height stride length and walking speed.
    case lowerBack = "lower-back"
}

/// How the steps of a lower-back sensor are found (`--lower-back-steps`).
public enum LowerBackSteps: String, Sendable, Hashable, Codable, CaseIterable {
    /// The Mobilise-D chain (default): gait sequences of ``GaitSequenceDetector`` (Paraschiv-Ionescu 2019), every
    /// initial contact of ``LowerBackGait`` inside them a step; published parameters, nothing fitted to our files.
    case contacts
    /// The phone step detector's steps and bouts (``StepDetector``), with the contacts found inside its bouts.
    case detector
}

/// How walking recordings are analysed beyond step counts: the sensor's placement and height.
public struct GaitOptions: Sendable, Hashable, Codable {
    /// Where the sensor was worn; ``SensorPlacement/lowerBack`` turns the contact-based parameters on.
    public var placement: SensorPlacement = .unknown
    /// The sensor's height above the ground while standing, m (0.3–1.5; `--sensor-height`).
    public var sensorHeight: Double?
    /// The participant's body height, m (0.5–2.5; `--height`): the sensor height is taken as
    /// ``sensorHeightRatio`` of it when ``sensorHeight`` is not given.
    public var height: Double?
    /// How a lower-back sensor's steps are found; nil is ``LowerBackSteps/contacts``.
    public var lowerBackSteps: LowerBackSteps?

    /// Sensor height over body height for a lower-back sensor, dimensionless: 0.593.
    ///
    /// The mean of the two Mobilise-D development participants' measured ratios (0.606 and 0.580). Its error on a held-out
    /// participant is ±4.4 % (leave-one-participant-out; 2.2 % fitted), which becomes about the same relative
    /// error in stride length (docs/walking.md).
    public static let sensorHeightRatio = 0.593
    /// Sensor heights accepted, m.
    public static let sensorHeightRange: ClosedRange<Double> = 0.3...1.5
    /// Body heights accepted, m.
    public static let heightRange: ClosedRange<Double> = 0.5...2.5

    /// The sensor height in use, m: ``sensorHeight``, else ``sensorHeightRatio`` × ``height``, else nil.
    public var effectiveSensorHeight: Double? {
        sensorHeight ?? height.map { $0 * Self.sensorHeightRatio }
    }

    /// Default options: placement unknown, no heights.
    public init() {}

    /// Options for a placement and heights.
    ///
    /// - Parameters:
    ///   - placement: Where the sensor was worn.
    ///   - sensorHeight: Sensor height, m.
    ///   - height: Body height, m.
    ///   - lowerBackSteps: How a lower-back sensor's steps are found; nil is ``LowerBackSteps/contacts``.
    public init(
        placement: SensorPlacement, sensorHeight: Double? = nil, height: Double? = nil,
        lowerBackSteps: LowerBackSteps? = nil
    ) {
        self.placement = placement
        self.sensorHeight = sensorHeight
        self.height = height
        self.lowerBackSteps = lowerBackSteps
    }
}
