import Foundation

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
        for ch in channels {
            sections.append(
                (
                    "Channel \(ch.channel)",
                    [
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
        ]
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        let rows = channels.map { ch in
            [
                file, container, encoding, n(sampleRate), String(channelCount), String(frameCount), n(duration),
                String(ch.channel), n(ch.rms), n(ch.rmsDBFS), n(ch.peak), n(ch.peakDBFS), n(ch.crestFactorDB),
                n(ch.dcOffset), String(ch.clippedSamples), n(ch.dominantFrequency), n(ch.spectralFlatness),
            ]
        }
        return (header, rows)
    }
}
