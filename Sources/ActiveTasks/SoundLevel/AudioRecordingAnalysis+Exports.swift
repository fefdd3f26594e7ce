import Foundation

extension AudioRecordingAnalysis {
    /// FHIR measures of one result (see ``FHIRExport``): calibrated sound levels per channel (`dB SPL` only: dBFS levels are no sound pressure levels).
    public static func exportMeasures(of record: ExportRecord, skipped: inout [String]) -> [ExportMeasure] {
        let level = record.kind == "audio" ? record.json["soundLevel"]?.objectValue : record.json
        guard let level else { return [] }
        guard level["unit"]?.stringValue == "dB SPL" else {
            skipped.append(
                "\(record.source ?? record.kind): sound levels are not calibrated (dBFS), so they are not sound pressure levels")
            return []
        }
        var out: [ExportMeasure] = []
        for channel in level["channels"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            // The channel index our own encoder wrote: a small whole number (anything else counts as channel 0,
            // never converted unchecked).
            let number = channel["channel"]?.numberValue ?? 0
            let index = number >= 0 && number < 1024 && number == number.rounded() ? Int(number) : 0
            for (code, display) in FHIRExport.soundLevelCodes {
                guard let value = channel[code]?.numberValue else { continue }
                var measure = ExportMeasure(
                    system: FHIRExport.acousticsSystem, code: code, display: display, category: "exam", value: value,
                    unit: "dB SPL", unitCode: "dB[SPL]", method: "iec61672-sound-level-meter",
                    methodDisplay: "taskproc sound level meter (IEC 61672-1 frequency and time weightings)")
                measure.occurrence = index + 1
                if code == "LAeq" {
                    measure.additionalCodings = [
                        FHIRExport.coding(
                            system: "http://developer.apple.com/documentation/healthkit",
                            code: "HKQuantityTypeIdentifierEnvironmentalAudioExposure",
                            display: "Environmental audio exposure")
                    ]
                }
                if (level["channels"]?.arrayValue?.count ?? 0) > 1 {
                    measure.display += " (channel \(index))"
                }
                out.append(measure)
            }
        }
        return out
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
