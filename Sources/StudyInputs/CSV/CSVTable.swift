import Foundation

/// A CSV document parsed per RFC 4180, kept as byte ranges into one buffer so that numeric columns can be
/// converted without creating a `String` per cell.
///
/// Accepted syntax (for ``CSVDialect/comma``, the default; another ``CSVDialect`` changes the delimiter, skips a
/// preamble, sets label rows aside in ``labelRecords`` and reads decimal commas):
/// - fields separated by `,`; records end with CRLF, LF or a lone CR (mixed endings are fine);
/// - fields may be quoted with `"`; inside quotes a doubled `""` is one quote, and commas and line breaks are
///   part of the field; after a closing quote only `,`, a line end or the end of the file may follow;
/// - a `"` inside an *unquoted* field is kept literally (as Python's `csv` and R's `read.csv` do);
/// - a UTF-8 byte-order mark is skipped; entirely empty lines (outside quotes) are skipped;
/// - every record must have the same number of fields (a "ragged" record is an error);
/// - the text must be UTF-8 without control characters other than tab, CR and LF (anything else is reported
///   as binary data).
///
/// Positions in errors are `line L, column C`: `L` is the 1-based line on which the record (or, for a quote
/// that never closes, the quoted field) starts, and `C` is the 1-based **field number** within the record,
/// not a character offset. Rows (``rowCount``, `row:` parameters) are 0-based data rows, header excluded.
///
/// Memory: the file's bytes plus 17 bytes per cell. Parsing is one pass over the bytes.
public struct CSVTable: Sendable {
    /// Whether the first record is a header of column names.
    public enum HeaderMode: Sendable, Hashable, Codable {
        /// The first record names the columns.
        case present
        /// Every record is data.
        case absent
        /// Decide from the first two records: the first is a header when some column holds a non-empty,
        /// non-numeric cell in record 1 and a number in record 2 (or, for a one-record file, when any of its
        /// cells is non-numeric).
        case detect
    }

    /// The file name used in errors.
    public let file: String
    /// Column names from the header record, when there is one (doubled quotes undone, text as written).
    public let header: [String]?
    /// The line the header record is on, when there is one.
    public let headerLine: Int?
    /// Number of fields in every record.
    public let columnCount: Int

    /// The document's bytes (BOM included; offsets index this array).
    let bytes: [UInt8]
    /// Per cell, record-major (header cells first when there is a header): content start offset.
    let starts: [Int]
    /// Per cell: content end offset (exclusive; closing quote excluded).
    let ends: [Int]
    /// Per cell: the content holds doubled quotes to undo.
    let escaped: [Bool]
    /// Per data row: the line it starts on.
    let rowLines: [Int]
    /// Index of the first data cell in `starts`/`ends`.
    let firstDataCell: Int
    /// True when numbers are written with a decimal comma (``CSVDialect/decimalComma``).
    var decimalComma = false
    /// How the table is written (``CSVDialect``; ``CSVDialect/comma`` unless a reader detected another).
    public internal(set) var dialect = CSVDialect.comma
    /// The cells of the label rows under the header (``CSVDialect/labelRows``: units, `CAL`/`RAW`), in order.
    public internal(set) var labelRecords: [[String]] = []

    /// Number of data rows (the header excluded).
    public var rowCount: Int { rowLines.count }
    /// Records left out because their number of fields differs from the first record's (only with
    /// ``RaggedRecords/setAside``), each an error naming its line.
    public internal(set) var raggedRecords: [(line: Int, error: InputError)] = []

    // MARK: Reading

    /// Reads and parses the CSV file at `path`; gzip files (`.csv.gz`) are decompressed transparently.
    /// - Parameters:
    ///   - path: the file; also the name used in errors.
    ///   - header: whether the first record is a header.
    /// - Throws: ``InputError``: `.unreadable` for a missing file, `.syntax` for malformed CSV (with
    ///   `line L, column C`), an empty file or corrupt gzip data.
    public static func read(path: String, header: HeaderMode = .present, ragged: RaggedRecords = .fail)
        throws(InputError) -> CSVTable
    {
        try parse(try DialectFiles.read(path: path), file: path, header: header, ragged: ragged)
    }

    /// What a record with another number of fields than the first does.
    public enum RaggedRecords: Sendable, Hashable {
        /// Fails the whole file (a table of one recording: a broken row breaks the recording).
        case fail
        /// Is left out of the rows and listed in ``raggedRecords`` (a table of many participants: one broken row
        /// fails only itself).
        case setAside
    }

    /// Parses CSV text held in memory.
    /// - Parameters:
    ///   - data: the CSV bytes (UTF-8).
    ///   - file: the name used in errors.
    ///   - header: whether the first record is a header.
    /// - Throws: ``InputError`` of kind `.syntax`: unterminated quote, text after a closing quote, ragged
    ///   record, binary data (control bytes or invalid UTF-8), or an empty file.
    ///   - dialect: How the table is written (``CSVDialect/detect(_:delimiter:skipLines:)``); the default is RFC
    ///     4180 from the first line. Its label rows, when it has any, follow a header, which `header` cannot
    ///     then deny.
    public static func parse(
        _ data: Data, file: String, header: HeaderMode = .present, ragged: RaggedRecords = .fail,
        dialect: CSVDialect = .comma
    ) throws(InputError) -> CSVTable {
        let bytes = [UInt8](data)
        let scanned: Result<CSVScan, InputError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = CSVScanner(bytes: buffer, file: file)
            scanner.setsAsideRagged = ragged == .setAside
            scanner.delimiter = dialect.delimiter.byte
            scanner.whitespace = dialect.delimiter == .whitespace
            scanner.skip(lines: dialect.skipLines)
            do throws(InputError) {
                try scanner.scan()
                return .success(scanner.result)
            } catch {
                return .failure(error)
            }
        }
        let scan = try scanned.get()
        guard scan.columnCount > 0 else {
            throw InputError(
                .syntax, file: file, location: nil, expected: "CSV text",
                found: bytes.isEmpty ? "an empty (0-byte) file" : "no records (only blank lines)")
        }
        var table = CSVTable(
            file: file, header: nil, headerLine: nil, columnCount: scan.columnCount, bytes: bytes,
            starts: scan.starts, ends: scan.ends, escaped: scan.escaped, rowLines: scan.recordLines, firstDataCell: 0)
        table.decimalComma = dialect.decimalComma
        let labelRows = min(dialect.labelRows, max(0, scan.recordLines.count - 1))
        let hasHeader: Bool
        switch header {
        case _ where labelRows > 0: hasHeader = true
        case .present: hasHeader = true
        case .absent: hasHeader = false
        case .detect: hasHeader = table.firstRecordLooksLikeHeader()
        }
        if hasHeader {
            let n = scan.columnCount
            let names = (0..<n).map { table.string(cell: $0) }
            let labels = (1..<(1 + labelRows)).map { row in (0..<n).map { table.string(cell: row * n + $0) } }
            table = CSVTable(
                file: file, header: names, headerLine: scan.recordLines[0], columnCount: n,
                bytes: bytes, starts: scan.starts, ends: scan.ends, escaped: scan.escaped,
                rowLines: Array(scan.recordLines.dropFirst(1 + labelRows)), firstDataCell: n * (1 + labelRows))
            table.decimalComma = dialect.decimalComma
            table.labelRecords = labels
        }
        table.dialect = dialect
        table.dialect.labelRows = table.labelRecords.count
        table.raggedRecords = scan.ragged
        return table
    }

    /// The header rule of ``HeaderMode/detect``, applied before any record is taken as a header.
    private func firstRecordLooksLikeHeader() -> Bool {
        let records = rowLines.count
        for c in 0..<columnCount {
            if cellNumber(cell: c) != nil || isBlank(cell: c) { continue }
            if records == 1 { return true }
            if cellNumber(cell: columnCount + c) != nil { return true }
        }
        return false
    }

    // MARK: Columns

    /// The index of the column named `name`: an exact match first, then one ignoring case and surrounding
    /// spaces; nil when there is no header or no such column.
    public func columnIndex(named name: String) -> Int? {
        guard let header else { return nil }
        if let exact = header.firstIndex(of: name) { return exact }
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        return header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == wanted }
    }

    /// The index of the first column named by any of `names` (each matched as in ``columnIndex(named:)``).
    public func columnIndex(namedAnyOf names: [String]) -> Int? {
        for name in names { if let c = columnIndex(named: name) { return c } }
        return nil
    }

    /// Resolves a column selector to a 0-based index.
    /// - Throws: ``InputError`` of kind `.schema` at the header line when a named column is missing or the file
    ///   has no header, or when an index is beyond the last column.
    public func columnIndex(_ selector: CSVColumnSelector) throws(InputError) -> Int {
        switch selector {
        case .index(let i):
            guard i >= 0, i < columnCount else {
                throw InputError(
                    .schema, file: file, location: "line \(headerLine ?? rowLines.first ?? 1)",
                    expected: "a column \(i + 1) (index \(i))", found: "\(columnCount) columns")
            }
            return i
        case .name(let name):
            guard header != nil else {
                throw InputError(
                    .schema, file: file, location: "line \(rowLines.first ?? 1)",
                    expected: "a header naming column \"\(name)\"",
                    found: "no header row", message: "select columns by index for header-less files")
            }
            guard let c = columnIndex(named: name) else { throw missingColumn([name]) }
            return c
        }
    }

    /// The index of the first column named by any of `names`, or an error naming the columns the file has.
    /// - Throws: ``InputError`` of kind `.schema` at the header line.
    public func requireColumn(namedAnyOf names: [String]) throws(InputError) -> Int {
        if let c = columnIndex(namedAnyOf: names) { return c }
        throw missingColumn(names)
    }

    func missingColumn(_ names: [String]) -> InputError {
        let wanted = names.map { "\"\($0)\"" }.joined(separator: " or ")
        let have = (header ?? []).map { "\"\($0)\"" }.joined(separator: ", ")
        return InputError(
            .schema, file: file, location: "line \(headerLine ?? 1)", expected: "a column named \(wanted)",
            found: header == nil ? "no header row" : "columns \(have)", message: "missing required column")
    }

    /// The display name of column `c`: its header name, or `column N` (1-based) without a header.
    public func columnName(_ c: Int) -> String {
        if let header, c < header.count { return header[c] }
        return "column \(c + 1)"
    }

    // MARK: Cells

    /// The line data row `row` starts on.
    public func line(ofRow row: Int) -> Int { rowLines[row] }

    /// `line L, column C` of a data cell (column 1-based, counted in fields).
    public func location(row: Int, column: Int) -> String { "line \(rowLines[row]), column \(column + 1)" }

    /// The cell's text, doubled quotes undone, spaces kept.
    public func string(row: Int, column: Int) -> String { string(cell: cellIndex(row, column)) }

    /// True when the cell is empty or only spaces and tabs.
    public func isBlank(row: Int, column: Int) -> Bool { isBlank(cell: cellIndex(row, column)) }

    /// The cell as a finite number (surrounding spaces allowed).
    /// - Throws: ``InputError`` of kind `.schema` at the cell: empty, `NA`, `NaN`/`inf` text, or not a number.
    public func number(row: Int, column: Int) throws(InputError) -> Double {
        if let v = cellNumber(cell: cellIndex(row, column)) { return v }
        throw numberError(row: row, column: column)
    }

    /// The whole column as finite numbers, in row order; one pass, no intermediate strings.
    /// - Throws: ``InputError`` of kind `.schema` at the first cell that is not a finite number.
    public func numbers(column: Int) throws(InputError) -> [Double] {
        if let values = numbersIfAllNumeric(column: column) { return values }
        for row in 0..<rowCount where cellNumber(cell: cellIndex(row, column)) == nil {
            throw numberError(row: row, column: column)
        }
        return []  // unreachable: some cell failed above
    }

    /// The whole column as numbers, or nil when some cell is not a finite number.
    public func numbersIfAllNumeric(column: Int) -> [Double]? {
        precondition(column >= 0 && column < columnCount, "column \(column) of \(columnCount)")
        let n = rowCount
        let stride = columnCount
        let base = firstDataCell + column
        return starts.withUnsafeBufferPointer { starts in
            ends.withUnsafeBufferPointer { ends in
                bytes.withUnsafeBufferPointer { b -> [Double]? in
                    var ok = true
                    let values = [Double](unsafeUninitializedCapacity: n) { out, count in
                        var k = base
                        for row in 0..<n {
                            guard let v = Self.parseNumber(b, starts[k], ends[k], decimalComma: decimalComma) else {
                                ok = false
                                count = row
                                return
                            }
                            out.initializeElement(at: row, to: v)
                            k += stride
                        }
                        count = n
                    }
                    return ok ? values : nil
                }
            }
        }
    }

    /// The cell parsed as JSON.
    /// - Throws: ``InputError`` of kind `.syntax` when the cell is not JSON, located as
    ///   `line L, column C, cell <JSON path> (line l, column c)` where the inner position is within the cell.
    public func json(row: Int, column: Int) throws(InputError) -> JSONValue {
        let k = cellIndex(row, column)
        let text = string(cell: k)
        do {
            return try JSONParser.parse(Data(text.utf8), file: file)
        } catch {
            var e = error
            e.location = location(row: row, column: column) + ", cell " + (error.location ?? "$")
            if e.message == nil { e.message = "cell \"\(columnName(column))\" does not hold valid JSON" }
            throw e
        }
    }

    /// A date-time cell: nil when the column is absent or the cell blank; ISO 8601 with a UTC offset otherwise.
    /// - Throws: ``InputError`` at the cell when it holds something else.
    public func date(row: Int, column: Int?) throws(InputError) -> ResultDate? {
        guard let column, !isBlank(row: row, column: column) else { return nil }
        let text = string(row: row, column: column).trimmingCharacters(in: .whitespaces)
        guard let date = ResultDate(text) else {
            throw cellError(
                row: row, column: column, expected: "an ISO 8601 date-time with a UTC offset",
                found: quoted(row: row, column: column))
        }
        return date
    }

    /// An error about a value inside a JSON cell: located `line L, column C, cell <path>`.
    func cellError(
        row: Int, column: Int, path: String, expected: String?, found: String?, message: String? = nil
    ) -> InputError {
        InputError(
            .schema, file: file, location: location(row: row, column: column) + ", cell " + path, expected: expected,
            found: found, message: message)
    }

    /// An error about a whole cell: located `line L, column C`.
    func cellError(row: Int, column: Int, expected: String?, found: String?, message: String? = nil) -> InputError {
        InputError(
            .schema, file: file, location: location(row: row, column: column), expected: expected, found: found,
            message: message)
    }

    /// A short quoted rendering of a cell for error messages.
    func quoted(row: Int, column: Int) -> String {
        let s = string(row: row, column: column)
        return "'\(s.count > 40 ? String(s.prefix(40)) + "…" : s)'"
    }

    private func numberError(row: Int, column: Int) -> InputError {
        let text = string(row: row, column: column).trimmingCharacters(in: .whitespaces)
        let found: String
        switch text.lowercased() {
        case "": found = "an empty cell"
        case "na", "null", "none": found = "'\(text)' (a missing value)"
        case "nan", "-nan", "+nan", "inf", "-inf", "+inf", "infinity", "-infinity", "+infinity":
            found = "'\(text)' (not a finite number)"
        default:
            let parsed = bytes.withUnsafeBufferPointer { b in
                DecimalParser.parse(
                    UnsafeBufferPointer(rebasing: b[starts[cellIndex(row, column)]..<ends[cellIndex(row, column)]]))
            }
            found =
                parsed.map { !$0.isFinite } == true ? "'\(text)' (beyond ±1.8e308)" : quoted(row: row, column: column)
        }
        let name = header == nil ? "" : " in column \"\(columnName(column))\""
        return InputError(
            .schema, file: file, location: location(row: row, column: column), expected: "a finite number\(name)",
            found: found)
    }

    @inline(__always) private func cellIndex(_ row: Int, _ column: Int) -> Int {
        precondition(
            row >= 0 && row < rowCount && column >= 0 && column < columnCount, "cell (\(row), \(column)) out of range")
        return firstDataCell + row * columnCount + column
    }

    private func string(cell k: Int) -> String {
        let slice = bytes[starts[k]..<ends[k]]
        guard escaped[k] else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var i = slice.startIndex
        while i < slice.endIndex {
            out.append(bytes[i])
            i += bytes[i] == UInt8(ascii: "\"") ? 2 : 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func isBlank(cell k: Int) -> Bool {
        bytes[starts[k]..<ends[k]].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    private func cellNumber(cell k: Int) -> Double? {
        bytes.withUnsafeBufferPointer { Self.parseNumber($0, starts[k], ends[k], decimalComma: decimalComma) }
    }

    /// A finite number spanning `start..<end` apart from surrounding spaces and tabs, or nil; with `decimalComma`,
    /// one `,` is the decimal separator (and a `.` is not a number).
    @inline(__always)
    static func parseNumber(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, decimalComma: Bool = false)
        -> Double?
    {
        var s = start
        var e = end
        while s < e, b[s] == 0x20 || b[s] == 0x09 { s += 1 }
        while e > s, b[e - 1] == 0x20 || b[e - 1] == 0x09 { e -= 1 }
        guard s < e else { return nil }
        if decimalComma { return parseDecimalComma(b, s, e) }
        guard let (v, stop) = DecimalParser.scan(b, from: s), stop == e, v.isFinite else { return nil }
        return v
    }

    /// A number written with a decimal comma (`-9,81`, `1,5e-3`): the comma read as a point, in a copy of at most
    /// 64 bytes (longer cells are not numbers).
    static func parseDecimalComma(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Double? {
        let count = e - s
        guard count <= 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { copy -> Double? in
            var commas = 0
            for k in 0..<count {
                let c = b[s + k]
                if c == UInt8(ascii: ".") { return nil }
                if c == UInt8(ascii: ",") { commas += 1 }
                copy[k] = c == UInt8(ascii: ",") ? UInt8(ascii: ".") : c
            }
            guard commas <= 1, let (v, stop) = DecimalParser.scan(UnsafeBufferPointer(copy), from: 0), stop == count,
                v.isFinite
            else { return nil }
            return v
        }
    }
}

/// Selects a CSV column by 0-based index or by header name.
public enum CSVColumnSelector: Sendable, Hashable, Codable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The column at this 0-based index (the first column is 0).
    case index(Int)
    /// The column whose header is this name (exact, else ignoring case and surrounding spaces).
    case name(String)

    /// `3` selects index 3.
    public init(integerLiteral value: Int) { self = .index(value) }
    /// `"x"` selects the column named x.
    public init(stringLiteral value: String) { self = .name(value) }

    /// `column 4` (1-based) or `"x"`.
    public var description: String {
        switch self {
        case .index(let i): "column \(i + 1)"
        case .name(let n): "\"\(n)\""
        }
    }
}

/// The record boundaries found by ``CSVScanner``.
struct CSVScan {
    var starts: [Int] = []
    var ends: [Int] = []
    var escaped: [Bool] = []
    var recordLines: [Int] = []
    var columnCount = 0
    /// Records with another number of fields than the first, set aside (``CSVTable/RaggedRecords/setAside``).
    var ragged: [(line: Int, error: InputError)] = []
}

/// One pass over CSV bytes, recording cell ranges and validating syntax, UTF-8 and record widths.
struct CSVScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var result = CSVScan()
    var index = 0
    var line = 1
    /// Set aside records of another width instead of failing the file.
    var setsAsideRagged = false
    /// The field separator (``CSVDialect/Delimiter``).
    var delimiter = UInt8(ascii: ",")
    /// Runs of spaces and tabs separate fields (``CSVDialect/Delimiter/whitespace``); `delimiter` is then a space.
    var whitespace = false

    /// Starts the scan after `lines` lines (a preamble), counting them.
    mutating func skip(lines: Int) {
        let n = bytes.count
        if index == 0, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        var skipped = 0
        while skipped < lines, index < n {
            let c = bytes[index]
            if c == 0x0A || c == 0x0D {
                consumeLineEnd()
                skipped += 1
            } else {
                index += 1
            }
        }
    }

    /// True for a byte that separates fields.
    @inline(__always) func isSeparator(_ c: UInt8) -> Bool {
        c == delimiter || (whitespace && c == 0x09)
    }

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
        let estimate = max(16, bytes.count / 8)
        result.starts.reserveCapacity(estimate)
        result.ends.reserveCapacity(estimate)
        result.escaped.reserveCapacity(estimate)
    }

    mutating func scan() throws(InputError) {
        let n = bytes.count
        if index == 0, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < n {
            // Skip empty lines between records (and, between fields separated by whitespace, leading blanks).
            if whitespace {
                while index < n, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                if index >= n { break }
            }
            let c = bytes[index]
            if c == 0x0A || c == 0x0D {
                consumeLineEnd()
                continue
            }
            try scanRecord()
        }
    }

    /// Consumes CRLF, LF or CR at the cursor and counts the line.
    @inline(__always) mutating func consumeLineEnd() {
        if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
        index += 1
        line += 1
    }

    mutating func scanRecord() throws(InputError) {
        let n = bytes.count
        let recordLine = line
        let firstCell = result.starts.count
        var fields = 0
        while true {
            fields += 1
            if index < n, bytes[index] == UInt8(ascii: "\"") {
                try scanQuoted(field: fields)
            } else {
                try scanUnquoted(recordLine: recordLine, field: fields)
            }
            if index >= n { break }
            let c = bytes[index]
            if whitespace, c == 0x20 || c == 0x09 {
                // A run of blanks separates two fields, unless the line (or the file) ends after it.
                while index < n, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                if index >= n { break }
                if bytes[index] == 0x0A || bytes[index] == 0x0D {
                    consumeLineEnd()
                    break
                }
                continue
            }
            if c == delimiter {
                index += 1
                if index >= n {
                    // A trailing comma at the end of the file: one more, empty, field.
                    fields += 1
                    append(start: n, end: n, escaped: false)
                    break
                }
                continue
            }
            consumeLineEnd()  // c is CR or LF: the scanners stop only there
            break
        }
        if result.recordLines.isEmpty {
            result.columnCount = fields
        } else if fields != result.columnCount {
            let column = fields > result.columnCount ? result.columnCount + 1 : fields + 1
            let error = InputError(
                .syntax, file: file, location: "line \(recordLine), column \(column)",
                expected: "\(result.columnCount) fields, as in line \(result.recordLines[0])",
                found: "\(fields) fields",
                message: "ragged record")
            guard setsAsideRagged else { throw error }
            result.starts.removeSubrange(firstCell...)
            result.ends.removeSubrange(firstCell...)
            result.escaped.removeSubrange(firstCell...)
            result.ragged.append((recordLine, error))
            return
        }
        result.recordLines.append(recordLine)
    }

    @inline(__always) mutating func append(start: Int, end: Int, escaped: Bool) {
        result.starts.append(start)
        result.ends.append(end)
        result.escaped.append(escaped)
    }

    /// An unquoted field: up to `,`, CR, LF or the end; control bytes and invalid UTF-8 are errors.
    @inline(__always) mutating func scanUnquoted(recordLine: Int, field: Int) throws(InputError) {
        let start = index
        let n = bytes.count
        while index < n {
            let c = bytes[index]
            if isSeparator(c) || c == 0x0A || c == 0x0D { break }
            if c >= 0x20 && c < 0x7F {
                index += 1
                continue
            }
            try checkByte(line: recordLine, field: field)
        }
        append(start: start, end: index, escaped: false)
    }

    /// A quoted field starting at the opening quote.
    mutating func scanQuoted(field: Int) throws(InputError) {
        let openLine = line
        index += 1
        let start = index
        let n = bytes.count
        var escaped = false
        while true {
            guard index < n else {
                throw InputError(
                    .syntax, file: file, location: "line \(openLine), column \(field)", expected: "a closing quote",
                    found: "end of file", message: "unterminated quoted field")
            }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                if index + 1 < n, bytes[index + 1] == UInt8(ascii: "\"") {
                    escaped = true
                    index += 2
                    continue
                }
                break
            }
            if c == 0x0A || (c == 0x0D && !(index + 1 < n && bytes[index + 1] == 0x0A)) {
                line += 1
                index += 1
            } else if c >= 0x20 && c < 0x7F || c == 0x09 || c == 0x0D {
                index += 1
            } else {
                try checkByte(line: line, field: field)
            }
        }
        append(start: start, end: index, escaped: escaped)
        index += 1  // closing quote
        if index < n {
            let c = bytes[index]
            guard isSeparator(c) || c == 0x0A || c == 0x0D else {
                let named = delimiter == 0x09 ? "a tab" : "'\(Character(UnicodeScalar(delimiter)))'"
                let separator = whitespace ? "a space" : named
                throw InputError(
                    .syntax, file: file, location: "line \(line), column \(field)",
                    expected: "\(separator) or a line end after the closing quote", found: describe(at: index))
            }
        }
    }

    /// Validates the non-ASCII or control byte at the cursor and steps over its UTF-8 sequence; tab passes.
    mutating func checkByte(line: Int, field: Int) throws(InputError) {
        let c = bytes[index]
        if c == 0x09 {
            index += 1
            return
        }
        func fail(_ what: String) -> InputError {
            InputError(
                .syntax, file: file, location: "line \(line), column \(field)", expected: "UTF-8 CSV text",
                found: what, message: "binary data, not a text CSV file")
        }
        if c < 0x20 || c == 0x7F { throw fail(String(format: "control byte 0x%02X", c)) }
        // UTF-8 sequence: lead byte and its continuation count (overlong 2-byte leads and > U+10FFFF rejected).
        let length: Int
        switch c {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: throw fail(String(format: "byte 0x%02X (not UTF-8)", c))
        }
        guard index + length <= bytes.count else { throw fail(String(format: "byte 0x%02X (truncated UTF-8)", c)) }
        for k in 1..<length where bytes[index + k] & 0xC0 != 0x80 {
            throw fail(String(format: "byte 0x%02X (not UTF-8)", c))
        }
        index += length
    }

    func describe(at i: Int) -> String {
        let end = min(bytes.count, i + 20)
        var k = i
        while k < end, bytes[k] != 0x0A, bytes[k] != 0x0D { k += 1 }
        return "'" + String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<k]), as: UTF8.self) + "'"
    }
}
