import Foundation
import StudyInputs

/// One plotted point of an audiogram.
public struct AudiogramPoint: Sendable, Hashable {
    /// Frequency, Hz.
    public var frequency: Double
    /// Threshold, dB HL; for a no-response point, the highest level presented.
    public var level: Double
    /// True when no threshold was found (drawn with a downward arrow).
    public var noResponse: Bool

    /// Creates a point.
    public init(frequency: Double, level: Double, noResponse: Bool = false) {
        self.frequency = frequency
        self.level = level
        self.noResponse = noResponse
    }
}

/// Draws a standard pure-tone audiogram as SVG (ASHA 1990 symbol conventions).
///
/// Geometry: frequency on a log₂ axis from 125 to 8000 Hz (six equal octaves, inter-octave frequencies dashed),
/// hearing level from −10 dB HL at the top to 120 dB HL at the bottom, 10 dB grid; an octave spans the same
/// distance as 20 dB (the conventional aspect). Right ear: red `O`, solid line; left ear: blue `X`, dashed
/// line; no response: the symbol at the highest level presented with an arrow pointing down and outwards
/// (down-left for the right ear, down-right for the left). Every symbol carries `data-ear`,
/// `data-frequency`, `data-level`, `data-x` and `data-y` attributes. Standalone SVG 1.1, viewable in any browser.
public enum AudiogramSVG {
    /// Left edge of the plot area, px.
    public static let plotLeft = 70.0
    /// Top edge of the plot area, px.
    public static let plotTop = 60.0
    /// Width of one octave, px.
    public static let octaveWidth = 90.0
    /// Height of 10 dB, px (an octave = 20 dB).
    public static let tenDecibels = 45.0
    /// Lowest level on the axis, dB HL.
    public static let minimumLevel = -10.0
    /// Highest level on the axis, dB HL.
    public static let maximumLevel = 120.0

    /// Horizontal position of a frequency, px.
    public static func x(frequency: Double) -> Double { plotLeft + log2(frequency / 125) * octaveWidth }

    /// Vertical position of a level, px (clamped to the axis).
    public static func y(level: Double) -> Double {
        plotTop + (min(max(level, minimumLevel), maximumLevel) - minimumLevel) / 10 * tenDecibels
    }

    /// Renders the audiogram.
    /// - Parameters:
    ///   - ears: the points of each ear (frequencies outside 125–8000 Hz are left out).
    ///   - title: the heading.
    /// - Returns: the SVG document text.
    public static func render(ears: [(ear: Ear, points: [AudiogramPoint])], title: String = "Audiogram") -> String {
        let width = plotLeft + 6 * octaveWidth + 150
        let plotBottom = y(level: maximumLevel)
        let plotRight = x(frequency: 8000)
        let height = plotBottom + 50
        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(f(width))" height="\(f(height))" \
            viewBox="0 0 \(f(width)) \(f(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <title>\(escape(title))</title>
            <rect x="0" y="0" width="\(f(width))" height="\(f(height))" fill="white"/>
            <text x="\(f((plotLeft + plotRight) / 2))" y="20" text-anchor="middle" font-size="15">\(escape(title))</text>
            <g id="grid" stroke="#bbbbbb" stroke-width="1">

            """
        for octave in 0...6 {
            let fr = 125 * pow(2, Double(octave))
            s += "<line x1=\"\(f(x(frequency: fr)))\" y1=\"\(f(plotTop))\" x2=\"\(f(x(frequency: fr)))\" y2=\"\(f(plotBottom))\"/>\n"
        }
        for fr in [750.0, 1500, 3000, 6000] {
            s += "<line x1=\"\(f(x(frequency: fr)))\" y1=\"\(f(plotTop))\" x2=\"\(f(x(frequency: fr)))\" y2=\"\(f(plotBottom))\" stroke-dasharray=\"3,3\"/>\n"
        }
        for level in stride(from: minimumLevel, through: maximumLevel, by: 10) {
            let w = level == 0 ? " stroke=\"#666666\"" : ""
            s += "<line x1=\"\(f(plotLeft))\" y1=\"\(f(y(level: level)))\" x2=\"\(f(plotRight))\" y2=\"\(f(y(level: level)))\"\(w)/>\n"
        }
        s += "</g>\n<g id=\"labels\" fill=\"black\">\n"
        for fr in [125.0, 250, 500, 1000, 2000, 4000, 8000, 750, 1500, 3000, 6000] {
            let big = fr >= 1000 ? (fr / 1000 == (fr / 1000).rounded() ? "\(Int(fr / 1000))k" : String(format: "%.1fk", fr / 1000)) : "\(Int(fr))"
            let yy = [750.0, 1500, 3000, 6000].contains(fr) ? plotTop - 8 : plotTop - 22
            s += "<text x=\"\(f(x(frequency: fr)))\" y=\"\(f(yy))\" text-anchor=\"middle\">\(big)</text>\n"
        }
        for level in stride(from: minimumLevel, through: maximumLevel, by: 10) {
            s += "<text x=\"\(f(plotLeft - 8))\" y=\"\(f(y(level: level) + 4))\" text-anchor=\"end\">\(Int(level))</text>\n"
        }
        s += "<text x=\"\(f((plotLeft + plotRight) / 2))\" y=\"\(f(plotBottom + 30))\" text-anchor=\"middle\">Frequency (Hz)</text>\n"
        s += "<text x=\"20\" y=\"\(f((plotTop + plotBottom) / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 20 \(f((plotTop + plotBottom) / 2)))\">Hearing level (dB HL)</text>\n"
        s += "</g>\n"
        for (ear, points) in ears {
            let shown = points.filter { $0.frequency >= 125 && $0.frequency <= 8000 }.sorted { $0.frequency < $1.frequency }
            let color = ear == .right ? "#d62728" : "#1f4fd6"
            s += "<g id=\"\(ear.rawValue)-ear\" stroke=\"\(color)\" stroke-width=\"2\" fill=\"none\">\n"
            let connected = shown.filter { !$0.noResponse }
            if connected.count > 1 {
                let pts = connected.map { "\(f(x(frequency: $0.frequency))),\(f(y(level: $0.level)))" }.joined(separator: " ")
                let dash = ear == .left ? " stroke-dasharray=\"6,4\"" : ""
                s += "<polyline class=\"connector\" points=\"\(pts)\"\(dash)/>\n"
            }
            for p in shown { s += symbol(ear: ear, point: p) }
            s += "</g>\n"
        }
        // Legend.
        let lx = plotRight + 30
        s += "<g id=\"legend\">\n"
        s += "<circle cx=\"\(f(lx))\" cy=\"\(f(plotTop + 10))\" r=\"7\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>"
        s += "<text x=\"\(f(lx + 14))\" y=\"\(f(plotTop + 14))\">Right ear</text>\n"
        s += "<path d=\"M\(f(lx - 6)),\(f(plotTop + 34)) L\(f(lx + 6)),\(f(plotTop + 46)) M\(f(lx - 6)),\(f(plotTop + 46)) L\(f(lx + 6)),\(f(plotTop + 34))\" stroke=\"#1f4fd6\" stroke-width=\"2\"/>"
        s += "<text x=\"\(f(lx + 14))\" y=\"\(f(plotTop + 44))\">Left ear</text>\n"
        s += "<text x=\"\(f(lx - 6))\" y=\"\(f(plotTop + 74))\">↓ no response</text>\n"
        s += "</g>\n</svg>\n"
        return s
    }

    private static func symbol(ear: Ear, point p: AudiogramPoint) -> String {
        let cx = x(frequency: p.frequency)
        let cy = y(level: p.level)
        let data =
            "data-ear=\"\(ear.rawValue)\" data-frequency=\"\(f(p.frequency))\" data-level=\"\(f(p.level))\" "
            + "data-x=\"\(f(cx))\" data-y=\"\(f(cy))\" data-no-response=\"\(p.noResponse)\""
        var s: String
        switch ear {
        case .right:
            s = "<circle class=\"symbol\" \(data) cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"7\"/>\n"
        case .left:
            s = "<path class=\"symbol\" \(data) d=\"M\(f(cx - 6)),\(f(cy - 6)) L\(f(cx + 6)),\(f(cy + 6)) M\(f(cx - 6)),\(f(cy + 6)) L\(f(cx + 6)),\(f(cy - 6))\"/>\n"
        }
        if p.noResponse {
            let dx = ear == .right ? -1.0 : 1.0
            let (x0, y0) = (cx + dx * 6, cy + 6)
            let (x1, y1) = (cx + dx * 18, cy + 18)
            s += "<path class=\"no-response\" data-ear=\"\(ear.rawValue)\" data-frequency=\"\(f(p.frequency))\" "
                + "d=\"M\(f(x0)),\(f(y0)) L\(f(x1)),\(f(y1)) M\(f(x1)),\(f(y1)) L\(f(x1 - dx * 7)),\(f(y1)) "
                + "M\(f(x1)),\(f(y1)) L\(f(x1)),\(f(y1 - 7))\"/>\n"
        }
        return s
    }

    /// The points of each ear of a dB HL result: one per frequency (the lower of repeated thresholds); a
    /// frequency without a threshold is plotted as no response at its highest presented level.
    public static func points(of result: DBHLAudiometryResult) -> [(ear: Ear, points: [AudiogramPoint])] {
        result.ears.map { ear in
            let thresholds = ear.thresholds()
            var points = thresholds.map { AudiogramPoint(frequency: $0.key, level: $0.value) }
            for fr in ear.noResponseFrequencies {
                let highest = ear.frequencies.filter { $0.frequency == fr }.compactMap(\.highestLevelPresented).max()
                points.append(AudiogramPoint(frequency: fr, level: highest ?? maximumLevel, noResponse: true))
            }
            return (ear.ear, points.sorted { $0.frequency < $1.frequency })
        }
    }

    /// Renders a dB HL result.
    public static func render(_ result: DBHLAudiometryResult) -> String {
        var title = "Audiogram"
        if let source = result.source { title += " — " + URL(fileURLWithPath: source).lastPathComponent }
        return render(ears: points(of: result), title: title)
    }

    private static func f(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.2f", v)
    }

    /// XML escaping, shared with the report's charts.
    private static func escape(_ s: String) -> String { SVGChart.escape(s) }
}
