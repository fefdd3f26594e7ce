import Foundation
import SensorSignal
import StudyInputs

extension WalkingAnalysis {
    /// FHIR measures of one result (see ``FHIRExport``): the step count (LOINC 55423-8) when there is motion data;
    /// and, when recorded, the timed walk's distance, duration and gait speed and the pedometer's distance (the
    /// six-minute walk distance of a fitness check, LOINC 64098-7 "Six minute walk test" for the fitness check's
    /// `fitness.walk` step) under the local code system ``ScoredTasks/codeSystem`` (`walking.<key>`), because no
    /// standard code for these was verified.
    public static func exportMeasures(of result: WalkingResult, skipped: inout [String]) -> [ExportMeasure] {
        var measures: [ExportMeasure] = []
        if let steps = result.stepCount {
            measures.append(
                ExportMeasure(
                    system: "http://loinc.org", code: "55423-8",
                    display: "Number of steps in unspecified time Pedometer", category: "activity",
                    value: Double(steps), unit: "steps", unitCode: "{steps}", method: "walking-step-detector",
                    methodDisplay: "taskproc step detection on the acceleration magnitude", step: result.stepIdentifier))
        }
        let recorded: [(key: String, value: Double?, unit: String, ucum: String, display: String)] = [
            ("timedWalkDistance", result.timedWalkDistance, "m", "m", "timed walk distance (as recorded)"),
            ("timedWalkDuration", result.timedWalkDuration, "s", "s", "timed walk duration (as recorded)"),
            ("gaitSpeed", result.gaitSpeed, "m/s", "m/s", "gait speed: timed walk distance / duration"),
            ("pedometerDistance", result.pedometerDistance, "m", "m", "pedometer distance (CoreMotion)"),
        ]
        for m in recorded {
            guard let value = m.value, value.isFinite else { continue }
            if m.key == "pedometerDistance", result.stepIdentifier == "fitness.walk" {
                // The fitness check's walk step is the six-minute walk: its distance has a LOINC code.
                measures.append(
                    ExportMeasure(
                        system: "http://loinc.org", code: "64098-7", display: "Six minute walk test",
                        category: "activity", value: value, unit: "m", unitCode: "m", method: "taskproc-walking",
                        methodDisplay: "pedometer distance (CoreMotion) of ResearchKit's fitness check walk",
                        step: result.stepIdentifier))
                continue
            }
            measures.append(
                ExportMeasure(
                    system: ScoredTasks.codeSystem, code: "walking." + m.key, display: "Walking: " + m.display,
                    category: "activity", value: value, unit: m.unit, unitCode: m.ucum, method: "taskproc-walking",
                    methodDisplay: "recorded by ResearchKit, reported by taskproc", step: result.stepIdentifier))
        }
        return measures
    }
}

extension WalkingAnalysis {
    /// The walking signal with a tick per step and the cadence over time.
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String {
        ReportPlots.walking(result, readSources: readSources)
    }
}

extension WalkingAnalysis {
    /// The report's headlines of a walking result (`docs/report.md`).
    public static let headlines: [ReportHeadline] = [
        .init(key: "stepCount", label: "steps", unit: "steps"),
        .init(key: "cadence", label: "cadence", unit: "steps/min"),
        .init(key: "walkingDuration", label: "walking time", unit: "s"),
        .init(key: "stepRegularity", label: "step regularity", unit: "—"),
        .init(key: "strideRegularity", label: "stride regularity", unit: "—"),
        .init(key: "stepTimeCV", label: "step-time CV", unit: "%"),
        .init(key: "gaitSpeed", label: "gait speed (timed walk)", unit: "m/s"),
        .init(key: "pedometerDistance", label: "pedometer distance", unit: "m"),
    ]

    /// Cadence (the headline measure, whose per-participant trend the report draws) and steps per walking step.
    public static var reportDistributions: [ReportDistribution] {
        [
            .init(kind: .walking, key: "cadence", label: "cadence"),
            .init(kind: .walking, key: "stepCount", label: "steps per walking step"),
        ]
    }
}

extension WalkingAnalysis {
    /// Mobilise-D's global plausibility ranges of gait measures.
    ///
    /// From `get_mobilised_dmo_thresholds()` of mobgap 1.2, cohort `ALL`: cadence in steps/min, walking speed in m/s, stride length in m, stride and step
    /// time in s. Inclusive at both ends.
    public static let plausibleRanges: [(key: String, range: ClosedRange<Double>)] = [
        ("cadence", 40...172.9),
        ("walkingSpeed", 0.08151492...2.22),
        ("strideLength", 0.1505232...2.19),
        ("strideTime", 0.46...3),
        ("stepTimeMean", 0.14...2.124),
    ]

    /// The lowest sampling rate the walking analysis is validated for, Hz.
    public static let minimumFlagRate = 15.0

    /// Walking flags: `short` when under the 3 s a gait rhythm needs (``StepDetector/Configuration/shortRecordingDuration``),
    /// `rate` under 15 Hz or > 1 % irregular intervals, `still` when no step was counted, `repaired` when the
    /// samples were repaired, `implausible` when a measure lies outside ``plausibleRanges``.
    public static func qualityFlags(of result: WalkingResult) -> QualityFlags {
        let values: [String: Double?] = [
            "cadence": result.cadence, "walkingSpeed": result.walkingSpeed, "strideLength": result.strideLength,
            "strideTime": result.strideTime, "stepTimeMean": result.stepTimeMean,
        ]
        let counted = (result.stepCount ?? 0) > 0
        let outside = plausibleRanges.compactMap { QualityFlags.outside(values[$0.key] ?? nil, $0.range) }
        return QualityFlags(
            short: result.quality.analysedDuration < StepDetector.Configuration().shortRecordingDuration,
            rate: QualityFlags.rateFlag(
                rate: result.samplingRate, hygiene: result.quality.hygiene, minimumRate: minimumFlagRate),
            still: result.stepCount.map { $0 == 0 },
            repaired: result.quality.hygiene.map(\.wasRepaired),
            implausible: counted ? outside.contains(true) : nil)
    }
}

extension WalkingAnalysis {
    /// The study tables' measures: steps, cadence, walking time, step-time CV, stride time and length, walking
    /// speed and the timed walk's gait speed.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("stepCount", unit: "steps"),
        StudyMeasure("cadence", unit: "steps/min"),
        StudyMeasure("walkingDuration", unit: "s"),
        StudyMeasure("stepTimeCV", unit: "%"),
        StudyMeasure("strideTime", unit: "s"),
        StudyMeasure("strideLength", unit: "m"),
        StudyMeasure("walkingSpeed", unit: "m/s"),
        StudyMeasure("gaitSpeed", unit: "m/s"),
    ]
}

extension WalkingAnalysis {
    /// The columns of `steps.csv`, after batch's key columns.
    public static let stepsColumns = ["stepIdentifier", "bout", "step", "time", "stepTime", "strideTime"]

    /// `steps.csv`: one row per step of ``WalkingResult/stepTimes`` (interpolated steps included): its walking step,
    /// the 1-based bout whose span holds it (the first, where bouts overlap; blank outside every bout), its 1-based
    /// number in the result, its time in s since ``WalkingResult/timeOrigin``, and the step and stride times ending
    /// at it (s since the previous step and the one before it, in the same bout; blank at a bout's start).
    public static func detailTables(of result: WalkingResult) -> [DetailTable] {
        guard !result.stepTimes.isEmpty else { return [] }
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        var rows: [[String]] = []
        rows.reserveCapacity(result.stepTimes.count)
        var previous: [(time: Double, bout: Int?)] = []
        for (k, time) in result.stepTimes.enumerated() {
            let bout = result.bouts.firstIndex { $0.start <= time && time <= $0.end }
            let sameBout = previous.reversed().prefix { bout != nil && $0.bout == bout }.map(\.time)
            rows.append([
                result.stepIdentifier ?? "", bout.map { String($0 + 1) } ?? "", String(k + 1), n(time),
                sameBout.count >= 1 ? n(time - sameBout[0]) : "", sameBout.count >= 2 ? n(time - sameBout[1]) : "",
            ])
            previous.append((time, bout))
            if previous.count > 2 { previous.removeFirst() }
        }
        return [DetailTable(name: "steps", header: stepsColumns, rows: rows)]
    }
}
