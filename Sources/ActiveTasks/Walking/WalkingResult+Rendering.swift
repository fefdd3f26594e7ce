import Foundation
import StudyInputs

extension WalkingResult: RenderableResult {
    /// Sections for the aligned-text form: the recording, the gait features, then the bouts and the warnings.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        func number(_ value: Double?, _ format: String, _ unit: String = "") -> String {
            value.map { String(format: format, $0) + unit } ?? "—"
        }
        var recording: [(String, String)] = [("signal", signal)]
        if let stepIdentifier { recording.append(("step", stepIdentifier)) }
        if let source { recording.append(("file", source)) }
        recording.append(("sampling rate", number(samplingRate, "%.2f", " Hz")))
        recording.append(("analysed", String(format: "%.1f s", quality.analysedDuration)))
        var features: [(String, String)] = [
            (
                "steps",
                (stepCount.map(String.init) ?? "—")
                    + (quality.interpolatedSteps > 0 ? " (\(quality.interpolatedSteps) interpolated)" : "")
            ),
            ("cadence", number(cadence, "%.1f", " steps/min")),
            ("walking duration", number(walkingDuration, "%.1f", " s")),
            (
                "step time",
                number(stepTimeMean, "%.3f", " s") + (stepTimeSD.map { String(format: " ± %.3f s", $0) } ?? "")
            ),
            ("step time CV", number(stepTimeCV, "%.1f", " %")),
            ("step regularity", number(stepRegularity, "%.3f")),
            ("stride regularity", number(strideRegularity, "%.3f")),
            ("symmetry", number(symmetry, "%.3f")),
            ("dominant frequency", number(dominantFrequency, "%.3f", " Hz")),
            ("stride time", number(strideTime, "%.3f", " s")),
        ]
        if placement == SensorPlacement.lowerBack.rawValue {
            features.append(("sensor", "lower back" + (sensorHeight.map { String(format: ", %.3f m high", $0) } ?? "")))
            features.append(("stride length", number(strideLength, "%.3f", " m")))
            features.append(("walking speed", number(walkingSpeed, "%.3f", " m/s")))
            features.append(("stance time", number(stanceTime, "%.3f", " s")))
            features.append(("swing time", number(swingTime, "%.3f", " s")))
            features.append(("double support", number(doubleSupportTime, "%.3f", " s")))
        }
        if let turns {
            let all = turnEvents?.count ?? turns
            features.append(
                (
                    "turns",
                    "\(turns) while walking" + (all > turns ? " (\(all) in all)" : "")
                        + (meanTurnAngle.map { String(format: ", mean %.0f°", $0) } ?? "")
                        + (meanTurnDuration.map { String(format: " in %.1f s", $0) } ?? "")
                ))
        }
        if let pedometerStepCount, let pedometerDifference {
            features.append(("pedometer steps", "\(pedometerStepCount) (difference \(pedometerDifference))"))
        }
        if let pedometerDistance {
            let over = pedometerDuration.map { String(format: " in %.0f s", $0) } ?? ""
            features.append(("pedometer distance", String(format: "%.1f m", pedometerDistance) + over))
        }
        if hasTimedWalk {
            features.append(("timed walk distance", number(timedWalkDistance, "%.2f", " m")))
            features.append(("timed walk duration", number(timedWalkDuration, "%.2f", " s")))
            features.append(("gait speed", number(gaitSpeed, "%.3f", " m/s")))
        }
        var sections: [(title: String, rows: [(String, String)])] = [
            ("Walking " + (stepIdentifier ?? source ?? ""), recording), ("Gait", features),
        ]
        if !bouts.isEmpty {
            sections.append(
                (
                    "Bouts",
                    bouts.enumerated().map { index, bout in
                        (
                            "\(index + 1)",
                            String(format: "%.2f–%.2f s, ", bout.start, bout.end) + "\(bout.steps) steps"
                                + (bout.interpolatedSteps > 0 ? " (\(bout.interpolatedSteps) interpolated)" : "")
                                + (bout.cadence.map { String(format: ", %.1f steps/min", $0) } ?? "")
                                + (bout.strideRegularity.map { String(format: ", stride regularity %.2f", $0) } ?? "")
                                + (bout.detection.map { ", \($0)" } ?? "")
                                + (bout.strideLength.map { String(format: ", stride %.2f m", $0) } ?? "")
                                + (bout.walkingSpeed.map { String(format: ", %.2f m/s", $0) } ?? "")
                                + (bout.turns.map { $0 == 1 ? ", 1 turn" : ", \($0) turns" } ?? "")
                        )
                    }
                ))
        }
        if !quality.warnings.isEmpty {
            sections.append(("Warnings", quality.warnings.enumerated().map { ("\($0.offset + 1)", $0.element) }))
        }
        return sections
    }

    /// One CSV row per result with the scalar features (step times and bouts are in the JSON form only).
    public var csvTable: (header: [String], rows: [[String]]) {
        let header = [
            "stepIdentifier", "source", "signal", "stepCount", "cadence", "walkingDuration", "stepTimeMean",
            "stepTimeSD", "stepTimeCV", "stepRegularity", "strideRegularity", "symmetry", "dominantFrequency",
            "samplingRate", "bouts", "interpolatedSteps", "pedometerStepCount", "pedometerDifference", "gaitSpeed",
            "warnings", "timedWalkDistance", "timedWalkDuration", "timedWalkTimeLimit", "pedometerDistance",
            "pedometerDuration", "placement", "sensorHeight", "strideTime", "strideLength", "walkingSpeed",
            "stanceTime",
            "swingTime", "doubleSupportTime", "turns", "meanTurnAngle", "meanTurnDuration", "turnSignal",
        ]
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        let i = { (v: Int?) in v.map(String.init) ?? "" }
        let row: [String] = [
            stepIdentifier ?? "", source ?? "", signal, i(stepCount), n(cadence), n(walkingDuration),
            n(stepTimeMean), n(stepTimeSD), n(stepTimeCV), n(stepRegularity), n(strideRegularity), n(symmetry),
            n(dominantFrequency), n(samplingRate), String(bouts.count), String(quality.interpolatedSteps),
            i(pedometerStepCount), i(pedometerDifference), n(gaitSpeed),
            quality.warnings.joined(separator: " | "), n(timedWalkDistance), n(timedWalkDuration),
            n(timedWalkTimeLimit),
            n(pedometerDistance), n(pedometerDuration), placement ?? "", n(sensorHeight), n(strideTime),
            n(strideLength),
            n(walkingSpeed), n(stanceTime), n(swingTime), n(doubleSupportTime), i(turns), n(meanTurnAngle),
            n(meanTurnDuration), turnSignal ?? "",
        ]
        return (header, [row])
    }
}

extension WalkingResult: RecordWarnings {
    /// Appends to the quality warnings.
    public mutating func addWarnings(_ warnings: [String]) { quality.warnings += warnings }
}
