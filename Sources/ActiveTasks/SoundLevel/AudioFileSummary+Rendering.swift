import Foundation
import StudyInputs

extension AudioFileSummary: RenderableResult {
    /// Sections for the aligned-text form: the file, then one section per channel.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        let n = { (v: Double?) in v.map { ResultEncoding.number($0) } ?? "—" }
        var sections: [(title: String, rows: [(String, String)])] = [
            (
                "Audio file " + file,
                [
                    ("format", "\(container) \(encoding)"),
                    ("sample rate", "\(n(sampleRate)) Hz"),
                    ("channels", String(channelCount)),
                    ("frames", String(frameCount) + (declaredFrameCount.map { " (TRUNCATED: header declares \($0))" } ?? "")),
                    ("duration", String(format: "%.3f s", duration)),
                ]
            )
        ]
        if let level = soundLevel {
            var rows: [(String, String)] = [("unit", level.unit)]
            if let c = level.calibration {
                rows.append(("sensitivity offset", String(format: "%.2f dB (%@)", c.sensitivityOffset, c.source)))
            }
            for w in level.warnings { rows.append(("warning", w)) }
            sections.append(("Sound levels", rows))
        }
        for ch in channels {
            let levelRows = soundLevel.flatMap { l in
                l.channels.first { $0.channel == ch.channel }.map { $0.tableRows(unit: l.unit) }
            } ?? []
            sections.append(
                (
                    "Channel \(ch.channel)",
                    levelRows + [
                        ("RMS", ch.rmsDBFS.map { String(format: "%.2f dBFS", $0) } ?? "silent"),
                        ("peak", ch.peakDBFS.map { String(format: "%.2f dBFS", $0) } ?? "silent"),
                        ("crest factor", ch.crestFactorDB.map { String(format: "%.2f dB", $0) } ?? "—"),
                        ("DC offset", String(format: "%.3g FS", ch.dcOffset)),
                        ("clipped samples", String(ch.clippedSamples)),
                        ("dominant frequency", ch.dominantFrequency.map { String(format: "%.2f Hz", $0) } ?? "—"),
                        ("spectral flatness", ch.spectralFlatness.map { String(format: "%.3f", $0) } ?? "—"),
                    ]
                ))
        }
        return sections
    }

    /// One CSV row per channel, with the file-level fields repeated.
    public var csvTable: (header: [String], rows: [[String]]) {
        let header = [
            "file", "container", "encoding", "sampleRate", "channelCount", "frameCount", "duration", "channel",
            "rms", "rmsDBFS", "peak", "peakDBFS", "crestFactorDB", "dcOffset", "clippedSamples", "dominantFrequency",
            "spectralFlatness",
        ] + (soundLevel == nil ? [] : ["levelUnit"] + SoundLevelChannel.csvHeader)
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        let rows = channels.map { ch in
            [
                file, container, encoding, n(sampleRate), String(channelCount), String(frameCount), n(duration),
                String(ch.channel), n(ch.rms), n(ch.rmsDBFS), n(ch.peak), n(ch.peakDBFS), n(ch.crestFactorDB),
                n(ch.dcOffset), String(ch.clippedSamples), n(ch.dominantFrequency), n(ch.spectralFlatness),
            ] + levelColumns(ch.channel)
        }
        return (header, rows)
    }

    /// The sound-level columns of one channel (empty values for a channel not analysed).
    private func levelColumns(_ channel: Int) -> [String] {
        guard let level = soundLevel else { return [] }
        guard let ch = level.channels.first(where: { $0.channel == channel }) else {
            return [level.unit] + SoundLevelChannel.csvHeader.map { _ in "" }
        }
        return [level.unit] + ch.csvValues
    }
}
