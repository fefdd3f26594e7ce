import Foundation
import StudyInputs

extension AudiometryAnalysis {
    /// FHIR measures of one result (see ``FHIRExport``): recorded dB HL thresholds per ear and frequency (LOINC);
    /// for a legacy result, the level of each answered tone in dBFS under the local code system
    /// (``legacyExportMeasures(_:skipped:)``).
    public static func exportMeasures(of result: AudiometryResult, skipped: inout [String]) -> [ExportMeasure] {
        let test: DBHLAudiometryResult
        switch result {
        case .dBHL(let t): test = t
        case .legacy(let legacy): return legacyExportMeasures(legacy, skipped: &skipped)
        }
        var out: [ExportMeasure] = []
        for ear in test.ears {
            let side = ear.ear.rawValue
            let step = ear.stepIdentifier.isEmpty ? nil : ear.stepIdentifier
            var seen: [Int: Int] = [:]
            for f in ear.frequencies {
                let hz = f.frequency
                let label = "\(side) ear \(ResultEncoding.number(hz)) Hz"
                // Only the whole frequencies of the LOINC table have codes; anything else (1e20 Hz included) is
                // skipped before it is converted to an integer.
                guard let whole = hearingThresholdCodes.keys.first(where: { Double($0) == hz }),
                    let codes = hearingThresholdCodes[whole]
                else {
                    skipped.append("\(label): no LOINC hearing-threshold code for this frequency")
                    continue
                }
                guard !f.noThreshold, let threshold = f.calculatedThreshold, threshold.isFinite else {
                    skipped.append("\(label): no threshold (ResearchKit's no-threshold sentinel)")
                    continue
                }
                seen[whole, default: 0] += 1
                out.append(
                    ExportMeasure(
                        system: "http://loinc.org", code: ear.ear == .left ? codes.left : codes.right,
                        display: "Hearing threshold \(side) ear \(whole) Hz", category: "exam",
                        value: threshold, unit: "dB HL", unitCode: "dB", method: "researchkit-dbhl-staircase",
                        methodDisplay: "ResearchKit dB HL tone audiometry (modified Hughson-Westlake), calculatedThreshold as recorded",
                        step: step, occurrence: seen[whole] ?? 1))
            }
        }
        return out
    }
}

extension AudiometryAnalysis {
    /// The legacy tone-audiometry measures: one per tone the participant answered (a button press).
    ///
    /// Its level at the press in dBFS, coded `toneAudiometry.<ear>.<frequency>Hz` in ``ScoredTasks/codeSystem``
    /// (display "Tone level at response, <ear> ear <f> Hz, dBFS (uncalibrated)"; UCUM `dB`, shown as `dBFS`). These
    /// are digital levels re full scale, never hearing thresholds, so no LOINC hearing-threshold code is used. Tones
    /// without a press, without an ear, at a level of 0, or at a frequency that is not a whole number of hertz are
    /// listed in `skipped`.
    static func legacyExportMeasures(
        _ result: LegacyToneAudiometryAnalysis, skipped: inout [String]
    ) -> [ExportMeasure] {
        var out: [ExportMeasure] = []
        var seen: [String: Int] = [:]
        for (i, p) in result.presentations.enumerated() {
            let label = "tone \(i + 1) (\(ResultEncoding.number(p.frequency)) Hz)"
            guard p.response != "none" else {
                skipped.append("\(label): no response, no level")
                continue
            }
            guard let ear = p.ear, let level = p.amplitudeDBFS, level.isFinite else {
                skipped.append("\(label): no ear or no level (amplitude 0)")
                continue
            }
            // A whole, positive frequency below 1 MHz names the code; anything else is skipped before conversion.
            guard p.frequency > 0, p.frequency < 1_000_000, p.frequency == p.frequency.rounded() else {
                skipped.append("\(label): not a whole frequency in hertz, no code")
                continue
            }
            let hz = ResultEncoding.number(p.frequency)
            let code = "\(TaskKind.toneAudiometry.rawValue).\(ear.rawValue).\(hz)Hz"
            seen[code, default: 0] += 1
            out.append(
                ExportMeasure(
                    system: ScoredTasks.codeSystem, code: code,
                    display: "Tone level at response, \(ear.rawValue) ear \(hz) Hz, dBFS (uncalibrated)",
                    category: "exam", value: level, unit: "dBFS", unitCode: "dB",
                    method: "researchkit-legacy-tone-audiometry",
                    methodDisplay: "ResearchKit legacy tone audiometry: digital level re full scale at the press",
                    step: result.stepIdentifier, occurrence: seen[code] ?? 1))
        }
        return out
    }
}

extension AudiometryAnalysis {
    /// The threshold table and the clinical audiogram of a dB HL test (legacy results have no plot).
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String {
        guard result["kind"]?.stringValue == TaskKind.dBHLToneAudiometry.rawValue else { return "" }
        return ReportPlots.thresholdTable(result) + ReportPlots.audiogram(result)
    }
}

extension AudiometryAnalysis {
    /// LOINC hearing-threshold codes (air conduction), by frequency in Hz: (left, right).
    public static let hearingThresholdCodes: [Int: (left: String, right: String)] = [
        500: ("89024-4", "89025-1"), 1000: ("89016-0", "89017-8"), 2000: ("89018-6", "89019-4"),
        3000: ("89020-2", "89021-0"), 4000: ("89022-8", "89023-6"), 6000: ("89026-9", "89027-7"),
        8000: ("89028-5", "89029-3"),
    ]
}

extension AudiometryAnalysis {
    /// A dB HL test's headlines: PTA4 and the volume offset per ear, the better-ear PTA4 and its WHO grade; none
    /// for a legacy tone-audiometry result.
    public static func reportHeadlines(_ result: JSONObject) -> [(label: String, value: String, unit: String)] {
        guard result["kind"]?.stringValue == TaskKind.dBHLToneAudiometry.rawValue else { return [] }
        let text = ReportHeadline.text
        var rows: [(String, String, String)] = []
        for ear in result["ears"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            let side = (ear["ear"]?.stringValue ?? "?") + " ear "
            rows.append((side + "PTA4", text(ear["summary"]?.objectValue?["pta4"]), "dB HL"))
            rows.append((side + "volume offset", text(ear["volume"]?.objectValue?["offset"]), "dB"))
        }
        let bilateral = result["bilateral"]?.objectValue
        rows.append(("better-ear PTA4", text(bilateral?["betterEarPTA4"]), "dB HL"))
        rows.append(("WHO grade (better ear)", text(bilateral?["whoGrade"]), ""))
        return rows
    }

    /// PTA4 per ear of the dB HL tests.
    public static var reportDistributions: [ReportDistribution] {
        [.init(kind: .dBHLToneAudiometry, key: "pta4", label: "PTA4 per ear")]
    }

    /// A dB HL test's PTA4 of each ear (labelled by ear) and its better-ear PTA4, dB HL; none for a legacy
    /// tone-audiometry result (uncalibrated levels).
    public static func reportValues(_ result: JSONObject) -> [ReportValue] {
        guard result["kind"]?.stringValue == TaskKind.dBHLToneAudiometry.rawValue else { return [] }
        var out: [ReportValue] = []
        for ear in result["ears"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            if case .number(let d)? = ear["summary"]?.objectValue?["pta4"], d.isFinite {
                let side = ear["ear"]?.stringValue ?? "?"
                out.append(ReportValue(key: "pta4", label: "PTA4 (\(side) ear)", unit: "dB HL", value: d))
            }
        }
        if case .number(let d)? = result["bilateral"]?.objectValue?["betterEarPTA4"], d.isFinite {
            out.append(ReportValue(key: "betterEarPTA4", label: "better-ear PTA4", unit: "dB HL", value: d))
        }
        return out
    }
}

extension AudiometryAnalysis {
    /// The study tables' measures: a dB HL test's threshold per ear and frequency and its PTA4 per ear (a legacy
    /// tone-audiometry result has no calibrated level, and no column of these names).
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("calculatedThreshold", unit: "dB HL", by: ["ear", "frequency"]),
        StudyMeasure("pta4", unit: "dB HL", by: ["ear"]),
    ]
}
