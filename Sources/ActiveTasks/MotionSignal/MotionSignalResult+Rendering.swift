import Foundation
import StudyInputs

extension MotionSignalResult: RenderableResult {
    /// Sections for the aligned-text form: the recording, the signal, then the warnings.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        func number(_ value: Double?, _ format: String, _ unit: String = "") -> String {
            value.map { String(format: format, $0) + unit } ?? "—"
        }
        var recording: [(String, String)] = [("task", task.rawValue), ("signal", signal)]
        if let stepIdentifier { recording.append(("step", stepIdentifier)) }
        if let source { recording.append(("file", source)) }
        recording.append(("samples", String(samples)))
        recording.append(("duration", String(format: "%.1f s", duration)))
        recording.append(("sampling rate", number(samplingRate, "%.2f", " Hz")))
        let signalRows: [(String, String)] = [
            ("steps", "not analysed (\(task.rawValue) step)"), ("|a| mean", number(magnitudeMean, "%.4f", " g")),
            ("|a| SD", number(magnitudeSD, "%.4f", " g")), ("unit read", quality.accelerationUnit),
        ]
        var sections: [(title: String, rows: [(String, String)])] = [
            ("Motion signal " + (stepIdentifier ?? source ?? ""), recording), ("Signal", signalRows),
        ]
        if let features {
            var rows: [(String, String)] = [
                ("feature set", "\(features.featureSet) \(features.function)"),
                ("sampling rate", String(format: "%.2f Hz", features.samplingRate)),
            ]
            for row in features.rows {
                let unit = row.sensor == "gyroscope" ? "rad/s" : "g"
                rows.append(
                    (
                        "\(row.sensor) \(row.axis)",
                        "SD \(number(row.value("sd.tm"), "%.4g", " \(unit)")), "
                            + "RMS \(number(row.value("rmsmag.tm"), "%.4g", " \(unit)")), "
                            + "spectral mode \(number(row.value("mod.fr"), "%.2f", " Hz"))"
                    ))
            }
            rows.append(("all features", "\(KinematicFeatures.names.count) per axis in JSON and CSV"))
            sections.append(("Features (mhealthtools)", rows))
        }
        if !quality.warnings.isEmpty {
            sections.append(("Warnings", quality.warnings.enumerated().map { ("\($0.offset + 1)", $0.element) }))
        }
        return sections
    }

    /// One CSV row per result with the scalar values.
    public var csvTable: (header: [String], rows: [[String]]) {
        let header = [
            "task", "stepIdentifier", "source", "signal", "samples", "duration", "samplingRate", "magnitudeMean",
            "magnitudeSD", "accelerationUnit", "warnings", "featureSet", "featureFunction", "featureSamplingRate",
        ] + MotionFeatures.csvColumns
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        let row: [String] = [
            task.rawValue, stepIdentifier ?? "", source ?? "", signal, String(samples), n(duration), n(samplingRate),
            n(magnitudeMean), n(magnitudeSD), quality.accelerationUnit, quality.warnings.joined(separator: " | "),
            features?.featureSet ?? "", features?.function ?? "", n(features?.samplingRate),
        ] + (features?.csvCells ?? [String](repeating: "", count: MotionFeatures.csvColumns.count))
        return (header, [row])
    }
}

extension MotionSignalResult: RecordWarnings {
    /// Appends to the quality warnings.
    public mutating func addWarnings(_ warnings: [String]) { quality.warnings += warnings }
}
