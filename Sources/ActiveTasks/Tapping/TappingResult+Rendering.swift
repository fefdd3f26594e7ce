import Foundation
import StudyInputs

extension TappingResult: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes one flat object: identification, every feature under its R name (null where R gives
    /// NA/NaN/Inf), `error` (null on success), the extras (null where undefined) and `accelerometer` (null
    /// without a log).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind, forKey: Key("kind"))
        try c.encode(stepIdentifier, forKey: Key("stepIdentifier"))
        try c.encode(source, forKey: Key("source"))
        try c.encode(features.variant.rawValue, forKey: Key("variant"))
        for (name, value) in features.namedValues {
            if name == "numberTaps" {
                try c.encode(features.numberTaps, forKey: Key(name))
            } else {
                try c.encode(value, forKey: Key(name))
            }
        }
        try c.encode(features.error, forKey: Key("error"))
        for (name, value) in extras.namedValues {
            if let value, value == value.rounded(), abs(value) < 1e15, Self.countKeys.contains(name) {
                try c.encode(Int(value), forKey: Key(name))
            } else {
                try c.encode(value, forKey: Key(name))
            }
        }
        try c.encode(accelerometer, forKey: Key("accelerometer"))
        if !warnings.isEmpty { try c.encode(warnings, forKey: Key("warnings")) }
    }

    /// The extras that are counts (encoded as JSON integers).
    static let countKeys: Set<String> = [
        "tapCount", "leftTaps", "rightTaps", "noneTaps", "tapsOutsideButtons", "backwardsTimestamps",
        "repeatedTimestamps",
    ]
}

extension TappingResult: RenderableResult {
    /// Sections for the aligned-text form: the recording, the R features, the extras, the accelerometer.
    public var tableSections: [(title: String, rows: [(String, String)])] {
        let n = { (v: Double?) in v.map { ResultEncoding.number($0, digits: 6) } ?? "—" }
        var recording: [(String, String)] = [("variant", features.variant.rawValue)]
        if let stepIdentifier { recording.append(("step", stepIdentifier)) }
        if let source { recording.append(("file", source)) }
        recording.append(("error", features.error ?? "none"))
        var sections: [(title: String, rows: [(String, String)])] = [
            ("Tapping " + (stepIdentifier ?? source ?? ""), recording),
            ("Features (\(features.variant.rawValue))", features.namedValues.map { ($0.name, n($0.value)) }),
            ("Extras", extras.namedValues.map { ($0.name, n($0.value)) }),
        ]
        if let a = accelerometer {
            sections.append(
                (
                    "Accelerometer",
                    [
                        ("file", a.file), ("samples", String(a.samples)), ("duration", n(a.duration) + " s"),
                        ("sampling rate", n(a.samplingRate) + " Hz"), ("|a| mean", n(a.magnitudeMean) + " g"),
                        ("|a| sd", n(a.magnitudeSD) + " g"), ("|a| range", n(a.magnitudeRange) + " g"),
                    ]
                ))
        }
        return sections
    }

    /// One CSV row: identification, the R features (empty where NA), `error`, the extras and the accelerometer
    /// summary (`accelerometer…` columns, empty without a log).
    public var csvTable: (header: [String], rows: [[String]]) {
        let n = Self.csvNumber
        var header = ["stepIdentifier", "source", "variant"]
        var row = [stepIdentifier ?? "", source ?? "", features.variant.rawValue]
        for (name, value) in features.namedValues {
            header.append(name)
            row.append(n(value))
        }
        header.append("error")
        row.append(features.error ?? "")
        for (name, value) in extras.namedValues {
            header.append(name)
            row.append(n(value))
        }
        let a = accelerometer
        header += [
            "accelerometerFile", "accelerometerSamples", "accelerometerDuration", "accelerometerSamplingRate",
            "accelerometerMagnitudeMean", "accelerometerMagnitudeSD", "accelerometerMagnitudeRange",
        ]
        row += [
            a?.file ?? "", a.map { String($0.samples) } ?? "", n(a?.duration), n(a?.samplingRate),
            n(a?.magnitudeMean), n(a?.magnitudeSD), n(a?.magnitudeRange),
        ]
        return (header, [row])
    }

    /// A CSV cell: empty for nil or non-finite, whole numbers without a decimal point, anything else as Swift's
    /// shortest round-trip decimal (the same double when read back; far cheaper than `String(format:)`).
    static func csvNumber(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }
}

extension TappingResult: RecordWarnings {
    /// Appends to ``TappingResult/warnings``.
    public mutating func addWarnings(_ warnings: [String]) { self.warnings += warnings }
}
