import Foundation
import StudyInputs

/// Writes dB HL results as ResearchKit's serializer does (`ORKESerializer`, `researchkit-formats.md` §1.2):
/// `_class` on every object, keys sorted, nil properties omitted, dates `yyyy-MM-dd'T'HH:mm:ssZ` (offset
/// `±hhmm`), "no threshold" as `DBL_MAX` (1.7976931348623157e+308).
public enum DBHLResultWriter {
    /// One result as compact JSON text (no trailing newline).
    public static func json(_ result: ResearchKit.DBHLToneAudiometryResult) -> String {
        var fields: [(String, String)] = [
            ("_class", string("ORKdBHLToneAudiometryResult")),
            ("identifier", string(result.header.identifier)),
            ("outputVolume", number(result.outputVolume)),
            ("postStimulusDelay", number(result.postStimulusDelay)),
            ("tonePlaybackDuration", number(result.tonePlaybackDuration)),
            ("samples", "[" + result.samples.map(sample).joined(separator: ",") + "]"),
        ]
        if let h = result.headphoneType { fields.append(("headphoneType", string(h))) }
        if let d = result.header.startDate { fields.append(("startDate", string(date(d)))) }
        if let d = result.header.endDate { fields.append(("endDate", string(date(d)))) }
        return object(fields)
    }

    static func sample(_ s: ResearchKit.DBHLToneAudiometryFrequencySample) -> String {
        object([
            ("_class", string("ORKdBHLToneAudiometryFrequencySample")),
            ("calculatedThreshold", number(s.calculatedThreshold ?? .greatestFiniteMagnitude)),
            ("channel", String(s.channel.rawValue)),
            ("frequency", number(s.frequency)),
            ("units", "[" + s.units.map(unit).joined(separator: ",") + "]"),
        ])
    }

    static func unit(_ u: ResearchKit.DBHLToneAudiometryUnit) -> String {
        object([
            ("_class", string("ORKdBHLToneAudiometryUnit")),
            ("dBHLValue", number(u.dBHLValue)),
            ("preStimulusDelay", number(u.preStimulusDelay)),
            ("startOfUnitTimeStamp", number(u.startOfUnitTimeStamp)),
            ("timeoutTimeStamp", number(u.timeoutTimeStamp)),
            ("userTapTimeStamp", number(u.userTapTimeStamp)),
        ])
    }

    /// `{…}` with the keys sorted (bytewise, as `NSJSONWritingSortedKeys` does for ASCII keys).
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
            .map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// Integers without a fraction, other values in Swift's shortest round-trip form; non-finite values are
    /// clamped to ±`DBL_MAX` as `ORKForceDoubleToLimits` does.
    static func number(_ x: Double) -> String {
        var v = x
        if v.isNaN { v = -.greatestFiniteMagnitude } else if v.isInfinite { v = v > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// ResearchKit's date form, e.g. `2024-05-02T10:20:00+0200` (whole seconds).
    static func date(_ d: ResultDate) -> String {
        let whole = ResultDate(date: Date(timeIntervalSince1970: d.timeIntervalSince1970.rounded(.down)), utcOffset: d.utcOffset)
        var text = whole.description
        if text.hasSuffix("Z") {
            text.removeLast()
            return text + "+0000"
        }
        let colon = text.index(text.endIndex, offsetBy: -3)
        text.remove(at: colon)
        return text
    }
}
