import Foundation

/// Writes a ``JSONValue`` as JSON text, as `JSONEncoder` does but without its boxes.
///
/// The text is byte for byte what Foundation's `JSONEncoder` writes for the tree with `.sortedKeys` and
/// `.withoutEscapingSlashes` (and `.prettyPrinted` when asked), without `Encodable`'s boxed containers. The export
/// documents (`researchkit`, `mork`, `fhir`) and the batch export lines are trees; through `JSONEncoder` their text
/// took more time than building them. `JSONTextWriterTests` compares the two on every
/// export of the fixtures and on random trees.
///
/// The rules `JSONEncoder` follows (Swift 6.3 Foundation on Linux), kept here:
/// - object keys sorted by their UTF-8 bytes; a repeated key (Swift `String` equality, as ``JSONObject`` encodes
///   itself) written once, with its last value;
/// - numbers as `Double.description` less a trailing `.0` (`3`, `0.1`, `1e-05`, `1e+16`, `-0`); NaN and ±∞ are
///   an error naming the field;
/// - strings: `"` and `\` escaped, control characters as `\b \t \n \f \r` or `\u00xx` (lower-case hex), every other
///   character (`/`, DEL, U+2028, non-ASCII) as it is;
/// - pretty form: two spaces per level, `"key" : value`, one member or element per line, an empty container as its
///   brackets around a blank line; compact form: no spaces at all.
package enum JSONTextWriter {
    /// The JSON text of `value` (no trailing newline).
    ///
    /// - Throws: ``ExportError`` naming the first non-finite number in document order, as
    ///   `ResultEncoding.json(_:)` words it (`field a.b[0]: nan is not a finite number`).
    static func text(_ value: JSONValue, pretty: Bool) throws(ExportError) -> String {
        var writer = Writer(pretty: pretty)
        do {
            try writer.write(value, depth: 0)
        } catch {
            let (path, number) = firstNonFinite(in: value, path: "") ?? ("", .nan)
            let field = path.hasPrefix(".") ? String(path.dropFirst()) : path
            throw ResultEncoding.nonFiniteError(field: field, value: number)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The members of `object` in the order they are written: sorted by UTF-8 bytes, a repeated key once with its
    /// last value.
    static func members(_ object: JSONObject) -> [(key: String, value: JSONValue)] {
        let unique = object.uniqueEntries
        return unique.count > 1 ? unique.sorted { FileTree.precedes($0.key, $1.key) } : unique
    }

    /// The first NaN or ±∞ in the order `JSONEncoder` meets them (document order, repeated keys once with their
    /// last value), with its path as `JSONEncoder`'s coding path spells it (`.a.b[0]`; ``ResultEncoding`` drops the
    /// leading dot).
    static func firstNonFinite(in value: JSONValue, path: String) -> (String, Double)? {
        switch value {
        case .number(let d): return d.isFinite ? nil : (path, d)
        case .array(let items):
            for (i, item) in items.enumerated() {
                if let found = firstNonFinite(in: item, path: path + "[\(i)]") { return found }
            }
            return nil
        case .object(let object):
            for entry in object.uniqueEntries {
                if let found = firstNonFinite(in: entry.value, path: path + "." + entry.key) { return found }
            }
            return nil
        case .null, .bool, .string: return nil
        }
    }

    /// A number that cannot be written (its place is found afterwards, only when it happens).
    struct NonFinite: Error {}

    /// The text under construction, as UTF-8.
    struct Writer {
        var bytes: [UInt8] = []
        let pretty: Bool

        init(pretty: Bool) {
            self.pretty = pretty
            bytes.reserveCapacity(4096)
        }

        mutating func write(_ value: JSONValue, depth: Int) throws(NonFinite) {
            switch value {
            case .null: bytes.append(contentsOf: "null".utf8)
            case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
            case .number(let d):
                guard d.isFinite else { throw NonFinite() }
                let text = d.description
                bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
            case .string(let s): writeString(s)
            case .array(let items):
                bytes.append(UInt8(ascii: "["))
                if pretty { bytes.append(UInt8(ascii: "\n")) }
                for (i, item) in items.enumerated() {
                    if i > 0 { separator() }
                    indent(depth + 1)
                    try write(item, depth: depth + 1)
                }
                close(UInt8(ascii: "]"), depth: depth)
            case .object(let object):
                bytes.append(UInt8(ascii: "{"))
                if pretty { bytes.append(UInt8(ascii: "\n")) }
                for (i, member) in JSONTextWriter.members(object).enumerated() {
                    if i > 0 { separator() }
                    indent(depth + 1)
                    writeString(member.key)
                    if pretty {
                        bytes.append(contentsOf: " : ".utf8)
                    } else {
                        bytes.append(UInt8(ascii: ":"))
                    }
                    try write(member.value, depth: depth + 1)
                }
                close(UInt8(ascii: "}"), depth: depth)
            }
        }

        mutating func separator() {
            bytes.append(UInt8(ascii: ","))
            if pretty { bytes.append(UInt8(ascii: "\n")) }
        }

        mutating func close(_ bracket: UInt8, depth: Int) {
            if pretty {
                bytes.append(UInt8(ascii: "\n"))
                indent(depth)
            }
            bytes.append(bracket)
        }

        mutating func indent(_ depth: Int) {
            guard pretty else { return }
            for _ in 0..<(2 * depth) { bytes.append(UInt8(ascii: " ")) }
        }

        mutating func writeString(_ s: String) { JSONTextWriter.appendString(s, to: &bytes) }
    }

    /// Appends `s` as a JSON string (quotes included), escaped as `JSONEncoder` with `.withoutEscapingSlashes`
    /// escapes it: `"` and `\`, control characters as `\b \t \n \f \r` or `\u00xx`, nothing else.
    package static func appendString(_ s: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = s.utf8
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: utf8)
        } else {
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0..<0x20:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    static let hexDigits = Array("0123456789abcdef".utf8)
}
