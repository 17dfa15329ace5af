/// The citation markers in an answer's text: `[1]` and `[1][2]` cite sources `"1"` and `"2"`.
///
/// A marker is one to three digits in square brackets that is not a link (`[1](url)`) or a link
/// label (`[1]: url`). The ids come back in first-cited order, each once.
///
/// ```swift
/// citedSourceIDs(in: "SSE is simple [1][2], and resumes [2].")   // ["1", "2"]
/// ```
public func citedSourceIDs(in text: String) -> [String] {
    var found: [String] = []
    var seen = Set<String>()
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "[") else {
            index += 1
            continue
        }
        var end = index + 1
        while end < bytes.count, end - index <= 3, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
        let digits = end - index - 1
        if digits >= 1, digits <= 3, end < bytes.count, bytes[end] == UInt8(ascii: "]") {
            let next = end + 1 < bytes.count ? bytes[end + 1] : 0
            if next != UInt8(ascii: "("), next != UInt8(ascii: ":") {
                let id = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                if seen.insert(id).inserted { found.append(id) }
            }
            index = end + 1
        } else {
            index += 1
        }
    }
    return found
}
