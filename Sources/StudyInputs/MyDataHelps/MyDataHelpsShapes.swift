import Foundation

/// Tolerant readers for the ResearchKit-like JSON that MyDataHelps puts in CSV cells.
///
/// Keys are matched ignoring case, so ResearchKit spelling (`origin`, `x`, `buttonIdentifier`) and PascalCase (`Origin`,
/// `X`, `ButtonIdentifier`) are the same key.
///
/// Each reader returns nil when the value has none of the accepted shapes; callers turn that into an error
/// naming the accepted shapes (the `…Shapes` strings).
enum MyDataHelpsShapes {
    /// The value of the first of `names` present in `o` (ignoring case), with the key as written.
    static func field(_ o: JSONObject, _ names: [String]) -> (key: String, value: JSONValue)? {
        for name in names {
            let wanted = name.lowercased()
            if let entry = o.entries.last(where: { $0.key.lowercased() == wanted }) { return (entry.key, entry.value) }
        }
        return nil
    }

    static let pointShapes = "{\"x\",\"y\"} (any case) or the string \"{x, y}\""
    static let sizeShapes = "{\"w\",\"h\"} or {\"width\",\"height\"} (any case) or the string \"{w, h}\""
    static let rectShapes =
        "{\"origin\":{\"x\",\"y\"},\"size\":{\"w\",\"h\"}}, {\"X\",\"Y\",\"Width\",\"Height\"} (any case, w/h allowed) "
        + "or the string \"{{x, y}, {w, h}}\""

    /// A point: `{"x","y"}` / `{"X","Y"}`, or `"{x, y}"`.
    static func point(_ v: JSONValue) -> ViewPoint? {
        if let s = v.stringValue { return TapSpellings.point(s) }
        guard let o = v.objectValue, let x = field(o, ["x"])?.value.numberValue,
            let y = field(o, ["y"])?.value.numberValue
        else { return nil }
        return ViewPoint(x: x, y: y)
    }

    /// A size: `{"w","h"}` (ResearchKit), `{"width","height"}` / `{"Width","Height"}`, or `"{w, h}"`.
    static func size(_ v: JSONValue) -> ViewSize? {
        if let s = v.stringValue {
            return TapSpellings.braces(s)?.pair.map { ViewSize(width: $0.0, height: $0.1) }
        }
        guard let o = v.objectValue else { return nil }
        return size(o)
    }

    private static func size(_ o: JSONObject) -> ViewSize? {
        guard let w = field(o, ["width", "w"])?.value.numberValue, let h = field(o, ["height", "h"])?.value.numberValue
        else { return nil }
        return ViewSize(width: w, height: h)
    }

    /// A rectangle: `{"origin":{…},"size":{…}}` (ResearchKit `CGRect`), flat `{"X","Y","Width","Height"}`
    /// (any case; `w`/`h` allowed), or `"{{x, y}, {w, h}}"` (`NSStringFromCGRect`).
    static func rect(_ v: JSONValue) -> ViewRect? {
        if let s = v.stringValue {
            guard case .group(let parts) = TapSpellings.braces(s), parts.count == 2, let o = parts[0].pair,
                let z = parts[1].pair
            else { return nil }
            return ViewRect(origin: ViewPoint(x: o.0, y: o.1), size: ViewSize(width: z.0, height: z.1))
        }
        guard let o = v.objectValue else { return nil }
        if let origin = field(o, ["origin"]), let size = field(o, ["size"]) {
            guard let p = point(origin.value), let z = self.size(size.value) else { return nil }
            return ViewRect(origin: p, size: z)
        }
        guard let x = field(o, ["x"])?.value.numberValue, let y = field(o, ["y"])?.value.numberValue,
            let z = size(o)
        else { return nil }
        return ViewRect(origin: ViewPoint(x: x, y: y), size: z)
    }
}
