import Foundation

/// The spellings of tap buttons and view geometry that the mPower, mhealthtools and MyDataHelps readers share.
enum TapSpellings {
    /// Human list of the accepted button names, for error messages.
    static let acceptedButtons =
        "TappedButtonLeft, TappedButtonRight or TappedButtonNone (also left, right, none, any case)"

    /// `TappedButtonLeft|Right|None` (mPower), `left|right|none` (ResearchKit, MyDataHelps), any case.
    static func button(_ text: String) -> TapButton? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "tappedbuttonleft", "left", "buttonleft": .left
        case "tappedbuttonright", "right", "buttonright": .right
        case "tappedbuttonnone", "none", "buttonnone": TapButton.none
        default: nil
        }
    }

    /// A JSON button value: a string as ``button(_:)``, or ResearchKit's `ORKTappingButtonIdentifier` integer
    /// (0 none, 1 left, 2 right).
    static func button(_ value: JSONValue) -> TapButton? {
        switch value {
        case .string(let s): button(s)
        case .number(0): TapButton.none
        case .number(1): .left
        case .number(2): .right
        default: nil
        }
    }

    /// A brace-structured geometry string as Foundation's `NSStringFromCGPoint` / `…CGSize` / `…CGRect` write
    /// it: `{89.5, 454}`, `{{0, 0}, {100, 50}}`.
    indirect enum Braces: Equatable {
        case number(Double)
        case group([Braces])

        /// The two numbers of a flat pair `{a, b}`.
        var pair: (Double, Double)? {
            guard case .group(let items) = self, items.count == 2, case .number(let a) = items[0],
                case .number(let b) = items[1]
            else { return nil }
            return (a, b)
        }
    }

    /// Parses a whole brace string (spaces allowed around tokens); nil when malformed.
    static func braces(_ text: String) -> Braces? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { raw -> Braces? in
            let b = UnsafeBufferPointer(raw)
            var i = 0
            func skip() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 } }
            func value(depth: Int) -> Braces? {
                skip()
                guard i < b.count, depth < 4 else { return nil }
                if b[i] != UInt8(ascii: "{") {
                    guard let (v, end) = DecimalParser.scan(b, from: i), v.isFinite else { return nil }
                    i = end
                    return .number(v)
                }
                i += 1
                var items: [Braces] = []
                while true {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skip()
                    guard i < b.count else { return nil }
                    if b[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    guard b[i] == UInt8(ascii: "}") else { return nil }
                    i += 1
                    return .group(items)
                }
            }
            guard let v = value(depth: 0) else { return nil }
            skip()
            return i == b.count ? v : nil
        }
    }

    /// `"{x, y}"` → a point, or nil.
    static func point(_ text: String) -> ViewPoint? {
        braces(text)?.pair.map { ViewPoint(x: $0.0, y: $0.1) }
    }
}
