// R's EMD and splinefun results, read from Reference/emd.json and Reference/emd/ (written by
// Tools/reference/emd_reference.R; see Reference/README.md).

import TestSupport

/// R's `EMD::emd(x, times, max.imf = maximumIMFs)` for one signal (every other argument at its default).
struct EMDReferenceCase: Sendable, CustomStringConvertible {
    var name: String
    var maximumIMFs: Int
    /// `$nimf`.
    var imfCount: Int
    var x: [Double]
    /// Sample times (s for the recording).
    var times: [Double]
    /// The columns of `$imf` (none when it is NULL).
    var imfs: [[Double]]
    /// `$residue`.
    var residue: [Double]
    var description: String { name }
}

/// R's `splinefun(x, y)(points)` (method "fmm", ties = mean).
struct SplineReferenceCase: Sendable, CustomStringConvertible, Decodable {
    var name: String
    var x: [Double]
    var y: [Double]
    var points: [Double]
    var values: [Double]
    var description: String { name }
}

enum EMDReference {
    /// `emd.json`: the EMD case names in order, and the spline cases.
    private struct Index: Decodable {
        var emdCases: [String]
        var splineCases: [SplineReferenceCase]
    }

    /// `emd/<name>-signal.json`: one case's input (a case is two files, each well under the 64 KB limit).
    private struct Signal: Decodable {
        var x: [Double]
        var times: [Double]
    }

    /// `emd/<name>.json`: one case's call and R's result.
    private struct Decomposition: Decodable {
        var name: String
        var maximumIMFs: Int
        var imfCount: Int
        var imfs: [[Double]]
        var residue: [Double]
    }

    private static let index = loadReference(Index.self, "emd.json")

    static let emdCases: [EMDReferenceCase] = index.emdCases.map { name in
        let signal = loadReference(Signal.self, "emd/\(name)-signal.json")
        let result = loadReference(Decomposition.self, "emd/\(name).json")
        return EMDReferenceCase(
            name: result.name, maximumIMFs: result.maximumIMFs, imfCount: result.imfCount, x: signal.x,
            times: signal.times, imfs: result.imfs, residue: result.residue)
    }

    static let splineCases = index.splineCases
}
