import Foundation
import StudyInputs

extension SoundLevelChannel {
    /// The level columns, in CSV order.
    static let csvHeader = [
        "LAeq", "LCeq", "LZeq", "LAFmax", "LASmax", "LAFmin", "LCpeak", "LA10", "LA50", "LA90", "splMeterSampleCount",
        "splMeterPassed", "splMeterLongestRunBelow",
    ]

    /// The level values, in ``csvHeader`` order.
    var csvValues: [String] {
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        return [
            n(LAeq), n(LCeq), n(LZeq), n(LAFmax), n(LASmax), n(LAFmin), n(LCpeak), n(LA10), n(LA50), n(LA90),
            String(splMeterSamples.count), splMeterPassed.map { String($0) } ?? "", String(splMeterLongestRunBelow),
        ]
    }

    /// Rows for the aligned-text form, with `unit` after each level.
    func tableRows(unit: String) -> [(String, String)] {
        let l = { (v: Double?) in v.map { String(format: "%.2f \(unit)", $0) } ?? "—" }
        let series = splMeterSamples.prefix(12).map { $0.map { String(format: "%.1f", $0) } ?? "−∞" }
            .joined(separator: " ") + (splMeterSamples.count > 12 ? " …" : "")
        return [
            ("LAeq", l(LAeq)), ("LCeq", l(LCeq)), ("LZeq", l(LZeq)), ("LAFmax", l(LAFmax)), ("LASmax", l(LASmax)),
            ("LAFmin", l(LAFmin)), ("LCpeak", l(LCpeak)), ("LA10", l(LA10)), ("LA50", l(LA50)), ("LA90", l(LA90)),
            ("splMeterSamples", "\(splMeterSamples.count): \(series)"),
            ("splMeterPassed", splMeterPassed.map { $0 ? "pass" : "fail" } ?? "— (uncalibrated)"),
        ]
    }
}

extension SoundLevelResult: RenderableResult {
    /// Sections for the aligned-text form: settings, then one section per channel.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        var head: [(String, String)] = [
            ("unit", unit),
            ("duration", String(format: "%.3f s", duration)),
            ("sample rate", "\(ResultEncoding.number(sampleRate)) Hz"),
            ("rule", "\(ResultEncoding.number(rule.threshold)) \(unit), \(rule.requiredContiguousSamples) windows"),
        ]
        if let c = calibration {
            head.append(("sensitivity offset", String(format: "%.2f dB (%@)", c.sensitivityOffset, c.source)))
        }
        for w in warnings { head.append(("warning", w)) }
        return [("Sound levels " + file, head)] + channels.map { ("Channel \($0.channel)", $0.tableRows(unit: unit)) }
    }

    /// One CSV row per channel.
    public var csvTable: (header: [String], rows: [[String]]) {
        let header = ["file", "unit", "sensitivityOffset", "channel", "duration"] + SoundLevelChannel.csvHeader
        let rows = channels.map { ch in
            [file, unit, ResultEncoding.number(calibration?.sensitivityOffset), String(ch.channel),
             ResultEncoding.number(ch.duration, digits: 10)] + ch.csvValues
        }
        return (header, rows)
    }
}

extension SPLMeterResult: RenderableResult {
    /// One section per result.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        let l = { (v: Double?) in v.map { String(format: "%.2f dB(A)", $0) } ?? "—" }
        var rows: [(String, String)] = [
            ("samples", String(sampleCount)),
            ("energy average", l(energyAverage)),
            ("minimum", l(minimum)),
            ("maximum", l(maximum)),
            ("sensitivity offset", String(format: "%.2f dB", sensitivityOffset)),
            ("rule", "< \(ResultEncoding.number(threshold)) dB(A) for \(requiredContiguousSamples) samples (\(ruleSource))"),
            ("passed", passed.map { $0 ? "yes" : "no" } ?? "—"),
            ("longest run below", String(longestRunBelow)),
        ]
        for w in warnings { rows.append(("warning", w)) }
        return [("SPL meter \(stepIdentifier) (\(file))", rows)]
    }

    /// One CSV row.
    public var csvTable: (header: [String], rows: [[String]]) {
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        return (
            [
                "file", "stepIdentifier", "startDate", "endDate", "sensitivityOffset", "sampleCount", "energyAverage",
                "minimum", "maximum", "threshold", "requiredContiguousSamples", "ruleSource", "passed", "longestRunBelow",
            ],
            [[
                file, stepIdentifier, startDate ?? "", endDate ?? "", n(sensitivityOffset), String(sampleCount),
                n(energyAverage), n(minimum), n(maximum), n(threshold), String(requiredContiguousSamples), ruleSource,
                passed.map { String($0) } ?? "", String(longestRunBelow),
            ]]
        )
    }
}
