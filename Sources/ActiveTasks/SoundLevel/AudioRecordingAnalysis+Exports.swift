import Foundation
import StudyInputs

extension AudioRecordingAnalysis {
    /// FHIR measures of one result (see ``FHIRExport``): calibrated sound levels per channel (`dB SPL` only: dBFS levels are no sound pressure levels).
    public static func exportMeasures(of result: AudioFileSummary, skipped: inout [String]) -> [ExportMeasure] {
        guard let level = result.soundLevel else { return [] }
        guard level.unit == "dB SPL" else {
            skipped.append(
                "\(result.file): sound levels are not calibrated (dBFS), so they are not sound pressure levels")
            return []
        }
        var out: [ExportMeasure] = []
        for channel in level.channels {
            for (code, display) in soundLevelCodes {
                guard let value = channel.level(code), value.isFinite else { continue }
                var measure = ExportMeasure(
                    system: acousticsSystem, code: code, display: display, category: "exam", value: value,
                    unit: "dB SPL", unitCode: "dB[SPL]", method: "iec61672-sound-level-meter",
                    methodDisplay: "taskproc sound level meter (IEC 61672-1 frequency and time weightings)")
                // Channel indices are small (the audio reader's channel limit); the guard keeps `+ 1` safe anyway.
                measure.occurrence = channel.channel >= 0 && channel.channel < Int.max ? channel.channel + 1 : 1
                if code == "LAeq" {
                    measure.additionalCodings = [
                        ExportMeasure.coding(
                            system: "http://developer.apple.com/documentation/healthkit",
                            code: "HKQuantityTypeIdentifierEnvironmentalAudioExposure",
                            display: "Environmental audio exposure")
                    ]
                }
                if level.channels.count > 1 {
                    measure.display += " (channel \(channel.channel))"
                }
                out.append(measure)
            }
        }
        return out
    }
}

extension SoundLevelChannel {
    /// The level named by a FHIR sound-level code (``soundLevelCodes``), dB; nil for other names.
    func level(_ code: String) -> Double? {
        switch code {
        case "LAeq": LAeq
        case "LCeq": LCeq
        case "LZeq": LZeq
        case "LAFmax": LAFmax
        case "LASmax": LASmax
        case "LAFmin": LAFmin
        case "LCpeak": LCpeak
        case "LA10": LA10
        case "LA50": LA50
        case "LA90": LA90
        default: nil
        }
    }
}

extension AudioRecordingAnalysis {
    /// Audio summaries carry `audio`; a bare sound-level result `soundLevel`.
    public static var resultKinds: [String] { ["audio", "soundLevel"] }

    /// The sound-level history with the threshold line.
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String { ReportPlots.soundLevel(result) }
}

extension SPLMeterAnalysis {
    /// ResearchKit SPL-meter results carry `splMeter`.
    public static var resultKinds: [String] { ["splMeter"] }

    /// The SPL-meter series with the threshold line.
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String { ReportPlots.soundLevel(result) }
}

extension AudioRecordingAnalysis {
    /// The code system of taskproc's acoustic level codes (the level names, e.g. `LAeq`).
    public static let acousticsSystem = "urn:taskproc:acoustics"

    /// The levels exported from a calibrated recording, with their display names.
    public static let soundLevelCodes: [(code: String, display: String)] = [
        ("LAeq", "A-weighted equivalent continuous sound level"),
        ("LCeq", "C-weighted equivalent continuous sound level"),
        ("LZeq", "Z-weighted (unweighted) equivalent continuous sound level"),
        ("LAFmax", "Maximum A-weighted sound level, time weighting Fast"),
        ("LASmax", "Maximum A-weighted sound level, time weighting Slow"),
        ("LAFmin", "Minimum A-weighted sound level, time weighting Fast"),
        ("LCpeak", "C-weighted peak sound level"),
        ("LA10", "A-weighted level exceeded 10 % of the time (Fast)"),
        ("LA50", "A-weighted level exceeded 50 % of the time (Fast)"),
        ("LA90", "A-weighted level exceeded 90 % of the time (Fast)"),
    ]
}

extension AudioRecordingAnalysis {
    /// An audio summary's headlines: LAeq, LAFmax and LA90 per channel, in the level's unit (dB SPL when
    /// calibrated, else dBFS); none for a bare sound-level result.
    public static func reportHeadlines(_ result: JSONObject) -> [(label: String, value: String, unit: String)] {
        guard result["kind"]?.stringValue == "audio", let level = result["soundLevel"]?.objectValue else { return [] }
        let unit = level["unit"]?.stringValue ?? "dB"
        var rows: [(String, String, String)] = []
        for channel in level["channels"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            let c = channel["channel"]?.numberValue.map { "channel \(ResultEncoding.number($0)) " } ?? ""
            for key in ["LAeq", "LAFmax", "LA90"] { rows.append((c + key, ReportHeadline.text(channel[key]), unit)) }
        }
        return rows
    }

    /// LAeq per channel (a histogram per level unit: dB SPL and dBFS are never pooled).
    public static var reportDistributions: [ReportDistribution] {
        [.init(kind: .audio, key: "LAeq", label: "LAeq per channel")]
    }

    /// LAeq and LA90 of every channel, in the level's unit (dB SPL when calibrated, else dBFS).
    public static func reportValues(_ result: JSONObject) -> [ReportValue] {
        guard let level = result["soundLevel"]?.objectValue else { return [] }
        let unit = level["unit"]?.stringValue ?? "dBFS"
        var out: [ReportValue] = []
        for key in ["LAeq", "LA90"] {
            for channel in level["channels"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                if case .number(let d)? = channel[key], d.isFinite {
                    out.append(ReportValue(key: key, label: key + " per channel", unit: unit, value: d))
                }
            }
        }
        return out
    }
}

extension SPLMeterAnalysis {
    /// The report's headlines of a ResearchKit SPL-meter result (`docs/report.md`).
    public static let headlines: [ReportHeadline] = [
        .init(key: "energyAverage", label: "energy average", unit: "dB(A) (ResearchKit)"),
        .init(key: "passed", label: "passed", unit: "yes/no"),
    ]

}

extension AudioRecordingAnalysis {
    /// The study tables' measures: LAeq and LA90 per channel, in the row's level unit (dB SPL when calibrated,
    /// else dBFS).
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("LAeq", unit: "dBFS", unitColumn: "levelUnit", by: ["channel"]),
        StudyMeasure("LA90", unit: "dBFS", unitColumn: "levelUnit", by: ["channel"]),
    ]
}
