import Foundation
import StudyInputs

/// Why a dB HL level cannot be converted to dB SPL or digital level.
public enum AudiometryCalibrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The result names no headphone type (absent or empty `headphoneType`).
    case missingHeadphoneType
    /// The headphone type has no calibration tables in this ResearchKit version (ResearchKit would throw).
    case unknownHeadphoneType(String, version: ResearchKitVersion)
    /// The version has no dB HL task (before 2.0.0).
    case unsupportedVersion(ResearchKitVersion)
    /// The frequency (formatted `%.0f`, as ResearchKit looks it up) is not a key of the tables.
    case frequencyNotInTables(frequency: Double, table: String)
    /// The system volume is below the lowest volume-curve key (0.0625), so no offset is defined.
    case volumeBelowCurve(outputVolume: Double)
    /// The output volume is not a number in 0…1.
    case invalidVolume(Double)
    /// The level, dB HL, is NaN or infinite.
    case invalidLevel(Double)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .missingHeadphoneType:
            return "the result names no headphone type, so dB HL cannot be converted to dB SPL"
        case .unknownHeadphoneType(let t, let v):
            let known = HeadphoneCalibration.supportedTypes(version: v).joined(separator: ", ")
            return "headphone type \"\(t)\" has no calibration tables in ResearchKit \(v) (known: \(known))"
        case .unsupportedVersion(let v):
            return "ResearchKit \(v) has no dB HL task (it appeared in 2.0.0)"
        case .frequencyNotInTables(let f, let table):
            return "\(ResultEncoding.number(f)) Hz is not in the \(table) calibration tables (they hold "
                + HeadphoneCalibrationTables.frequencies.map(String.init).joined(separator: ", ") + " Hz)"
        case .volumeBelowCurve(let v):
            return "output volume \(ResultEncoding.number(v)) is below the lowest volume-curve entry (0.0625)"
        case .invalidVolume(let v):
            return "output volume \(v) is not a number in 0…1"
        case .invalidLevel(let l):
            return l.isFinite
                ? "level \(l) dB HL is outside ±1000000 dB HL" : "level \(l) dB HL is not a finite number"
        }
    }
}

/// The calibration ResearchKit used for one headphone type in one release (`ORKdBHLToneAudiometryAudioGenerator`).
///
/// ResearchKit's formula (`researchkit-formats.md` §4.6), with S = `frequency_dBSPL`, R = `retspl`, V = volume
/// curve, all in dB:
///
///     attenuation(f, HL) = (R(f) + HL) − (S(f) + V(v) + 30)        digital peak level, dBFS
///     clipping when attenuation ≥ −1 dB  ⇒  ceiling(f) = S(f) + V(v) + 30 − 1 − R(f)   (dB HL)
///     SPL(f, HL) = R(f) + HL                                        (dB SPL, by construction)
///
/// Arithmetic is in `Decimal` from the plists' strings, like ResearchKit's `NSDecimalNumber`.
public struct HeadphoneCalibration: Sendable, Hashable {
    /// The headphone type as written in the result.
    public let headphoneType: String
    /// The release whose tables are used.
    public let version: ResearchKitVersion
    /// The `retspl_`/`frequency_dBSPL_` suffix used.
    public let tableSuffix: String
    /// The `volume_curve_` name used.
    public let volumeCurve: String
    /// True when the RETSPL is the generic pre-3.2 table rather than the device-specific one.
    public var usesGenericRETSPL: Bool { !version.hasDeviceSpecificRETSPL }

    /// Selects the tables ResearchKit `version` used for `headphoneType` (upper-cased first, §4.6).
    /// - Throws: ``AudiometryCalibrationError`` when the type is missing or unknown to that release.
    public init(headphoneType: String?, version: ResearchKitVersion = .current) throws(AudiometryCalibrationError) {
        guard version >= .firstDBHL else { throw .unsupportedVersion(version) }
        let raw = headphoneType?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !raw.isEmpty else { throw .missingHeadphoneType }
        guard let (suffix, curve) = Self.tables(for: raw.uppercased(), version: version) else {
            throw .unknownHeadphoneType(raw, version: version)
        }
        self.headphoneType = raw
        self.version = version
        tableSuffix = suffix
        volumeCurve = curve
    }

    /// The (table suffix, volume curve) of an upper-cased type, or nil when the release throws for it.
    static func tables(for type: String, version: ResearchKitVersion) -> (String, String)? {
        if version.usesVerbatimTableNames {
            // 2.0.x: the type string itself names the tables; AIRPODS uses its curve, everything else WIRED.
            // AIRPODSV2 tables only appeared in 3.2.0.
            guard HeadphoneCalibrationTables.tableSuffixes.contains(type), type != "AIRPODSV2" else { return nil }
            return (type, type == "AIRPODS" ? "AIRPODS" : "WIRED")
        }
        switch type {
        case "AIRPODSV1": return ("AIRPODS", "AIRPODS")
        case "AIRPODSV2": return version.hasDeviceSpecificRETSPL ? ("AIRPODSV2", "AIRPODSV2") : ("AIRPODS", "AIRPODS")
        case "AIRPODSV3", "AIRPODSPRO", "AIRPODSMAX": return (type, type)
        case "AIRPODSPROV2":
            // The 3.0 tag lacks this branch and throws.
            return version.major == 3 && version.minor == 0 ? nil : (type, type)
        case "EARPODS": return ("EARPODS", "WIRED")
        default: return nil
        }
    }

    /// The headphone types `version` accepts.
    public static func supportedTypes(version: ResearchKitVersion) -> [String] {
        HeadphoneCalibrationTables.headphoneTypes.filter { tables(for: $0, version: version) != nil }
    }

    /// Index of `frequency` in the tables, looked up as ResearchKit does (formatted `%.0f`).
    public func tableIndex(frequency: Double) throws(AudiometryCalibrationError) -> Int {
        let key = frequency.isFinite ? Int(String(format: "%.0f", frequency)) : nil
        guard let key, let i = HeadphoneCalibrationTables.frequencies.firstIndex(of: key) else {
            throw .frequencyNotInTables(frequency: frequency, table: tableSuffix)
        }
        return i
    }

    /// RETSPL R(f) of this release, dB SPL.
    public func retspl(frequency: Double) throws(AudiometryCalibrationError) -> Decimal {
        let i = try tableIndex(frequency: frequency)
        let row = usesGenericRETSPL ? HeadphoneCalibrationTables.genericRETSPL : HeadphoneCalibrationTables.retspl[tableSuffix]!
        return Decimal(string: row[i])!
    }

    /// Output sensitivity S(f): SPL of a −30 dBFS tone at the reference volume, dB SPL.
    public func outputSensitivity(frequency: Double) throws(AudiometryCalibrationError) -> Decimal {
        let i = try tableIndex(frequency: frequency)
        return Decimal(string: HeadphoneCalibrationTables.frequencyDBSPL[tableSuffix]![i])!
    }

    /// The system volume quantised down to 1/16 (`⌊v / 0.0625⌋ × 0.0625`).
    public static func quantize(_ outputVolume: Double) -> Double { (outputVolume / 0.0625).rounded(.towardZero) * 0.0625 }

    /// The volume key this release used in the curve lookup for a system volume (§4.6): the quantised volume
    /// before 3.1.0; from 3.1.0 on 1.0 whenever the quantised volume is ≥ 0.0625, else 0.0625.
    /// - Throws: ``AudiometryCalibrationError/invalidVolume(_:)``; before 3.1.0 also
    ///   ``AudiometryCalibrationError/volumeBelowCurve(outputVolume:)`` for volumes under 0.0625.
    public func lookupVolume(outputVolume: Double) throws(AudiometryCalibrationError) -> Double {
        guard outputVolume.isFinite, (0...1).contains(outputVolume) else { throw .invalidVolume(outputVolume) }
        let q = Self.quantize(outputVolume)
        if version.hasVolumeDefect { return q >= 0.0625 ? 1 : 0.0625 }
        guard q >= 0.0625 else { throw .volumeBelowCurve(outputVolume: outputVolume) }
        return q
    }

    /// Volume-curve offset V(v), dB, for a volume key (a multiple of 1/16 in 0.0625…1; other volumes are
    /// quantised down first).
    public func volumeOffset(volume: Double) throws(AudiometryCalibrationError) -> Decimal {
        guard volume.isFinite, (0...1).contains(volume) else { throw .invalidVolume(volume) }
        let k = Int((volume / 0.0625).rounded(.towardZero))
        guard k >= 1 else { throw .volumeBelowCurve(outputVolume: volume) }
        return Decimal(string: HeadphoneCalibrationTables.volumeCurves[volumeCurve]![k - 1])!
    }

    /// Digital peak level of a tone at `level` dB HL, dBFS: (R + HL) − (S + V(lookupVolume) + 30).
    public func attenuation(frequency: Double, level: Double, lookupVolume: Double = 1) throws(AudiometryCalibrationError)
        -> Decimal
    {
        guard level.isFinite else { throw .invalidLevel(level) }
        let r = try retspl(frequency: frequency)
        let s = try outputSensitivity(frequency: frequency)
        let v = try volumeOffset(volume: lookupVolume)
        return (r + Decimal.exact(level)) - (s + v + Decimal(HeadphoneCalibrationTables.dBFSCalibration))
    }

    /// Whether ResearchKit refuses the tone as clipping (attenuation ≥ −1 dB).
    public func clips(frequency: Double, level: Double, lookupVolume: Double = 1) throws(AudiometryCalibrationError)
        -> Bool
    {
        try attenuation(frequency: frequency, level: level, lookupVolume: lookupVolume) >= -1
    }

    /// The level at which clipping starts, dB HL: S + V(lookupVolume) + 30 − 1 − R. Levels at or above it are
    /// refused.
    public func clippingCeiling(frequency: Double, lookupVolume: Double = 1) throws(AudiometryCalibrationError)
        -> Decimal
    {
        let r = try retspl(frequency: frequency)
        let s = try outputSensitivity(frequency: frequency)
        let v = try volumeOffset(volume: lookupVolume)
        return s + v + Decimal(HeadphoneCalibrationTables.dBFSCalibration) - 1 - r
    }

    /// The SPL ResearchKit aimed for at `level` dB HL: R(f) + HL, dB SPL.
    /// - Throws: ``AudiometryCalibrationError/invalidLevel(_:)`` for a non-finite level (fuzz finding: it trapped
    ///   in `Decimal(Double)`), or the frequency's table errors.
    public func spl(frequency: Double, level: Double) throws(AudiometryCalibrationError) -> Decimal {
        guard level.isFinite, level.magnitude <= 1e6 else { throw .invalidLevel(level) }
        return try retspl(frequency: frequency) + Decimal.exact(level)
    }

    /// How the release handled the system volume `outputVolume` (the volume defect, §4.6).
    public func volumeHandling(outputVolume: Double) -> VolumeHandling {
        VolumeHandling(calibration: self, outputVolume: outputVolume)
    }
}

extension Decimal {
    /// The decimal written by `value`'s shortest round-trip text (so 101.41 is exactly 101.41, not the binary
    /// neighbour `Decimal(Double)` gives).
    /// Magnitudes below 10⁻¹⁰⁰ (subnormal doubles such as 5e-324, which `Decimal`'s exponent cannot hold: it gave
    /// NaN and failed the record) are 0; NaN never comes out of a finite `value`.
    static func exact(_ value: Double) -> Decimal {
        guard value.isFinite else { return .nan }
        if value.magnitude < 1e-100 { return .zero }
        if let decimal = Decimal(string: "\(value)"), !decimal.isNaN { return decimal }
        return Decimal(value)
    }

    /// The nearest `Double` (parsed from the decimal text; `NSDecimalNumber.doubleValue` can be off by an ulp).
    var doubleValue: Double { Double(description) ?? NSDecimalNumber(decimal: self).doubleValue }
}
