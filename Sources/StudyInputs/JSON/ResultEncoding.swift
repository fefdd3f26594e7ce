import Foundation

/// Encodes results as JSON, aligned text or CSV.
public enum ResultEncoding {
    /// JSON text: pretty-printed, sorted keys, slashes unescaped, trailing newline.
    ///
    /// - Throws: ``ExportError`` naming the field (`field channels[0].rms: nan is not a finite number`) when a value
    ///   is NaN or ±∞ — the processors exclude such values, so this is the last line of defence, never a raw
    ///   `EncodingError`.
    public static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(value) } catch EncodingError.invalidValue(let bad, let context) {
            let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let name = field.hasPrefix(".") ? String(field.dropFirst()) : field
            throw nonFiniteError(field: name, value: bad)
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// JSON text of a tree, exactly as the generic `json(_:)` writes it, without `JSONEncoder`'s boxes (see
    /// ``JSONTextWriter``): how the export documents are written.
    ///
    /// - Throws: ``ExportError`` naming the first NaN or ±∞ (`field entry[0].valueQuantity.value: nan is not a finite
    ///   number`).
    public static func json(_ value: JSONValue) throws -> String {
        try JSONTextWriter.text(value, pretty: true) + "\n"
    }

    /// The error for a NaN or ±∞ at `field` (a path such as `channels[0].rms`; empty for the top level).
    static func nonFiniteError(field: String, value: Any) -> ExportError {
        ExportError("field \(field.isEmpty ? "(top level)" : field): \(value) is not a finite number")
    }

    /// A number in its shortest exact text: integers (|x| < 10¹⁵) without a decimal point, others in Swift's
    /// shortest round-trip form (`71.25`, `1e-05`). MORK's `data_value` and the survey rows use it.
    public static func exact(_ x: Double) -> String {
        if abs(x) < 1e15, let integer = Int64(exactly: x) { return String(integer) }
        return "\(x)"
    }

    /// JSON text on one line (sorted keys, slashes unescaped, no trailing newline): for a JSON value inside a CSV
    /// cell.
    public static func compactJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// JSON text of a tree on one line, exactly as the generic `compactJSON(_:)` writes it, without
    /// `JSONEncoder`'s boxes (see ``JSONTextWriter``).
    ///
    /// - Throws: ``ExportError`` naming the first NaN or ±∞.
    public static func compactJSON(_ value: JSONValue) throws -> String {
        try JSONTextWriter.text(value, pretty: false)
    }

    /// Aligned two-column text with section headings.
    public static func table(_ sections: [(title: String, rows: [(String, String)])]) -> String {
        let width = sections.flatMap { $0.rows.map(\.0.count) }.max() ?? 0
        var out = ""
        for (i, section) in sections.enumerated() {
            if i > 0 { out += "\n" }
            out += TerminalText.visible(section.title, keepingLineBreaks: false) + "\n"
            for (label, value) in section.rows {
                // Values come from inputs: no control character reaches the terminal.
                let shown = TerminalText.visible(value, keepingLineBreaks: false)
                out +=
                    "  " + TerminalText.visible(label, keepingLineBreaks: false)
                    + String(repeating: " ", count: width - label.count) + "  " + shown + "\n"
            }
        }
        return out
    }

    /// Quotes a CSV field when it contains a comma, quote or line break (RFC 4180).
    public static func csvField(_ s: String) -> String {
        // A byte test: a comma, quote, CR or LF byte never occurs inside another UTF-8 character.
        guard s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Formats a number for text output: up to `digits` significant decimals, no exponent for
    /// ordinary magnitudes; `—` for nil.
    public static func number(_ value: Double?, digits: Int = 6) -> String {
        guard let value else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.\(digits)g", value)
    }
}
