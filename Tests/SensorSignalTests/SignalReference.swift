// scipy reference values for the Signal/ module tests, read from Reference/signal.json (written by
// Tools/reference/signal_reference.py; see Reference/README.md).

import SensorSignal
import TestSupport

/// One `scipy.signal.find_peaks` call and its result; `nil` properties were not returned by scipy.
struct PeakReferenceCase: Sendable, CustomStringConvertible, Decodable {
    var name: String
    var signal: String
    var height: PeakBounds? = nil
    var threshold: PeakBounds? = nil
    var distance: Int? = nil
    var prominence: PeakBounds? = nil
    var width: PeakBounds? = nil
    var windowLength: Int? = nil
    var relativeHeight: Double = 0.5
    var plateauSize: PeakBounds? = nil
    var indices: [Int]
    var heights: [Double]? = nil
    var leftThresholds: [Double]? = nil
    var rightThresholds: [Double]? = nil
    var plateauSizes: [Int]? = nil
    var leftEdges: [Int]? = nil
    var rightEdges: [Int]? = nil
    var prominences: [Double]? = nil
    var leftBases: [Int]? = nil
    var rightBases: [Int]? = nil
    var widths: [Double]? = nil
    var widthHeights: [Double]? = nil
    var leftIntersections: [Double]? = nil
    var rightIntersections: [Double]? = nil
    var description: String { name }
}

/// A find_peaks interval argument as scipy takes it, `[low, high]` with `null` for an open end.
extension PeakBounds: Decodable {
    /// Decodes `[low, high]`.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init(minimum: try c.decode(Double?.self), maximum: try c.decode(Double?.self))
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "an interval has two borders")
        }
    }
}

/// One `scipy.signal.resample_poly(polySignal, up, down)` call and its output.
struct PolyReferenceCase: Sendable, CustomStringConvertible, Decodable {
    var up: Int
    var down: Int
    var output: [Double]
    var description: String { "\(up)/\(down)" }
}

enum SignalReference {
    private struct File: Decodable {
        var plateaus, ties, tiesMixed, formula: [Double]
        var peakCases: [PeakReferenceCase]
        var polySignal: [Double]
        var polyCases: [PolyReferenceCase]
        var firwin41, kaiser9, besselI0Arguments, besselI0Values: [Double]
    }

    private static let file = loadReference(File.self, "signal.json")
    /// Plateaus, a flat valley, a plateau rising into a peak, edges.
    static let plateaus = file.plateaus
    static let ties = file.ties
    static let tiesMixed = file.tiesMixed
    /// x[i] = sin(2πi/16) + 0.6·sin(2πi/5.3 + 0.5) + 0.25·cos(2πi/2.7), i = 0..<32, rounded to 6 decimals.
    static let formula = file.formula

    static func signal(named name: String) -> [Double] {
        switch name {
        case "plateaus": plateaus
        case "ties": ties
        case "tiesMixed": tiesMixed
        default: formula
        }
    }

    static let peakCases = file.peakCases

    /// r[n] = sin(2π·0.06·n) + 0.4·cos(2π·0.17·n + 0.3), n = 0..<16, rounded to 6 decimals.
    static let polySignal = file.polySignal

    static let polyCases = file.polyCases

    /// `firwin(41, 0.5, window=("kaiser", 5.0))`: resample_poly's filter for max(up, down) = 2, before × up.
    static let firwin41 = file.firwin41
    /// `scipy.signal.windows.kaiser(9, 5.0)` (symmetric).
    static let kaiser9 = file.kaiser9
    /// `scipy.special.i0` at `besselI0Arguments`.
    static let besselI0Arguments = file.besselI0Arguments
    static let besselI0Values = file.besselI0Values
}
