import Foundation

/// Date-times written as text in a sensor table's time column, read as Unix seconds: ISO 8601
/// (`2025-12-02T11:00:00.020+01:00`, a space for `T`, `Z`, or no offset) and MATLAB's default `datetime` text
/// (`02-Dec-2025 11:00:00.020`, what `writetimetable` writes for a MATLAB Mobile sensor log).
///
/// A date-time without a UTC offset is read as UTC: only the differences between samples matter to the analyses,
/// and a reader says so in a note (a daylight-saving change inside such a recording would show as a gap).
public enum DateTimeText {
    /// English month abbreviations as MATLAB writes them.
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` writes, Unix seconds, and whether it states its UTC offset; nil for other text.
    public static func seconds(_ text: String) -> (seconds: Double, hasOffset: Bool)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = ResultDate(trimmed) { return (date.date.timeIntervalSince1970, true) }
        // No offset: as UTC.
        if trimmed.utf8.count >= 19, let date = ResultDate(trimmed + "Z") {
            return (date.date.timeIntervalSince1970, false)
        }
        // MATLAB: dd-MMM-yyyy HH:mm:ss[.SSS]
        let b = Array(trimmed.utf8)
        guard b.count >= 20, b[2] == UInt8(ascii: "-"), b[6] == UInt8(ascii: "-"), b[11] == UInt8(ascii: " ") else {
            return nil
        }
        let month = String(decoding: b[3..<6], as: UTF8.self).lowercased()
        guard let m = months.firstIndex(of: month) else { return nil }
        let iso =
            String(decoding: b[7..<11], as: UTF8.self) + "-" + (m < 9 ? "0" : "") + String(m + 1) + "-"
            + String(decoding: b[0..<2], as: UTF8.self) + "T" + String(decoding: b[12...], as: UTF8.self) + "Z"
        return ResultDate(iso).map { ($0.date.timeIntervalSince1970, false) }
    }

    /// Every cell of column `column` as an instant, or nil when some cell is not a date-time (or the column holds
    /// numbers); `hasOffsets` is false when some cell states no UTC offset.
    static func column(_ table: CSVTable, _ column: Int) -> (seconds: [Double], hasOffsets: Bool)? {
        guard table.rowCount > 0, (try? table.number(row: 0, column: column)) == nil else { return nil }
        var values = [Double](repeating: 0, count: table.rowCount)
        var offsets = true
        for row in 0..<table.rowCount {
            guard let (s, hasOffset) = seconds(table.string(row: row, column: column)) else { return nil }
            values[row] = s
            offsets = offsets && hasOffset
        }
        return (values, offsets)
    }
}
