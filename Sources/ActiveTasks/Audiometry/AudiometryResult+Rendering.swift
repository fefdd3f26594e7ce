import Foundation
import StudyInputs

extension AudiometryResult: RenderableResult {
    /// Sections for the aligned-text form.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        switch self {
        case .dBHL(let r): r.tableSections
        case .legacy(let r): r.tableSections
        }
    }

    /// One CSV row per ear and frequency (dB HL) or per presentation (legacy), with one shared header.
    public var csvTable: (header: [String], rows: [[String]]) {
        switch self {
        case .dBHL(let r): (Self.csvHeader, r.csvRows)
        case .legacy(let r): (Self.csvHeader, r.csvRows)
        }
    }

    /// The CSV columns of both kinds.
    public static let csvHeader = [
        "kind", "source", "stepIdentifier", "ear", "headphoneType", "outputVolume", "frequency", "testOrder",
        "calculatedThreshold", "noThreshold", "rederivedThreshold", "thresholdsDiffer", "presentations", "hits", "misses",
        "falseAlarms", "clippedPresentations", "medianReactionTime", "highestLevelPresented", "thresholdSPL",
        "thresholdDBFS", "clippingCeiling", "volumeOffset", "volumeCorrectedThreshold", "volumeCorrectedThresholdSPL",
        "pta4", "pta3", "hfa", "whoGrade", "response", "amplitude", "amplitudeDBFS", "issues",
    ]
}

private func n(_ v: Double?) -> String { ResultEncoding.number(v, digits: 10) }
private func db(_ v: Double?, _ unit: String) -> String { v.map { ResultEncoding.number($0, digits: 6) + " " + unit } ?? "—" }

extension DBHLAudiometryResult {
    /// Sections: the test, each ear (calibration, frequencies, averages), both ears, issues.
    var tableSections: [(title: String, rows: [(String, String)])] {
        var head: [(String, String)] = []
        if let source { head.append(("file", source)) }
        if let taskIdentifier { head.append(("task", taskIdentifier)) }
        head.append(("ResearchKit tables", researchKitVersion.description))
        for s in otherSteps { head.append(("other step", s)) }
        var sections: [(title: String, rows: [(String, String)])] = [("dB HL tone audiometry", head)]
        for ear in ears {
            var rows: [(String, String)] = [
                ("headphone", ear.headphoneType ?? "—"),
                ("output volume", ResultEncoding.number(ear.outputVolume)),
            ]
            if let c = ear.calibration {
                rows.append(("calibration", "\(c.tables) tables, volume_curve_\(c.volumeCurve), \(c.retspl) RETSPL"))
            }
            if let e = ear.calibrationError { rows.append(("calibration", e)) }
            if let v = ear.volume, let o = v.offset, o != 0 {
                rows.append(("volume defect", "tones \(ResultEncoding.number(-o)) dB softer than nominal"))
            }
            for f in ear.frequencies {
                var text = f.calculatedThreshold.map { ResultEncoding.number($0) + " dB HL" } ?? "no threshold"
                if f.thresholdsDiffer { text += " (re-derived \(db(f.rederivedThreshold, "dB HL")))" }
                if let spl = f.thresholdSPL { text += ", " + db(spl, "dB SPL") }
                if let c = f.volumeCorrectedThreshold, c != f.calculatedThreshold { text += ", corrected " + db(c, "dB HL") }
                text += ", \(f.presentations) tones"
                if f.falseAlarms > 0 { text += ", \(f.falseAlarms) false alarms" }
                if f.clippedPresentations > 0 { text += ", \(f.clippedPresentations) clipped" }
                if let rt = f.medianReactionTime { text += String(format: ", RT %.2f s", rt) }
                rows.append(("\(ResultEncoding.number(f.frequency)) Hz (#\(f.testOrder))", text))
            }
            rows.append(("PTA4 (0.5–4 kHz)", db(ear.summary.pta4, "dB HL")))
            rows.append(("PTA3 (0.5–2 kHz)", db(ear.summary.pta3, "dB HL")))
            rows.append(("HFA (2/4/8 kHz)", db(ear.summary.hfa, "dB HL")))
            if let d = ear.summary.retestDifference1kHz {
                rows.append(("1 kHz retest", db(d, "dB") + (ear.summary.retestUnreliable ? " (> 5 dB: unreliable)" : "")))
            }
            if let c = ear.volumeCorrectedSummary { rows.append(("PTA4 volume-corrected", db(c.pta4, "dB HL"))) }
            sections.append(("\(ear.ear == .right ? "Right" : "Left") ear (\(ear.stepIdentifier))", rows))
        }
        if let b = bilateral {
            var rows: [(String, String)] = [
                ("better ear", b.betterEar?.rawValue ?? "—"), ("better-ear PTA4", db(b.betterEarPTA4, "dB HL")),
                ("WHO 2021 grade", b.whoGrade?.rawValue ?? "—"),
                ("unilateral", b.unilateral.map { $0 ? "yes" : "no" } ?? "—"),
            ]
            if let c = volumeCorrectedBilateral {
                rows.append(("WHO grade volume-corrected", c.whoGrade?.rawValue ?? "—"))
            }
            for a in b.asymmetry {
                let verdict = a.asymmetric.map { $0 ? "yes" : "no" } ?? "—"
                let at = a.frequencies.isEmpty ? "" : " (" + a.frequencies.map { ResultEncoding.number($0) }.joined(separator: ", ") + " Hz)"
                rows.append(("asymmetry " + a.rule, verdict + at))
            }
            sections.append(("Both ears", rows))
        }
        let allIssues = issues + ears.flatMap { e in e.issues + e.frequencies.flatMap { f in f.issues.map { "\(ResultEncoding.number(f.frequency)) Hz: " + $0 } } }
        if !allIssues.isEmpty {
            sections.append(("Issues", allIssues.enumerated().map { ("\($0.offset + 1)", $0.element) }))
        }
        return sections
    }

    var csvRows: [[String]] {
        ears.flatMap { ear in
            ear.frequencies.map { f in
                [
                    "dBHLToneAudiometry", source ?? "", ear.stepIdentifier, ear.ear.rawValue, ear.headphoneType ?? "",
                    n(ear.outputVolume), n(f.frequency), String(f.testOrder), n(f.calculatedThreshold),
                    String(f.noThreshold), n(f.rederivedThreshold), String(f.thresholdsDiffer), String(f.presentations),
                    String(f.hits), String(f.misses), String(f.falseAlarms), String(f.clippedPresentations),
                    n(f.medianReactionTime), n(f.highestLevelPresented), n(f.thresholdSPL), n(f.thresholdDBFS),
                    n(f.clippingCeiling), n(ear.volume?.offset), n(f.volumeCorrectedThreshold),
                    n(f.volumeCorrectedThresholdSPL), n(ear.summary.pta4), n(ear.summary.pta3), n(ear.summary.hfa),
                    bilateral?.whoGrade?.rawValue ?? "", "", "", "", f.issues.joined(separator: " | "),
                ]
            }
        }
    }
}

extension LegacyToneAudiometryAnalysis {
    /// Sections: the step, then one row per presentation (levels in dBFS).
    var tableSections: [(title: String, rows: [(String, String)])] {
        var head: [(String, String)] = []
        if let source { head.append(("file", source)) }
        if let stepIdentifier { head.append(("step", stepIdentifier)) }
        head.append(("output volume", outputVolume.map { ResultEncoding.number($0) } ?? "—"))
        head.append(("level unit", "dBFS (uncalibrated digital level re full scale)"))
        let rows = presentations.enumerated().map { k, p in
            (
                "\(k + 1)",
                "\(ResultEncoding.number(p.frequency)) Hz \(p.ear?.rawValue ?? "?") ear, response \(p.response), "
                    + (p.amplitudeDBFS.map { String(format: "%.1f dBFS", $0) } ?? "amplitude \(p.amplitude)")
            )
        }
        return [("Tone audiometry (legacy)", head), ("Presentations", rows), ("Issues", issues.enumerated().map { ("\($0.offset + 1)", $0.element) })]
    }

    var csvRows: [[String]] {
        presentations.map { p in
            [
                "toneAudiometry", source ?? "", stepIdentifier ?? "", p.ear?.rawValue ?? "", "", n(outputVolume),
                n(p.frequency), "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
                p.response, n(p.amplitude), n(p.amplitudeDBFS), "",
            ]
        }
    }
}
