/// Text from inputs made safe to show on a terminal: control characters (C0 but tab and line feed, DEL, C1) and
/// the bidirectional overrides that reorder what a terminal shows are written as `\u{1B}` escapes, so that a file
/// name or a cell cannot move the cursor, change colours, set the window title or hide text.
public enum TerminalText {
    /// `text` with every control character and bidi override escaped; tabs and line feeds are kept when
    /// `keepingLineBreaks`, else escaped too.
    public static func visible(_ text: String, keepingLineBreaks: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, keepingLineBreaks) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func needsEscape(_ scalar: Unicode.Scalar, _ keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: !keepingLineBreaks
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
