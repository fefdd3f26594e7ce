public import SensorSignal

extension DeviceMotionLog {
    /// This log with its rows put in order (see ``TimeSeriesHygiene``), plus a ``QualityReport``.
    ///
    /// Rows are ordered by ``timestamp`` (s since boot). Every column moves in lockstep: user acceleration and
    /// gravity (g), rotation rate (rad/s), the attitude quaternion, and the magnetic field (µT) and its accuracy
    /// when present. A row is an exact duplicate when its `timestamp` and all those values equal the kept row's;
    /// ``timestampSince1970`` follows the selection but does not decide it.
    ///
    /// The report's ``QualityReport/units`` holds the median |gravity| of the cleaned rows (CoreMotion's gravity
    /// is a unit vector in g, so ≈ 1); a warning is added when it is not.
    ///
    /// - Parameter options: Gap and rate rules.
    /// - Returns: The cleaned log and its report.
    public func cleaned(options: TimeSeriesHygieneOptions = TimeSeriesHygieneOptions()) -> CleanedLog<DeviceMotionLog> {
        var columns: [(name: String, values: [Double])] = []
        func add(_ name: String, _ series: Vector3Series) {
            columns += [(name + ".x", series.x), (name + ".y", series.y), (name + ".z", series.z)]
        }
        add("userAcceleration", userAcceleration)
        add("gravity", gravity)
        add("rotationRate", rotationRate)
        add("attitude", attitude)
        columns.append(("attitude.w", attitudeW))
        if let magneticField { add("magneticField", magneticField) }
        if let magneticFieldAccuracy { columns.append(("magneticField.accuracy", magneticFieldAccuracy)) }

        let hygiene = TimeSeriesHygiene(
            timestamps: timestamp, channels: columns.map(\.values), channelNames: columns.map(\.name), options: options)
        let c = hygiene.channels
        func series(_ first: Int) -> Vector3Series { Vector3Series(x: c[first], y: c[first + 1], z: c[first + 2]) }
        var log = self
        log.timestamp = hygiene.timestamps
        log.timestampSince1970 = timestampSince1970.map(hygiene.selectingTimes(of:))
        log.userAcceleration = series(0)
        log.gravity = series(3)
        log.rotationRate = series(6)
        log.attitude = series(9)
        log.attitudeW = c[12]
        var next = 13
        if magneticField != nil {
            log.magneticField = series(next)
            next += 3
        }
        if magneticFieldAccuracy != nil { log.magneticFieldAccuracy = c[next] }

        var report = hygiene.report
        report.noteUnits(
            UnitDetection(quantity: "|gravity|", x: log.gravity.x, y: log.gravity.y, z: log.gravity.z), declared: .g,
            label: "gravity")
        return CleanedLog(log: log, report: report)
    }
}
