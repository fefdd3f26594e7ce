import Foundation

/// Reads a flattened device-motion table (the layout of mhealthtools' `walk_data` exported to CSV) into a
/// ``DeviceMotionLog``.
///
/// Columns, matched by header name ignoring case (extra columns ignored):
/// - `timestamp` (also `t`), s;
/// - user acceleration `ua_x, ua_y, ua_z`, g (gravity removed);
/// - gravity `g_x, g_y, g_z`, g;
/// - rotation rate `rr_x, rr_y, rr_z`, rad/s;
/// - attitude quaternion `att_x, att_y, att_z, att_w`;
/// - optional magnetic field `mf_x, mf_y, mf_z` (µT) and `mf_accuracy` (all three axes or none).
///
/// Each short prefix may also be spelled out with `_` or `.`: `userAcceleration_x`, `gravity.y`,
/// `rotationRate_z`, `attitude_w`, `magneticField_x`. Rows keep file order.
public enum MHealthToolsDeviceMotionTable {
    /// Reads the CSV (or `.csv.gz`) file at `path`.
    /// - Throws: ``InputError``: CSV syntax (`.syntax`), a missing column or non-numeric cell (`.schema`, at
    ///   `line L, column C`).
    public static func read(path: String) throws(InputError) -> DeviceMotionLog {
        try decode(try CSVTable.read(path: path, header: .present))
    }

    /// Decodes CSV bytes held in memory; `file` names them in errors.
    public static func decode(_ data: Data, file: String) throws(InputError) -> DeviceMotionLog {
        try decode(try CSVTable.parse(data, file: file, header: .present))
    }

    /// Decodes a parsed table (which must have a header).
    public static func decode(_ table: CSVTable) throws(InputError) -> DeviceMotionLog {
        func names(_ short: String, _ long: String, _ axis: String) -> [String] {
            ["\(short)_\(axis)", "\(long)_\(axis)", "\(long).\(axis)"]
        }
        func vector(_ short: String, _ long: String) throws(InputError) -> Vector3Series {
            Vector3Series(
                x: try table.numbers(column: try table.requireColumn(namedAnyOf: names(short, long, "x"))),
                y: try table.numbers(column: try table.requireColumn(namedAnyOf: names(short, long, "y"))),
                z: try table.numbers(column: try table.requireColumn(namedAnyOf: names(short, long, "z"))))
        }
        let timestamp = try table.numbers(column: try table.requireColumn(namedAnyOf: ["timestamp", "t"]))
        let userAcceleration = try vector("ua", "userAcceleration")
        let gravity = try vector("g", "gravity")
        let rotationRate = try vector("rr", "rotationRate")
        let attitude = try vector("att", "attitude")
        let w = try table.numbers(column: try table.requireColumn(namedAnyOf: names("att", "attitude", "w")))
        var magneticField: Vector3Series?
        var accuracy: [Double]?
        if table.columnIndex(namedAnyOf: names("mf", "magneticField", "x")) != nil {
            magneticField = try vector("mf", "magneticField")
            if let c = table.columnIndex(namedAnyOf: names("mf", "magneticField", "accuracy")) {
                accuracy = try table.numbers(column: c)
            }
        }
        return DeviceMotionLog(
            timestamp: timestamp, timestampSince1970: nil, userAcceleration: userAcceleration, gravity: gravity,
            rotationRate: rotationRate, attitude: attitude, attitudeW: w, magneticField: magneticField,
            magneticFieldAccuracy: accuracy)
    }
}
