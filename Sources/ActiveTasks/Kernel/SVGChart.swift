import Foundation
import SensorSignal
import StudyInputs

/// A small inline-SVG chart: linear axes with ticks, line series, markers, horizontal reference lines and
/// histogram bars; no scripts, no external assets, valid XML (so it embeds in HTML and parses with XMLParser).
public struct SVGChart: Sendable {
    /// A series drawn on the chart.
    public enum Layer: Sendable {
        /// A polyline through the points.
        case line(points: [(x: Double, y: Double)], color: String, label: String)
        /// A short vertical tick at each x, at the top of the plot (e.g. detected steps).
        case ticks(xs: [Double], color: String, label: String)
        /// Dots at the points.
        case dots(points: [(x: Double, y: Double)], color: String, label: String)
        /// A horizontal line at y across the plot.
        case horizontal(y: Double, color: String, label: String)
        /// Bars from the x axis: each covers `[x0, x1)` with height `y`.
        case bars(bins: [(x0: Double, x1: Double, y: Double)], color: String, label: String)
    }

    /// The chart's title.
    public var title: String
    /// The x and y axis labels, with units.
    public var xLabel: String
    /// The y axis label, with units.
    public var yLabel: String
    /// What is drawn, in order.
    public var layers: [Layer]
    /// Outer size, px.
    public var width = 720.0
    /// Outer height, px.
    public var height = 260.0
    /// Labels for y values (e.g. button lanes); numeric ticks when nil.
    public var yCategories: [(value: Double, label: String)]?
    /// Draw the title inside the chart (it stays the accessible name either way); off where the page already
    /// gives the chart a heading.
    public var showsTitle = true
    /// The y axis counts things (records, taps): ticks at whole numbers only.
    public var integerY = false
    /// The smallest y range shown, in y units (a nearly constant level would otherwise fill the chart with its
    /// hundredths of a dB); nil for none.
    public var minimumYSpan: Double?
    /// The y range shown, in y units, instead of the layers' own (small multiples share one); nil for the layers'.
    public var yRange: ClosedRange<Double>?
    /// The x range shown, in x units, instead of the layers' own; nil for the layers'.
    public var xRange: ClosedRange<Double>?
    /// The x values are days since 1970-01-01 (UTC calendar): ticks at whole days, labelled `YYYY-MM-DD`.
    public var xDays = false

    /// Creates a chart.
    public init(title: String, xLabel: String, yLabel: String, layers: [Layer]) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.layers = layers
    }

    /// The chart as an `<svg>` element (no XML declaration, so it can be inlined).
    public func render() -> String {
        let left = 64.0, right = 16.0, top = 34.0, bottom = 46.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        var xs: [Double] = [], ys: [Double] = []
        for layer in layers {
            switch layer {
            case .line(let p, _, _), .dots(let p, _, _):
                xs += p.map(\.x)
                ys += p.map(\.y)
            case .ticks(let t, _, _): xs += t
            case .horizontal(let y, _, _): ys.append(y)
            case .bars(let b, _, _):
                xs += b.flatMap { [$0.x0, $0.x1] }
                ys += b.map(\.y) + [0]
            }
        }
        if let categories = yCategories { ys += categories.map(\.value) }
        xs = xs.filter(\.isFinite)
        ys = ys.filter(\.isFinite)
        var (x0, x1) = (xs.min() ?? 0, xs.max() ?? 1)
        var (y0, y1) = (ys.min() ?? 0, ys.max() ?? 1)
        if let xRange, xRange.lowerBound.isFinite, xRange.upperBound.isFinite {
            (x0, x1) = (xRange.lowerBound, xRange.upperBound)
        }
        if x1 <= x0 { (x0, x1) = (x0 - 0.5, x0 + 0.5) }
        if let yRange, yRange.lowerBound.isFinite, yRange.upperBound.isFinite {
            (y0, y1) = (yRange.lowerBound, yRange.upperBound)
        }
        if y1 <= y0 { (y0, y1) = (y0 - 0.5, y0 + 0.5) }
        if let minimumYSpan, minimumYSpan.isFinite, y1 - y0 < minimumYSpan {
            let middle = y0 / 2 + y1 / 2
            (y0, y1) = (middle - minimumYSpan / 2, middle + minimumYSpan / 2)
        }
        let pad = (y1 - y0) * 0.06
        y0 -= pad
        y1 += pad
        func px(_ x: Double) -> Double { left + (x - x0) / (x1 - x0) * plotWidth }
        func py(_ y: Double) -> Double { top + (1 - (y - y0) / (y1 - y0)) * plotHeight }

        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
        s += "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\" "
        s += "role=\"img\" aria-label=\"\(Self.escape(title))\">"
        s += "<title>\(Self.escape(title))</title>"
        s += "<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"white\"/>"
        if showsTitle {
            s += "<text x=\"\(n(left))\" y=\"18\" font-size=\"13\" font-weight=\"bold\">\(Self.escape(title))</text>"
        }
        // Axes, ticks and grid.
        s += "<g stroke=\"#cccccc\" stroke-width=\"1\">"
        var labels = ""
        // Date labels are ~10 characters: fewer ticks on a narrow chart.
        let xTicks = xDays ? Self.ticks(x0, x1, integers: true, count: max(2, plotWidth / 90)) : Self.ticks(x0, x1)
        for t in xTicks {
            s += "<line x1=\"\(n(px(t)))\" y1=\"\(n(top))\" x2=\"\(n(px(t)))\" y2=\"\(n(top + plotHeight))\"/>"
            let label = xDays ? Self.day(t) : Self.format(t)
            labels += "<text x=\"\(n(px(t)))\" y=\"\(n(top + plotHeight + 14))\" text-anchor=\"middle\">\(label)</text>"
        }
        let yTicks = yCategories ?? Self.ticks(y0, y1, integers: integerY).map { ($0, Self.format($0)) }
        for (t, label) in yTicks {
            s += "<line x1=\"\(n(left))\" y1=\"\(n(py(t)))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(py(t)))\"/>"
            labels += "<text x=\"\(n(left - 6))\" y=\"\(n(py(t) + 4))\" text-anchor=\"end\">\(Self.escape(label))</text>"
        }
        s += "</g><g fill=\"#333333\">" + labels + "</g>"
        s += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\" fill=\"none\" stroke=\"#666666\"/>"
        s += "<text x=\"\(n(left + plotWidth / 2))\" y=\"\(n(height - 8))\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>"
        s += "<text transform=\"translate(14 \(n(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(Self.escape(yLabel))</text>"
        // Layers.
        var legend: [(String, String)] = []
        for layer in layers {
            switch layer {
            case .line(let p, let color, let label):
                let pts = p.filter { $0.x.isFinite && $0.y.isFinite }.map { "\(n(px($0.x))),\(n(py($0.y)))" }
                s += "<polyline class=\"series\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.2\" points=\"\(pts.joined(separator: " "))\"/>"
                legend.append((color, label))
            case .dots(let p, let color, let label):
                s += "<g class=\"dots\" fill=\"\(color)\">"
                for point in p where point.x.isFinite && point.y.isFinite {
                    s += "<circle cx=\"\(n(px(point.x)))\" cy=\"\(n(py(point.y)))\" r=\"2.5\"/>"
                }
                s += "</g>"
                legend.append((color, label))
            case .ticks(let t, let color, let label):
                s += "<g class=\"ticks\" stroke=\"\(color)\" stroke-width=\"1\">"
                for x in t where x.isFinite {
                    s += "<line x1=\"\(n(px(x)))\" y1=\"\(n(top + 2))\" x2=\"\(n(px(x)))\" y2=\"\(n(top + 14))\"/>"
                }
                s += "</g>"
                legend.append((color, label))
            case .horizontal(let y, let color, let label):
                s += "<line class=\"reference\" x1=\"\(n(left))\" y1=\"\(n(py(y)))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(py(y)))\" stroke=\"\(color)\" stroke-dasharray=\"6 4\"/>"
                legend.append((color, label))
            case .bars(let bins, let color, let label):
                s += "<g class=\"bars\" fill=\"\(color)\">"
                for b in bins where b.y > 0 {
                    let x = px(b.x0), w = max(1, px(b.x1) - px(b.x0) - 1)
                    s += "<rect x=\"\(n(x))\" y=\"\(n(py(b.y)))\" width=\"\(n(w))\" height=\"\(n(py(0) - py(b.y)))\"/>"
                }
                s += "</g>"
                legend.append((color, label))
            }
        }
        var lx = left + plotWidth
        for (color, label) in legend.reversed() where !label.isEmpty {
            lx -= 14 + Double(label.count) * 6
            s += "<rect x=\"\(n(lx))\" y=\"10\" width=\"10\" height=\"10\" fill=\"\(color)\"/>"
            s += "<text x=\"\(n(lx + 13))\" y=\"19\">\(Self.escape(label))</text>"
        }
        return s + "</svg>"
    }

    /// About `count` (six by default) round tick values covering `[a, b]`; with `integers`, whole numbers only (a
    /// step of at least 1).
    static func ticks(_ a: Double, _ b: Double, integers: Bool = false, count: Double = 6) -> [Double] {
        let span = b - a
        guard span > 0, span.isFinite else { return [a] }
        let raw = span / max(1, count)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        var step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        if integers { step = max(step, 1) }
        var t = (a / step).rounded(.up) * step
        var out: [Double] = []
        while t <= b + step * 1e-9 && out.count < 20 {
            out.append(abs(t) < step * 1e-9 ? 0 : t)
            t += step
        }
        return out
    }

    /// A day number (days since 1970-01-01) as `YYYY-MM-DD`; the number itself when it is not a plausible day.
    static func day(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 3_000_000 else { return format(v) }
        let d = ResultDate.civilFromDays(Int.clamped(v.rounded(.down), to: -3_000_000...3_000_000))
        func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
        return "\(d.year)-\(two(d.month))-\(two(d.day))"
    }

    /// A tick label: integers without a point, others to 4 significant digits.
    static func format(_ v: Double) -> String { ResultEncoding.number(v, digits: 4) }

    private func n(_ v: Double) -> String { String(format: "%.1f", v) }

    /// Escapes text for XML content and attributes.
    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension SVGChart {
    /// Equal-width bins (Sturges' rule, at least 5) over the values' range.
    public static func histogram(_ values: [Double]) -> [(x0: Double, x1: Double, y: Double)] {
        let finite = values.filter(\.isFinite)
        guard let lo = finite.min(), let hi = finite.max() else { return [] }
        // ⌈log2 n⌉ + 1 for n ≥ 1 is at most 64: the conversion is in range.
        let count = max(5, Int(log2(Double(finite.count)).rounded(.up)) + 1)
        // hi − lo overflows for values near ±1.8e308: divide first, so the width stays finite.
        let width = hi > lo ? hi / Double(count) - lo / Double(count) : 1
        // Edges computed in halves (exact in binary floating point), so k·width cannot overflow either.
        func edge(_ k: Int) -> Double { (lo / 2 + Double(k) * (width / 2)) * 2 }
        var bins = (0..<count).map { (x0: edge($0), x1: edge($0 + 1), y: 0.0) }
        for v in finite { bins[Int.clamped(v / width - lo / width, to: 0...(count - 1))].y += 1 }
        return bins
    }
}
