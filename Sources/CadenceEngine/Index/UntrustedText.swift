/// Text from outside (a fetched page, a file) made safe to hand to a model or a terminal: control
/// characters go (C0 and C1, DEL, except line breaks and tabs), and so do the bidirectional
/// overrides and isolates and the byte-order mark, which can make text read differently from what
/// it says (the "Trojan Source" trick); `\r\n` and `\r` become `\n`.
///
/// ```swift
/// UntrustedText.cleaned("a\u{1B}[31mb\u{202E}c\r\n")  // "a[31mbc\n"
/// ```
public enum UntrustedText {
    public static func cleaned(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            defer { previousCR = scalar == "\r" }
            switch scalar.value {
            case 0x0D: scalars.append("\n")
            case 0x0A: if !previousCR { scalars.append(scalar) }
            case 0x09: scalars.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F: continue
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
