// R's stats::ar / spec.ar, pracma and seewave results, read from Reference/kinematic.json (written by
// Tools/reference/kinematic_reference.R; see Reference/README.md).

import TestSupport

/// R's `ar(x)` (Yule-Walker, AIC) and `spec.ar(x, n.freq = 500)` for one series.
struct ARReferenceCase: Sendable, CustomStringConvertible, Decodable {
    var name: String
    var input: [Double]
    var order: Int
    var coefficients: [Double]
    var predictionVariance: Double
    var maximumOrder: Int
    var aic: [Double]
    /// `spec.ar(x, n.freq = 500, plot = FALSE)$spec` at 1-based indices 1, 2, 100, 250, 499, 500.
    var spectrum: [Double]
    var description: String { name }
}

/// pracma / seewave results for one vector.
struct PracmaReferenceCase: Sendable, CustomStringConvertible, Decodable {
    var name: String
    var input: [Double]
    var mode: Double
    var roughness: Double
    var rugo: Double
    /// `trapz(seq_along(x) / 7, x)`.
    var trapz: Double
    /// `findpeaks(x, minpeakheight = 0.1 * max(x), npeaks = 3, sortstr = TRUE)`: values and 1-based positions.
    var peakValues: [Double]
    var peakPositions: [Int]
    var description: String { name }
}

enum KinematicReference {
    private struct File: Decodable {
        var spectrumIndices: [Int]
        var arCases: [ARReferenceCase]
        var pracmaCases: [PracmaReferenceCase]
    }

    private static let file = loadReference(File.self, "kinematic.json")
    static let spectrumIndices = file.spectrumIndices
    static let arCases = file.arCases
    static let pracmaCases = file.pracmaCases
}
