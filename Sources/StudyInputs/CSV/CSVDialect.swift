import Foundation

/// How a delimited text table is written: its delimiter, the lines before its header, rows of labels (units) under
/// the header, and whether numbers use a decimal comma — as sensor exports write them (Shimmer/Consensys and XSens
/// TSV with preambles and unit rows, phyphox with a semicolon and decimal commas, Excel's `sep=` line).
///
/// ``detect(_:delimiter:skipLines:)`` decides what is not given from the first 256 KiB of the file:
/// - **`sep=` line**: a first line `sep=X` (Excel's; quoted or not) gives the delimiter and is skipped.
/// - **Delimiter**: of tab, semicolon, comma and `|`, the one that splits the lines into one number of fields
///   (two or more) most consistently — at least 90 % of the lines from the header on — with the most numeric
///   cells (a decimal comma counts as numeric for delimiters other than the comma); ties go to the comma, then in
///   that order. When none splits the lines, runs of spaces and tabs (``Delimiter/whitespace``) are tried.
/// - **Preamble**: the lines before the first line that has that number of fields and is followed by another
///   such line; they are skipped, kept in ``preamble``, and a sampling rate they state (`Acquisition frequency:
///   100 Hz`, `Sample rate: 100`, `fs = 50 Hz`) is ``statedRate``.
/// - **Label rows**: when the first record is a header (it has text where a later record has numbers), up to three
///   records right under it that hold no number at all while the record after them does (a units row such as
///   `ms  m/(s^2)  deg/s`, Shimmer's `CAL`/`RAW` row) are ``labelRows``: left out of the data, their cells kept
///   as labels of the columns (units are read from them).
/// - **Decimal comma**: with a delimiter other than the comma, when numbers are written `1,25` and none `1.25`.
public struct CSVDialect: Sendable, Hashable, Codable {
    /// What separates the fields of a record.
    public enum Delimiter: String, Sendable, Hashable, Codable, CaseIterable {
        /// `,` (RFC 4180).
        case comma
        /// A tab character (TSV).
        case tab
        /// `;` (spreadsheets of locales with a decimal comma).
        case semicolon
        /// `|`.
        case pipe
        /// One or more spaces or tabs; spaces at the start and end of a line are not fields.
        case whitespace

        /// The separating byte (a space for ``whitespace``, which also takes tabs).
        var byte: UInt8 {
            switch self {
            case .comma: UInt8(ascii: ",")
            case .tab: 0x09
            case .semicolon: UInt8(ascii: ";")
            case .pipe: UInt8(ascii: "|")
            case .whitespace: 0x20
            }
        }

        /// How `inspect` and messages name it.
        public var label: String {
            switch self {
            case .comma: "comma"
            case .tab: "tab"
            case .semicolon: "semicolon"
            case .pipe: "pipe (|)"
            case .whitespace: "spaces/tabs"
            }
        }

        /// The delimiter a `sep=` line or an option names: `,` `;` `|`, `\t` or `tab`, `comma`, `semicolon`,
        /// `pipe`, `whitespace` or `space`; nil otherwise.
        public init?(naming text: String) {
            switch text.lowercased() {
            case ",", "comma": self = .comma
            case "\t", "\\t", "tab": self = .tab
            case ";", "semicolon": self = .semicolon
            case "|", "pipe": self = .pipe
            case " ", "space", "spaces", "whitespace": self = .whitespace
            default: return nil
            }
        }
    }

    /// The field delimiter.
    public var delimiter: Delimiter = .comma
    /// True when numbers are written with a decimal comma (`9,81`); never with ``Delimiter/comma``.
    public var decimalComma = false
    /// Lines before the first record (the header, or the first data record): a `sep=` line and the preamble.
    public var skipLines = 0
    /// The skipped lines (at most 50 of them, each cut at 200 characters), for `inspect`.
    public var preamble: [String] = []
    /// True when the first line was Excel's `sep=X`.
    public var sepLine = false
    /// Records right under the header that hold no numbers (units, `CAL`/`RAW`); only with a header.
    public var labelRows = 0
    /// A sampling rate the preamble states, Hz.
    public var statedRate: Double?
    /// True when the delimiter was given (an option) rather than detected or named by a `sep=` line.
    public var delimiterGiven = false
    /// True when ``skipLines`` was given rather than detected.
    public var skipLinesGiven = false

    /// A comma-separated table that starts on its first line: RFC 4180, what every reader but the sensor-table
    /// reader expects.
    public static let comma = CSVDialect()

    /// Creates a dialect (every parameter has the comma-table default).
    public init(
        delimiter: Delimiter = .comma, decimalComma: Bool = false, skipLines: Int = 0, labelRows: Int = 0,
        statedRate: Double? = nil
    ) {
        self.delimiter = delimiter
        self.decimalComma = decimalComma && delimiter != .comma
        self.skipLines = max(0, skipLines)
        self.labelRows = max(0, labelRows)
        self.statedRate = statedRate
    }

    /// True when the table is written as RFC 4180 says, from its first line (no detection was needed).
    public var isPlainCSV: Bool { delimiter == .comma && skipLines == 0 && labelRows == 0 }

    /// One line of `inspect`: `tab-delimited, decimal comma, 12 preamble lines (rate 100 Hz), 1 label row`.
    public var summary: String {
        var parts = ["\(delimiter.label)-delimited" + (delimiterGiven ? " (given)" : "")]
        if decimalComma { parts.append("decimal comma") }
        if sepLine { parts.append("sep= line") }
        let preambleLines = skipLines - (sepLine ? 1 : 0)
        if preambleLines > 0 {
            parts.append(
                "\(preambleLines) preamble line\(preambleLines == 1 ? "" : "s") skipped"
                    + (skipLinesGiven ? " (given)" : ""))
        }
        if let statedRate { parts.append("stated rate \(ResultEncoding.number(statedRate, digits: 6)) Hz") }
        if labelRows > 0 { parts.append("\(labelRows) label row\(labelRows == 1 ? "" : "s") under the header") }
        return parts.joined(separator: ", ")
    }

    // MARK: Detection

    /// How many bytes of a file detection reads.
    static let sampleBytes = 256 << 10
    /// How many lines of the sample detection looks at.
    static let sampleLines = 400

    /// Detects what is not given (see the type's documentation).
    /// - Parameters:
    ///   - data: The file's bytes (gunzipped).
    ///   - delimiter: The delimiter, when the user gave it (`--delimiter`).
    ///   - skipLines: Lines to skip before the first record, when the user gave them (`--skip-lines`).
    /// - Returns: The dialect, and the cells of its first record (the header, when there is one) for recognising
    ///   the table.
    public static func detect(_ data: Data, delimiter: Delimiter? = nil, skipLines: Int? = nil) -> (
        dialect: CSVDialect, firstRecord: [String]
    ) {
        let sample = data.prefix(sampleBytes)
        var lines = splitLines([UInt8](sample), truncated: sample.count < data.count)
        if lines.count > sampleLines { lines.removeLast(lines.count - sampleLines) }
        var dialect = CSVDialect()
        var first = 0
        if let skipLines {
            first = min(skipLines, lines.count)
            dialect.skipLines = max(0, skipLines)
            dialect.skipLinesGiven = true
        }
        var named: Delimiter?
        if first < lines.count, let sep = sepLineDelimiter(lines[first]) {
            named = sep
            dialect.sepLine = true
            first += 1
            dialect.skipLines = first
        }
        let candidates: [Delimiter]
        if let delimiter {
            candidates = [delimiter]
            dialect.delimiterGiven = true
        } else if let named {
            candidates = [named]
        } else {
            candidates = [.comma, .tab, .semicolon, .pipe]
        }
        let fixedStart = dialect.skipLinesGiven ? first : nil
        var best: Layout?
        for candidate in candidates {
            guard let layout = Layout(lines, from: first, delimiter: candidate, fixedStart: fixedStart) else {
                continue
            }
            if best.map({ layout.isBetter(than: $0) }) ?? true { best = layout }
        }
        if best == nil, delimiter == nil, named == nil {
            best = Layout(lines, from: first, delimiter: .whitespace, fixedStart: fixedStart)
        }
        let chosen = best?.delimiter ?? candidates.first ?? .comma
        dialect.delimiter = chosen
        guard let layout = best else {
            let record = first < lines.count ? Layout.fields(lines[first], delimiter: chosen) : []
            return (dialect, record)
        }
        if !dialect.skipLinesGiven { dialect.skipLines = layout.start }
        dialect.decimalComma = chosen != .comma && layout.decimalComma
        dialect.labelRows = layout.labelRows
        let preamble = lines[min(dialect.sepLine ? 1 : 0, layout.start)..<layout.start]
        dialect.preamble = preamble.prefix(50).map { String(decoding: $0.prefix(200), as: UTF8.self) }
        dialect.statedRate = statedRate(in: dialect.preamble)
        return (dialect, layout.firstRecord)
    }

    /// The file's lines (CRLF, LF or a lone CR end one; a UTF-8 BOM is dropped), the last one left out when the
    /// sample was cut from a longer file.
    static func splitLines(_ bytes: [UInt8], truncated: Bool) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var i = start
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A || c == 0x0D {
                lines.append(bytes[start..<i])
                if c == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count && !truncated { lines.append(bytes[start...]) }
        return lines
    }

    /// The delimiter of Excel's `sep=X` line (`"sep=\t"`, `sep=;`), or nil when the line is not one.
    static func sepLineDelimiter(_ line: ArraySlice<UInt8>) -> Delimiter? {
        var text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        guard text.lowercased().hasPrefix("sep=") else { return nil }
        let rest = String(text.dropFirst(4))
        return Delimiter(naming: rest) ?? Delimiter(naming: rest.trimmingCharacters(in: .whitespaces))
    }

    /// A sampling rate stated by a preamble line: a number after `frequency`, `rate`, `fs` or before `Hz`.
    static func statedRate(in lines: [String]) -> Double? {
        for line in lines {
            let lower = line.lowercased()
            let keyed = ["frequency", "rate", "fs", "hz"].contains { lower.contains($0) }
            guard keyed, !lower.contains("bit rate"), !lower.contains("baud") else { continue }
            // The first number after the keyword (or anywhere, for `100 Hz`).
            let after =
                ["frequency", "rate", "fs"].compactMap { lower.range(of: $0)?.upperBound }.min() ?? lower.startIndex
            let tail = lower[after...]
            var number = ""
            var end = tail.startIndex
            for index in tail.indices {
                let character = tail[index]
                if character.isASCII && (character.isNumber || (character == "." && !number.isEmpty)) {
                    number.append(character)
                    end = tail.index(after: index)
                } else if !number.isEmpty {
                    break
                }
            }
            guard var value = Double(number), value > 0 else { continue }
            let unit = tail[end...].trimmingCharacters(in: .whitespaces)
            if unit.hasPrefix("khz") { value *= 1000 }
            let saysRate = lower.contains("frequency") || lower.contains("rate")
            guard unit.hasPrefix("hz") || unit.hasPrefix("khz") || !lower.contains("hz") || saysRate else { continue }
            if value <= 100_000 { return value }
        }
        return nil
    }

    /// How one delimiter splits the sample.
    struct Layout {
        var delimiter: Delimiter
        /// The most common number of fields (two or more).
        var fields: Int
        /// The line index of the first record.
        var start: Int
        /// Lines from `start` with `fields` fields, and all non-blank lines from `start`.
        var matching: Int
        var total: Int
        /// Share of data cells that are numbers.
        var numeric: Double
        var decimalComma: Bool
        var labelRows: Int
        var firstRecord: [String]

        init?(_ lines: [ArraySlice<UInt8>], from first: Int, delimiter: Delimiter, fixedStart: Int?) {
            self.delimiter = delimiter
            let split = lines.indices.map { $0 < first ? [] : Self.fields(lines[$0], delimiter: delimiter) }
            func blank(_ i: Int) -> Bool { lines[i].allSatisfy { $0 == 0x20 || $0 == 0x09 } }
            var tally: [Int: Int] = [:]
            for i in first..<lines.count where !blank(i) && split[i].count >= 2 {
                tally[split[i].count, default: 0] += 1
            }
            guard let (mode, _) = tally.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) })
            else { return nil }
            fields = mode
            // The first line of that width followed by another (or last): earlier lines are the preamble.
            var begin: Int? = fixedStart
            if begin == nil {
                let nonBlank = (first..<lines.count).filter { !blank($0) }
                for (k, i) in nonBlank.enumerated() where split[i].count == mode {
                    if k + 1 == nonBlank.count || split[nonBlank[k + 1]].count == mode {
                        begin = i
                        break
                    }
                }
            }
            guard var begin, begin < lines.count else { return nil }
            // A spreadsheet-padded preamble (`DeviceTag:,1,,,,,,,`) has the table's width but mostly empty cells:
            // when such lines come before a header (a line of that width, mostly filled, with no number), the
            // header starts the table. Data rows with missing values are never skipped: the line after them
            // would be a record with numbers, not a header.
            if fixedStart == nil {
                func filled(_ i: Int) -> Int { split[i].filter { Self.numberForm($0) != .blank }.count }
                func isSparse(_ i: Int) -> Bool { blank(i) || filled(i) * 2 < mode }
                if isSparse(begin),
                    let header = (begin + 1..<lines.count).first(where: { !isSparse($0) }),
                    split[header].count == mode,
                    split[header].allSatisfy({ [.text, .blank].contains(Self.numberForm($0)) })
                {
                    begin = header
                }
            }
            start = begin
            let rest = (begin..<lines.count).filter { !blank($0) }
            total = rest.count
            matching = rest.filter { split[$0].count == mode }.count
            guard total > 0, Double(matching) >= 0.9 * Double(total) else { return nil }
            firstRecord = split[begin]
            // Numbers in the data: a decimal comma is a number only for other delimiters.
            let rows = rest.dropFirst().map { split[$0] }
            var numbers = 0
            var cells = 0
            var commaNumbers = 0
            var pointNumbers = 0
            for row in rows {
                for cell in row {
                    cells += 1
                    switch Self.numberForm(cell) {
                    case .point:
                        numbers += 1
                        pointNumbers += 1
                    case .integer: numbers += 1
                    case .comma where delimiter != .comma:
                        numbers += 1
                        commaNumbers += 1
                    default: break
                    }
                }
            }
            numeric = cells == 0 ? 0 : Double(numbers) / Double(cells)
            decimalComma = commaNumbers > 0 && pointNumbers == 0
            // Label rows: under a header, records of no number while the record after them has one.
            labelRows = 0
            let isNumber: (String) -> Bool = { cell in
                switch Self.numberForm(cell) {
                case .point, .integer: true
                case .comma: delimiter != .comma
                case .text, .blank: false
                }
            }
            let header = firstRecord
            if rows.count >= 2, header.contains(where: { !isNumber($0) && Self.numberForm($0) != .blank }) {
                var k = 0
                while k < min(3, rows.count - 1), rows[k].count == mode, !rows[k].contains(where: isNumber) {
                    k += 1
                }
                if k > 0, rows[k].contains(where: isNumber) { labelRows = k }
            }
        }

        /// Better: more numeric data, then more lines in the table, then the earlier candidate (kept).
        func isBetter(than other: Layout) -> Bool {
            if abs(numeric - other.numeric) > 0.02 { return numeric > other.numeric }
            return matching > other.matching
        }

        /// The fields of one line (quotes respected; whitespace runs collapsed for ``Delimiter/whitespace``).
        static func fields(_ line: ArraySlice<UInt8>, delimiter: Delimiter) -> [String] {
            var out: [String] = []
            var current: [UInt8] = []
            var quoted = false
            var started = false
            let separator = delimiter.byte
            func isSeparator(_ c: UInt8) -> Bool {
                delimiter == .whitespace ? (c == 0x20 || c == 0x09) : c == separator
            }
            var i = line.startIndex
            while i < line.endIndex {
                let c = line[i]
                if quoted {
                    if c == UInt8(ascii: "\"") {
                        if i + 1 < line.endIndex, line[i + 1] == c {
                            current.append(c)
                            i += 1
                        } else {
                            quoted = false
                        }
                    } else {
                        current.append(c)
                    }
                } else if c == UInt8(ascii: "\"") && current.isEmpty {
                    quoted = true
                    started = true
                } else if isSeparator(c) {
                    if delimiter == .whitespace {
                        if started { out.append(String(decoding: current, as: UTF8.self)) }
                        while i + 1 < line.endIndex, isSeparator(line[i + 1]) { i += 1 }
                        current = []
                        started = false
                    } else {
                        out.append(String(decoding: current, as: UTF8.self))
                        current = []
                    }
                } else {
                    current.append(c)
                    started = true
                }
                i += 1
            }
            if delimiter != .whitespace || started { out.append(String(decoding: current, as: UTF8.self)) }
            return out
        }

        enum NumberForm { case integer, point, comma, text, blank }

        /// Whether a cell is a number, and how its decimals are written.
        static func numberForm(_ cell: String) -> NumberForm {
            let text = cell.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return .blank }
            var digits = 0
            var points = 0
            var commas = 0
            var exponent = false
            for (k, c) in text.utf8.enumerated() {
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
                case UInt8(ascii: "."): points += 1
                case UInt8(ascii: ","): commas += 1
                case UInt8(ascii: "-"), UInt8(ascii: "+"):
                    if k != 0 && !exponent { return .text }
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    if exponent || digits == 0 { return .text }
                    exponent = true
                default: return .text
                }
            }
            guard digits > 0, points + commas <= 1 else { return .text }
            return points == 1 ? .point : commas == 1 ? .comma : .integer
        }
    }
}
