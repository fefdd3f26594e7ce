public import SensorSignal

extension AccelerometerLog {
    /// Names of the value channels in reports: the three axes.
    static let hygieneChannelNames = ["x", "y", "z"]

    /// This log with its rows put in order (see ``TimeSeriesHygiene``), plus a ``QualityReport``.
    ///
    /// Rows are ordered by ``timestamp`` (s since boot). A row counts as an exact duplicate when its `timestamp`
    /// and its `x`, `y`, `z` (g) all equal the kept row's; ``timestampSince1970``, a second clock derived from
    /// the first at log time, follows the selection but does not decide it, and so does ``rotationRate`` (dropped when
    /// its length is not the log's). ``unit`` is kept as declared.
    ///
    /// The report's ``QualityReport/units`` holds the median |a| = √(x² + y² + z²) of the cleaned rows (raw
    /// acceleration includes gravity, so ≈ 1 in g, ≈ 9.81 in m/s²); a warning is added when it contradicts
    /// ``unit`` or is neither.
    ///
    /// - Parameter options: Gap and rate rules.
    /// - Returns: The cleaned log and its report.
    public func cleaned(options: TimeSeriesHygieneOptions = TimeSeriesHygieneOptions()) -> CleanedLog<AccelerometerLog>
    {
        let hygiene = TimeSeriesHygiene(
            timestamps: timestamp, channels: [acceleration.x, acceleration.y, acceleration.z],
            channelNames: Self.hygieneChannelNames, options: options)
        var log = self
        log.timestamp = hygiene.timestamps
        log.timestampSince1970 = timestampSince1970.map(hygiene.selectingTimes(of:))
        log.acceleration = Vector3Series(x: hygiene.channels[0], y: hygiene.channels[1], z: hygiene.channels[2])
        if let rotation = rotationRate, rotation.x.count == timestamp.count, rotation.y.count == timestamp.count,
            rotation.z.count == timestamp.count
        {
            log.rotationRate = Vector3Series(
                x: hygiene.selectingRows(of: rotation.x), y: hygiene.selectingRows(of: rotation.y),
                z: hygiene.selectingRows(of: rotation.z))
        } else {
            log.rotationRate = nil
        }
        var report = hygiene.report
        report.noteUnits(
            UnitDetection(
                quantity: "|acceleration|", x: log.acceleration.x, y: log.acceleration.y, z: log.acceleration.z),
            declared: unit, label: "acceleration")
        return CleanedLog(log: log, report: report)
    }
}
