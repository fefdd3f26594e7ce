// The dB HL calibration reference values for AudiometryCalibrationTests, read from
// Reference/audiometry_calibration.json (written by Tools/reference/audiometry_calibration_reference.py from the
// tables of researchkit-formats.md §4.6–4.7; see Reference/README.md).

import TestSupport

/// Expected calibration values, computed from the spec text alone: one entry per (release, headphone type).
///
/// Every value is a decimal string, exact as the spec's arithmetic gives it; the tests read it with
/// `Decimal(string:)`.
enum AudiometryCalibrationReference {
    /// Per frequency: RETSPL R, sensitivity S, ceiling S + V(1.0) + 30 − 1 − R, attenuation at 30 dB HL (dB).
    struct Row { let f: Double; let r: String; let s: String; let ceiling: String; let attenuation30: String }
    /// (version, type, suffix, curve, rows); suffix nil when ResearchKit throws for the type.
    struct Case { let version: String; let type: String; let suffix: String?; let curve: String?; let rows: [Row] }

    /// The file's layout: per case one column per row field, one value per entry of `frequencies` (none when
    /// `suffix` is null).
    private struct File: Decodable {
        struct Case: Decodable {
            var version, type: String
            var suffix, curve: String?
            var r, s, ceiling, attenuation30: [String]
        }
        var frequencies: [Double]
        var cases: [Case]
        var volumeCurves, derivedCeilings: [String: [String]]
    }

    private static let file = loadReference(File.self, "audiometry_calibration.json")

    /// The audiometric frequencies of the tables, Hz.
    static let frequencies = file.frequencies

    static let cases: [Case] = file.cases.map { c in
        let count = c.suffix == nil ? 0 : file.frequencies.count
        guard [c.r, c.s, c.ceiling, c.attenuation30].allSatisfy({ $0.count == count }) else {
            fatalError("audiometry_calibration.json: \(c.type) \(c.version) has not \(count) values per column")
        }
        let rows = (0..<count).map { i in
            Row(f: file.frequencies[i], r: c.r[i], s: c.s[i], ceiling: c.ceiling[i], attenuation30: c.attenuation30[i])
        }
        return Case(version: c.version, type: c.type, suffix: c.suffix, curve: c.curve, rows: rows)
    }

    /// Volume-curve offsets, dB, per curve at the 16 keys 0.0625 … 1.0000.
    static let volumeCurves = file.volumeCurves

    /// The spec's own derived clipping-ceiling table (HEAD), headphone row label → 11 values, dB HL.
    static let derivedCeilings = file.derivedCeilings
}
