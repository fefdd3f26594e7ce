import Foundation

/// A point in iOS view coordinates (points; origin top-left, y downwards).
public struct ViewPoint: Sendable, Hashable, Codable {
    /// Horizontal position, points.
    public var x: Double
    /// Vertical position, points (downwards).
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A size in iOS points.
public struct ViewSize: Sendable, Hashable, Codable {
    /// Width, points.
    public var width: Double
    /// Height, points.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in iOS view coordinates (points).
public struct ViewRect: Sendable, Hashable, Codable {
    /// Top-left corner.
    public var origin: ViewPoint
    /// Extent.
    public var size: ViewSize

    /// Creates a rectangle.
    public init(origin: ViewPoint, size: ViewSize) {
        self.origin = origin
        self.size = size
    }

    /// Centre point.
    public var center: ViewPoint { ViewPoint(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    /// True when `p` lies inside (edges included).
    public func contains(_ p: ViewPoint) -> Bool {
        p.x >= origin.x && p.x <= origin.x + size.width && p.y >= origin.y && p.y <= origin.y + size.height
    }
}

/// Which target a two-finger-tapping touch hit.
public enum TapButton: String, Sendable, Hashable, Codable, CaseIterable {
    /// Outside both buttons (`"none"`, mPower `TappedButtonNone`).
    case none
    /// The left button (`buttonRect1`).
    case left
    /// The right button (`buttonRect2`).
    case right
}

/// One touch-down of the two-finger tapping task (`ORKTappingSample`, mPower `TappingSamples` item).
public struct TapSample: Sendable, Hashable, Codable {
    /// Time of the touch-down, s, relative to the first button tap of the step (first sample 0).
    public var timestamp: Double
    /// Touch-down to touch-up, s; 0 for `none` taps and when the source does not record it (mPower).
    public var duration: Double?
    /// The target hit.
    public var button: TapButton
    /// Touch location in the step view, points.
    public var location: ViewPoint

    /// Creates a sample.
    public init(timestamp: Double, duration: Double?, button: TapButton, location: ViewPoint) {
        self.timestamp = timestamp
        self.duration = duration
        self.button = button
        self.location = location
    }
}

/// One cumulative pedometer snapshot (`CMPedometerData`): counts since the recorder started.
public struct PedometerSample: Sendable, Hashable, Codable {
    /// Start of the counting interval (the recording start), with the device's UTC offset.
    public var startDate: ResultDate
    /// End of the counting interval, with the device's UTC offset.
    public var endDate: ResultDate
    /// Steps since `startDate` (cumulative), ≥ 0 when decoded from a file; walking analysis does not compare a
    /// negative final count with its own (a warning instead).
    public var numberOfSteps: Int
    /// Distance since `startDate`, m; nil when unavailable.
    public var distance: Double?
    /// Floors ascended since `startDate`; nil when unsupported.
    public var floorsAscended: Int?
    /// Floors descended since `startDate`; nil when unsupported.
    public var floorsDescended: Int?

    /// Creates a sample.
    public init(
        startDate: ResultDate, endDate: ResultDate, numberOfSteps: Int, distance: Double? = nil, floorsAscended: Int? = nil,
        floorsDescended: Int? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.numberOfSteps = numberOfSteps
        self.distance = distance
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
    }
}

/// One presentation of the legacy (pre-dB HL) tone audiometry task (`ORKToneAudiometrySample`,
/// MyDataHelps `Samples` cell). `amplitude` is a 0–1 digital amplitude, **not** dB HL.
public struct ToneAudiometrySample: Sendable, Hashable, Codable {
    /// Tone frequency, Hz.
    public var frequency: Double
    /// Ear the tone was played in: 0 left, 1 right.
    public var channel: Int
    /// Button pressed: 0 left, 1 right, −1 no press before the timeout.
    public var channelSelected: Int
    /// Linear peak amplitude (0…1 of full scale) at the press or timeout.
    public var amplitude: Double

    /// Creates a sample.
    public init(frequency: Double, channel: Int, channelSelected: Int, amplitude: Double) {
        self.frequency = frequency
        self.channel = channel
        self.channelSelected = channelSelected
        self.amplitude = amplitude
    }
}

/// A two-finger tapping recording from any dialect (ResearchKit `ORKTappingIntervalResult`, mPower
/// `TappingSamples`, MyDataHelps `SurveyTappingIntervalResults.csv`, a `t,x,y,buttonid` table).
public struct TappingRecording: Sendable, Hashable, Codable {
    /// Touch-downs in recorded order (not re-sorted: ordering problems are for the processor to report).
    public var samples: [TapSample]
    /// Left button frame (`buttonRect1`), points; nil when the source does not record it.
    public var leftButton: ViewRect?
    /// Right button frame (`buttonRect2`), points; nil when the source does not record it.
    public var rightButton: ViewRect?
    /// Size of the step's view, points; nil when unknown.
    public var viewSize: ViewSize?
    /// Step identifier (`tapping.left`, `tapping.right`, …) when known.
    public var stepIdentifier: String?
    /// When the step started and ended, when known.
    public var startDate: ResultDate?
    /// When the step ended, when known.
    public var endDate: ResultDate?
    /// Which record of a multi-record file this is, when the file holds several: MyDataHelps'
    /// `SurveyTappingIntervalResultKey` (else `SurveyResultKey`); nil otherwise.
    public var recordKey: String?

    /// Creates a recording.
    public init(
        samples: [TapSample], leftButton: ViewRect? = nil, rightButton: ViewRect? = nil, viewSize: ViewSize? = nil,
        stepIdentifier: String? = nil, startDate: ResultDate? = nil, endDate: ResultDate? = nil,
        recordKey: String? = nil
    ) {
        self.samples = samples
        self.leftButton = leftButton
        self.rightButton = rightButton
        self.viewSize = viewSize
        self.stepIdentifier = stepIdentifier
        self.startDate = startDate
        self.endDate = endDate
        self.recordKey = recordKey
    }
}
