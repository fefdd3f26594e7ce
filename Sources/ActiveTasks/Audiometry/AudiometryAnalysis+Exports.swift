import Foundation
import StudyInputs

extension AudiometryAnalysis {
    /// FHIR measures of one result (see ``FHIRExport``): recorded dB HL thresholds per ear and frequency (LOINC).
    public static func exportMeasures(of result: AudiometryResult, skipped: inout [String]) -> [ExportMeasure] {
        // Legacy tone-audiometry amplitudes are uncalibrated dBFS, never hearing thresholds.
        guard case .dBHL(let test) = result else { return [] }
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
        [.init(kind: .dBHLToneAudiometry, key: "pta4", label: "PTA4 per ear, dB HL")]
    }
}
