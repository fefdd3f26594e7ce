/// The layout of the Oxford step-counter validation files, recognised in a header-less table only when the data
/// leaves no doubt, so that those files are read without options while any other wide header-less table must have
/// its columns chosen.
///
/// The layout (`timestamp_ns_since_boot, accx, accy, accz, steps_algo, steps_ground_truth, steps_hw_counter`) is
/// recognised when **all** of these hold:
/// - exactly 7 columns, no header, at least 2 rows, every cell a number;
/// - column 1 (time) holds whole numbers that never decrease and end above where they start;
/// - columns 2–4 (acceleration) are not all whole numbers;
/// - columns 5–7 (cumulative step counters) hold whole numbers ≥ 0 that never decrease.
///
/// The file is then read with the default columns (time 1, x 2, y 3, z 4) and the other three as extra columns;
/// units are detected as for any file.
enum OxfordLayout {
    /// Whether `table` has the layout (see the type's documentation).
    ///
    /// Reads columns 1–7 once each.
    static func matches(_ table: CSVTable) -> Bool {
        guard table.header == nil, table.columnCount == 7, table.rowCount >= 2 else { return false }
        guard let time = table.numbersIfAllNumeric(column: 0), isWholeAndNonDecreasing(time),
            let first = time.first, let last = time.last, last > first
        else { return false }
        for column in 1...3 {
            guard let values = table.numbersIfAllNumeric(column: column),
                values.contains(where: { $0 != $0.rounded() })
            else { return false }
        }
        for column in 4...6 {
            guard let values = table.numbersIfAllNumeric(column: column), isWholeAndNonDecreasing(values),
                let least = values.first, least >= 0
            else { return false }
        }
        return true
    }

    /// True when every value is a whole number and none is below the one before it.
    static func isWholeAndNonDecreasing(_ values: [Double]) -> Bool {
        var previous = -Double.infinity
        for value in values {
            guard value == value.rounded(), value >= previous else { return false }
            previous = value
        }
        return true
    }
}
