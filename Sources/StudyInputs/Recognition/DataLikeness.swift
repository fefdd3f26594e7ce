import Foundation

/// Whether a file that failed to load looks like data at all: what lets a batch *skip* a licence, a README, a
/// ground-truth or participants table or a metadata JSON in a folder of downloads (with the reason, in
/// `skipped.csv`) instead of reporting it as a failed record, while a sensor file that needs an option stays an
/// error.
///
/// Only asked after a file failed, from its first ``sampleBytes`` bytes. A file is data (never skipped) when its
/// name says so (audio, ZIP, gzip, mPower and MyDataHelps names), when it is a table whose header a reader
/// recognises (MyDataHelps, mhealthtools) or whose header names acceleration axes (`x, y, …`, `acc_x`, …), a table
/// of at least ``minimumRows`` rows with at least ``minimumNumericColumns`` columns that are numbers in 90 % of
/// their rows (time and three axes, or three axes), a ResearchKit result, a
/// recorder log, a binary property list, or a JSON document with at least ``minimumJSONNumbers`` numbers.
/// Anything else — prose in a `.txt`, a short or mostly-text table, a small JSON object without `"_class"` or
/// `"items"`, an unknown binary file — is not data.
public enum DataLikeness {
    /// Bytes of the file looked at.
    public static let sampleBytes = 256 << 10
    /// Rows a table needs to look like sensor samples.
    public static let minimumRows = 10
    /// Numeric columns (every sampled row a number) a table needs to look like sensor samples.
    public static let minimumNumericColumns = 3
    /// Numbers a JSON document without ResearchKit or recorder markers needs to look like data.
    public static let minimumJSONNumbers = 100

    /// Why the file at `path` is not data (one phrase, for `skipped.csv`), or nil when it looks like data (or
    /// cannot be read: the error it gave stands).
    public static func notDataReason(path: String) -> String? {
        switch InputRecognizer.recognizeByName(path) {
        case .audio, .zipArchive, .mPower, .myDataHelpsMotion, .myDataHelpsJoinTable, .skipped:
            return nil
        case .table:
            if isGzipName(path) { return nil }
            guard let sample = head(path) else { return nil }
            return tableReason(sample, file: path)
        case .json:
            guard let sample = head(path) else { return nil }
            return jsonReason(sample, namedJSON: true)
        case nil:
            if isGzipName(path) { return nil }
            guard let sample = head(path) else { return nil }
            return jsonReason(sample, namedJSON: false)
        }
    }

    /// True for a `.gz` name (gzipped files are data by name: they were compressed on purpose).
    static func isGzipName(_ path: String) -> Bool { path.lowercased().hasSuffix(".gz") }

    /// The first ``sampleBytes`` of a regular file; nil when it cannot be read.
    static func head(_ path: String) -> Data? {
        guard FileTree.fileType(path) == .regular || FileTree.fileType(path) == .link,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: sampleBytes) ?? Data()
    }

    /// Why a table sample is not sensor data, or nil.
    static func tableReason(_ sample: Data, file: String) -> String? {
        if sample.isEmpty { return nil }  // an empty file: its error ("an empty (0-byte) file") stands
        if isBinary(sample) { return nil }  // a table extension with binary content: a damaged data file
        // Whole lines only: the sample may end inside one.
        var data = sample
        if sample.count == sampleBytes, let end = sample.lastIndex(of: 0x0A) { data = sample.prefix(end + 1) }
        let (dialect, first) = CSVDialect.detect(data)
        if InputRecognizer.recognizeTable(header: first) != .accelerometer { return nil }
        // A header naming acceleration axes says what the file means to be, whatever is left of its rows.
        let header = first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        if AccelerationColumnNames.accelerationColumns(in: header) != nil
            || header.filter({ AccelerationColumnNames.parse($0) != nil }).count >= 2
        {
            return nil
        }
        guard let table = try? CSVTable.parse(data, file: file, header: .present, ragged: .setAside, dialect: dialect)
        else {
            return "text, not a table: no delimiter gives its lines the same number of fields"
        }
        let numeric = numericColumns(table)
        // A header-less table's first record is data: count it.
        let rows = table.rowCount + (table.header.map { $0.allSatisfy { Double($0) != nil } } == true ? 1 : 0)
        let shapeOK = table.raggedRecords.count * 10 <= max(1, table.rowCount)
        if rows >= minimumRows && numeric >= minimumNumericColumns && shapeOK { return nil }
        let names = (table.header ?? []).prefix(6).map { $0.isEmpty ? "\"\"" : $0 }
        let columns =
            names.isEmpty
            ? "" : " (" + names.joined(separator: ", ") + (table.columnCount > names.count ? ", …" : "") + ")"
        if !shapeOK {
            return "text, not a table: \(table.raggedRecords.count) of \(table.rowCount) lines have another number "
                + "of fields than the first"
        }
        return "a table of \(rows) row\(rows == 1 ? "" : "s") and \(table.columnCount) column"
            + "\(table.columnCount == 1 ? "" : "s")\(columns), \(numeric) numeric: not sensor samples (at least "
            + "\(minimumRows) rows of \(minimumNumericColumns) numeric columns, e.g. time, x, y, z)"
    }

    /// Columns whose cells are numbers in at least 90 % of the (first 400) rows: a damaged row or two does not
    /// make a sensor table text.
    static func numericColumns(_ table: CSVTable) -> Int {
        let rows = min(table.rowCount, 400)
        guard rows > 0 else { return 0 }
        var count = 0
        for column in 0..<table.columnCount {
            var numbers = 0
            for row in 0..<rows where (try? table.number(row: row, column: column)) != nil { numbers += 1 }
            if numbers * 10 >= rows * 9 { count += 1 }
        }
        return count
    }

    /// Why a sample of a `.json` (or extension-less) file is not data, or nil.
    static func jsonReason(_ sample: Data, namedJSON: Bool) -> String? {
        if sample.isEmpty { return nil }
        if BinaryPropertyList.isBinaryPropertyList(sample) { return nil }
        let text = String(decoding: sample, as: UTF8.self)
        guard let first = text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }), first == "{" || first == "["
        else {
            // Named .json but not JSON: a damaged (or mis-saved) data file; its syntax error stands.
            if namedJSON { return nil }
            return isBinary(sample)
                ? "a binary file of an unknown format (neither JSON, a table, audio nor a ZIP archive)"
                : "a text file, neither JSON nor a table (tables are read from .csv, .tsv and .txt names)"
        }
        for marker in ["\"_class\"", "\"items\"", "\"TapTimeStamp\"", "\"TappingSamples\""] where text.contains(marker)
        {
            return nil
        }
        let numbers = numberCount(sample)
        if numbers >= minimumJSONNumbers { return nil }
        var keys = ""
        if let object = (try? JSONParser.parse(sample, file: ""))?.objectValue {
            let names = object.keys.prefix(6)
            keys = " (keys: " + names.joined(separator: ", ") + (object.keys.count > names.count ? ", …" : "") + ")"
        }
        return "JSON without ResearchKit \"_class\" tags or recorder \"items\", \(numbers) number"
            + "\(numbers == 1 ? "" : "s")\(keys): not a result or a recording"
    }

    /// Numbers in a JSON text (runs of digits not inside strings; a rough count, enough to tell data from
    /// metadata).
    static func numberCount(_ data: Data) -> Int {
        var count = 0
        var inString = false
        var escaped = false
        var inNumber = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                inNumber = false
                continue
            }
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            if digit && !inNumber { count += 1 }
            inNumber =
                digit
                || (inNumber
                    && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")))
        }
        return count
    }

    /// True when the sample holds NUL or other control bytes than tab, CR, LF, FF, or is not UTF-8.
    static func isBinary(_ sample: Data) -> Bool {
        if sample.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C }) {
            return true
        }
        // Cut at the last ASCII byte so a sample ending inside a multi-byte character still decodes.
        let end = sample.lastIndex(where: { $0 < 0x80 }).map { $0 + 1 } ?? sample.startIndex
        return String(data: sample.prefix(upTo: end), encoding: .utf8) == nil
    }
}
