import Foundation
import SensorSignal

/// A wall-clock timestamp as ResearchKit writes it, keeping the device's UTC offset.
///
/// ResearchKit's serializer writes `yyyy-MM-dd'T'HH:mm:ssZ` (e.g. `2019-05-27T00:35:06-0700`); other
/// exporters add fractional seconds, a colon in the offset (`+02:00`) or `Z`. All of these parse; the
/// offset is kept so local time of day (relevant to diurnal analyses) is not lost.
public struct ResultDate: Sendable, Hashable, Codable, TextCodable, Comparable {
    /// The absolute instant.
    public var date: Date
    /// The writer's offset from UTC, seconds (east positive).
    public var utcOffset: Int

    /// Creates a date from an instant and an offset.
    public init(date: Date, utcOffset: Int) {
        self.date = date
        self.utcOffset = utcOffset
    }

    /// Parses ISO-8601 date-times with an offset: `2019-05-27T00:35:06-0700`, `…-07:00`, `…Z`,
    /// optional fractional seconds, and a space instead of `T`. Returns nil for anything else,
    /// including dates without an offset (their instant would be ambiguous).
    public init?(_ text: String) {
        let b = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var v = 0
            for k in start..<(start + count) {
                let d = Int(b[k]) - 48
                guard (0...9).contains(d) else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard b.count >= 20, let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
            b[7] == UInt8(ascii: "-"), let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2), b[16] == UInt8(ascii: ":"),
            let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, let d = digits(i, 1) {
                fraction += Double(d) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = digits(i + 1, 2) else { return nil }
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ":") { i += 1 }
            guard let om = digits(i, 2) else { return nil }
            i += 2
            guard oh <= 18, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        date = Date(timeIntervalSince1970: local - Double(offset))
        utcOffset = offset
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    public var timeIntervalSince1970: Double { date.timeIntervalSince1970 }

    /// ISO-8601 text with the original offset, e.g. `2019-05-27T00:35:06-07:00`
    /// (fractional seconds only when present). Years are four digits, as every reader of the format expects: a
    /// date outside 0000…9999 (only a program can make one; inputs are parsed with four-digit years) is written as
    /// the nearest end of that range.
    public var description: String {
        let local = date.timeIntervalSince1970 + Double(utcOffset)
        let whole = Int.clamped(local.rounded(.down), to: -62_167_219_200...253_402_300_799)
        var days = whole / 86_400
        var secondsOfDay = whole % 86_400
        if secondsOfDay < 0 {
            secondsOfDay += 86_400
            days -= 1
        }
        let (y, m, d) = Self.civilFromDays(days)
        let fraction = min(max(local - Double(whole), 0), 0.999_999)
        var text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", y, m, d, secondsOfDay / 3600, secondsOfDay / 60 % 60,
            secondsOfDay % 60)
        if fraction > 5e-7 { text += String(format: ".%06d", Int((fraction * 1e6).rounded())).replacingOccurrences(of: "0+$", with: "", options: .regularExpression) }
        let a = abs(utcOffset)
        text += utcOffset == 0 ? "Z" : String(format: "%@%02d:%02d", utcOffset < 0 ? "-" : "+", a / 3600, a / 60 % 60)
        return text
    }

    public static func < (a: ResultDate, b: ResultDate) -> Bool { a.date < b.date }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`); `month` 1…12.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day number since 1970-01-01 (Hinnant's `civil_from_days`).
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The date in MORK's `date_time_entered` form, `yyyy-MM-dd'T'HH:mm:ss`: the device's local time (this date's
    /// UTC offset applied), 24-hour clock, whole seconds, no offset. (MORK itself formats with `hh`, a 12-hour clock
    /// without AM/PM; taskproc writes the 24-hour hour.)
    public var morkText: String { String(description.prefix(19)) }

    /// The date in ResearchKit's serialisation form `yyyy-MM-dd'T'HH:mm:ssZ` (`ORKESerializer`), e.g.
    /// `2017-03-09T16:48:43-0800`: the device's local time, whole seconds, the UTC offset as `±HHMM`.
    public var researchKitText: String {
        let offset = abs(utcOffset)
        let sign = utcOffset < 0 ? "-" : "+"
        let hours = offset / 3600
        let minutes = (offset % 3600) / 60
        return morkText + sign + (hours < 10 ? "0" : "") + String(hours) + (minutes < 10 ? "0" : "") + String(minutes)
    }

    /// What ``TextCodable``'s decoding error calls a string it cannot read.
    package static let textDescription = "an ISO-8601 date with offset"
}

/// A value that is written and read as its text (``CustomStringConvertible/description`` and `init?(_:)`): one
/// `Codable` implementation for dates, versions and the like.
package protocol TextCodable: Codable, CustomStringConvertible {
    /// Parses the text; nil when it is not one.
    init?(_ text: String)
    /// What a valid text is, for the decoding error (`a ResearchKit version`).
    static var textDescription: String { get }
}

extension TextCodable {
    /// Encodes as ``description``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// Decodes from text.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not \(Self.textDescription): \(text)")
        }
        self = value
    }
}
