import Foundation

/// Reads mPower tapping files (`tapping_results.json.TappingSamples`, `tapping_left.json.TappingSamples`,
/// `tapping_right.json.TappingSamples`) into a ``TappingRecording``.
///
/// Accepted shape: a JSON array of
/// `{"TapTimeStamp": s since the first tap, "TapCoordinate": "{x, y}" (points, a string), "TappedButtonId":
/// "TappedButtonLeft" | "TappedButtonRight" | "TappedButtonNone"}`, or an object holding that array under
/// `TappingSamples` (the whole `tapping_results.json`). Tolerated: `TapCoordinate` as an object `{"x","y"}`;
/// button names in any case or as `left`/`right`/`none`; other keys (ignored). An empty array gives a
/// recording without samples. mPower records no tap durations, button frames or view size, so those are
/// nil; samples keep the recorded order.
public enum MPowerTappingReader {
    /// Reads the file at `path` (gzip allowed).
    /// - Throws: ``InputError``: `.unreadable`, `.syntax` (not JSON), or `.schema` at the JSON path of the bad
    ///   field (`$[12].TapCoordinate`).
    public static func read(path: String) throws(InputError) -> TappingRecording {
        try decode(try DialectFiles.read(path: path), file: path)
    }

    /// Decodes JSON bytes held in memory; `file` names them in errors.
    public static func decode(_ data: Data, file: String) throws(InputError) -> TappingRecording {
        try recording(from: try JSONParser.parse(data, file: file), file: file)
    }

    /// Decodes an already parsed document.
    public static func recording(from document: JSONValue, file: String) throws(InputError) -> TappingRecording {
        var root = "$"
        var value = document
        if let object = document.objectValue, let inner = object["TappingSamples"] {
            root = "$.TappingSamples"
            value = inner
        }
        guard let items = value.arrayValue else {
            throw InputError(
                .schema, file: file, location: root, expected: "an array of tap samples (TappingSamples)",
                found: value.summary)
        }
        var samples: [TapSample] = []
        samples.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            let at = "\(root)[\(k)]"
            guard let o = item.objectValue else {
                throw InputError(
                    .schema, file: file, location: at, expected: "a tap sample object", found: item.summary)
            }
            func field(_ key: String) throws(InputError) -> JSONValue {
                guard let v = o[key] else {
                    throw InputError(
                        .schema, file: file, location: at, expected: "field \"\(key)\"",
                        found: "an object with keys \(o.keys.joined(separator: ", "))")
                }
                return v
            }
            let t = try field("TapTimeStamp")
            guard let timestamp = t.numberValue else {
                throw InputError(
                    .schema, file: file, location: at + ".TapTimeStamp", expected: "a number (s)", found: t.summary)
            }
            let c = try field("TapCoordinate")
            guard let location = coordinate(c) else {
                throw InputError(
                    .schema, file: file, location: at + ".TapCoordinate",
                    expected: "a string \"{x, y}\" of two numbers (points)", found: c.summary,
                    message: "malformed TapCoordinate")
            }
            let b = try field("TappedButtonId")
            guard let button = b.stringValue.flatMap(TapSpellings.button) else {
                throw InputError(
                    .schema, file: file, location: at + ".TappedButtonId", expected: TapSpellings.acceptedButtons,
                    found: b.summary, message: "unknown TappedButtonId")
            }
            samples.append(TapSample(timestamp: timestamp, duration: nil, button: button, location: location))
        }
        return TappingRecording(samples: samples)
    }

    /// Parses mPower's `TapCoordinate` string `"{x, y}"` (points); nil when malformed.
    public static func coordinate(_ text: String) -> ViewPoint? { TapSpellings.point(text) }

    /// A `TapCoordinate` value: the `"{x, y}"` string, or the tolerated `{"x": …, "y": …}` object.
    static func coordinate(_ value: JSONValue) -> ViewPoint? {
        if let s = value.stringValue { return TapSpellings.point(s) }
        if let o = value.objectValue, let x = o["x"]?.numberValue, let y = o["y"]?.numberValue {
            return ViewPoint(x: x, y: y)
        }
        return nil
    }
}
