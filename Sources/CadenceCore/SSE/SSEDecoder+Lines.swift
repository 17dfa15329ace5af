// The hot path of SSEDecoder: splitting bytes into lines and interpreting each line.
//
// Lines inside one chunk are interpreted in place, without copying, and an event made of one
// `data` line inside a chunk goes to the sink (an `[SSEItem]`, or an `SSEBatch`, which keeps the
// bytes) straight from the chunk. Only the start of a line cut by the end of a chunk is kept, in
// `pendingLine`; once such a line is known to be a `data` line, its value goes straight to
// `dataBuffer` (`isStreamingData`), so a long event is copied once, not once per chunk. Line
// endings are found eight bytes at a time inline for short lines, and with memchr for long ones.

extension SSEDecoder {
    /// Decodes `buffer`, appending items; on a limit error records it in `failure` and stops.
    @usableFromInline
    mutating func decode(_ buffer: UnsafeRawBufferPointer, into items: inout [SSEItem]) {
        decodeLines(buffer, into: &items)
    }

    /// Decodes `buffer`, appending items to `batch`; on a limit error records it in `failure` and stops.
    @usableFromInline
    mutating func decode(_ buffer: UnsafeRawBufferPointer, into batch: inout SSEBatch) {
        batch.write(buffer) { decodeLines(buffer, into: &$0) }
    }

    private mutating func decodeLines<Sink: SSEItemSink>(_ buffer: UnsafeRawBufferPointer, into items: inout Sink) {
        guard failure == nil, let start = buffer.baseAddress, !buffer.isEmpty else { return }
        let bytes = start.assumingMemoryBound(to: UInt8.self)
        let end = buffer.count
        var position = 0
        if skipsLeadingLF {
            skipsLeadingLF = false
            if bytes[0] == SSEByte.lf { position = 1 }
        }
        if byteOrderMarkMatched >= 0 {
            position = skipByteOrderMark(bytes, from: position, to: end)
        }
        // The next CR at or after `position` (or `end`): searched for once per chunk when the
        // stream uses LF alone, and once per line when it uses CRLF.
        var nextCR = -1
        // The value of the block's only `data` line so far, still in `buffer`: an event made of
        // one data line inside a chunk is decoded straight from the chunk, never copied.
        var inPlaceData: UnsafeBufferPointer<UInt8>?
        while position < end {
            if nextCR < position {
                nextCR = bytes.firstOffset(of: SSEByte.cr, from: position, to: end)
                recordWork(nextCR - position)
            }
            // Short lines are searched inline; a long one goes on with memchr.
            var lineEnd = bytes.firstLineFeed(from: position, to: nextCR, limit: Self.shortLine)
            if lineEnd < nextCR && bytes[lineEnd] != SSEByte.lf {
                lineEnd = bytes.firstOffset(of: SSEByte.lf, from: lineEnd, to: nextCR)
            }
            recordWork(lineEnd - position)
            guard lineEnd < end else { break }
            let line = UnsafeBufferPointer(start: bytes + position, count: lineEnd - position)
            if isStreamingData || !pendingLine.isEmpty {
                completeLine(line, into: &items)  // only the first line of a chunk: no in-place data yet
            } else if line.isEmpty {
                dispatch(inPlaceData: inPlaceData, into: &items)
                inPlaceData = nil
            } else if inPlaceData == nil, dataBuffer.isEmpty, let value = firstDataValue(line) {
                recordWork(line.count)
                inPlaceData = value  // the usual line, interpreted at once
            } else {
                interpretLine(line, inPlaceData: &inPlaceData, canStayInPlace: true, into: &items)
            }
            if failure != nil { return }
            position = lineEnd + 1
            if bytes[lineEnd] == SSEByte.cr {
                if position == end {
                    skipsLeadingLF = true
                } else if bytes[position] == SSEByte.lf {
                    position += 1
                }
            }
        }
        if let inPlaceData { keepData(inPlaceData) }
        if position < end {
            holdPartialLine(bytes + position, count: end - position)
        }
    }

    /// The value of `line` if it is a `data` line within the limits, as the first data line of a
    /// block: `interpretLine` would keep it in place too.
    @inline(__always)
    private func firstDataValue(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let start = line.baseAddress!
        guard line.count >= 5, SSEField.startsWithDataColon(start), line.count <= limits.maxLineBytes else {
            return nil
        }
        let valueStart = line.count > 5 && start[5] == SSEByte.space ? 6 : 5
        guard line.count - valueStart <= limits.maxEventBytes else { return nil }
        return UnsafeBufferPointer(start: start + valueStart, count: line.count - valueStart)
    }

    /// Lines up to this long are searched for their ending inline, longer ones with `memchr`.
    static var shortLine: Int { 64 }

    /// Skips the part of a UTF-8 byte order mark at the start of the body; on a mismatch puts
    /// back the bytes that matched so far as the start of the first line.
    private mutating func skipByteOrderMark(_ bytes: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        let mark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)
        var position = from
        while byteOrderMarkMatched >= 0, position < end {
            let expected = byteOrderMarkMatched == 0 ? mark.0 : byteOrderMarkMatched == 1 ? mark.1 : mark.2
            if bytes[position] == expected {
                position += 1
                byteOrderMarkMatched = byteOrderMarkMatched == 2 ? -1 : byteOrderMarkMatched + 1
            } else {
                if byteOrderMarkMatched > 0 { pendingLine.append(mark.0) }
                if byteOrderMarkMatched > 1 { pendingLine.append(mark.1) }
                byteOrderMarkMatched = -1
            }
        }
        return position
    }

    /// Handles the last part of a line, `line`, whose start was held from earlier chunks.
    private mutating func completeLine<Sink: SSEItemSink>(_ line: UnsafeBufferPointer<UInt8>, into items: inout Sink) {
        holdPartialLine(line.baseAddress!, count: line.count)
        if failure != nil { return }
        if isStreamingData {
            dataBuffer.append(SSEByte.lf)
            isStreamingData = false
            streamingLineLength = 0
        } else {
            var whole: [UInt8] = []
            swap(&whole, &pendingLine)
            var noInPlaceData: UnsafeBufferPointer<UInt8>?
            whole.withUnsafeBufferPointer {
                interpretLine($0, inPlaceData: &noInPlaceData, canStayInPlace: false, into: &items)
            }
            whole.removeAll(keepingCapacity: whole.capacity <= Self.retainedCapacity)
            swap(&whole, &pendingLine)
        }
    }

    /// Keeps `bytes[0..<count]`, the next part of an unfinished line, within the limits.
    private mutating func holdPartialLine(_ bytes: UnsafePointer<UInt8>, count: Int) {
        let part = UnsafeBufferPointer(start: bytes, count: count)
        recordWork(count)
        if isStreamingData {
            streamingLineLength += count
            guard !exceedsLimits(line: streamingLineLength, event: dataBuffer.count + count) else { return }
            Self.makeRoom(for: count, in: &dataBuffer, limit: limits.maxEventBytes)
            dataBuffer.append(contentsOf: part)
            return
        }
        let held = pendingLine.count
        let total = held + count
        let valueStart = dataValueStart(after: part)
        guard !exceedsLimits(line: total, event: valueStart.map { dataBuffer.count + total - $0 } ?? 0) else { return }
        // Stream the value of a `data` line once the byte after its colon is known.
        guard let valueStart, total > 5 else {
            Self.makeRoom(for: count, in: &pendingLine, limit: limits.maxLineBytes)
            pendingLine.append(contentsOf: part)
            return
        }
        if valueStart < held {
            dataBuffer.append(contentsOf: pendingLine[valueStart...])
            recordWork(held - valueStart)
        }
        dataBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: part[max(0, valueStart - held)...]))
        pendingLine.removeAll(keepingCapacity: true)
        streamingLineLength = total
        isStreamingData = true
    }

    /// Makes room in `buffer` for `count` more bytes. Past ``retainedCapacity`` the buffer gets its
    /// whole `limit` (already checked) at once instead of doubling: pages nothing has written to
    /// take no memory, and the buffer is never copied again. Doubling would copy a buffer near its
    /// limit into a new one, holding the limit's bytes twice at that moment (a 50 MB `data:` line
    /// under the 16 MiB limit then peaked at 32 MiB, depending on how the reads split it).
    static func makeRoom(for count: Int, in buffer: inout [UInt8], limit: Int) {
        let needed = buffer.count + count
        guard needed > buffer.capacity, needed > retainedCapacity else { return }
        buffer.reserveCapacity(max(needed, limit))
    }

    /// Where the value starts if the line so far, `pendingLine` then `part`, is a `data` field.
    private func dataValueStart(after part: UnsafeBufferPointer<UInt8>) -> Int? {
        let held = pendingLine.count
        guard held + part.count >= 5 else { return nil }
        func byte(_ index: Int) -> UInt8 { index < held ? pendingLine[index] : part[index - held] }
        guard byte(0) == 0x64, byte(1) == 0x61, byte(2) == 0x74, byte(3) == 0x61, byte(4) == SSEByte.colon else {
            return nil
        }
        return held + part.count > 5 && byte(5) == SSEByte.space ? 6 : 5
    }

    /// Interprets one complete, non-empty line (without its ending): the standard's "process the
    /// field". The value of a first `data` line may stay in place when `canStayInPlace`.
    private mutating func interpretLine<Sink: SSEItemSink>(
        _ line: UnsafeBufferPointer<UInt8>,
        inPlaceData: inout UnsafeBufferPointer<UInt8>?,
        canStayInPlace: Bool,
        into items: inout Sink
    ) {
        let start = line.baseAddress!
        let count = line.count
        recordWork(count)
        let field: SSEField
        var valueStart: Int
        if count >= 5 && SSEField.startsWithDataColon(start) {
            (field, valueStart) = (.data, 5)  // the usual line, recognised at once
        } else {
            var colon = 0
            while colon < count && colon < 16 && start[colon] != SSEByte.colon { colon += 1 }
            if colon == 16 { colon = start.firstOffset(of: SSEByte.colon, from: colon, to: count) }
            field = SSEField(name: start, count: colon)
            valueStart = colon == count ? count : colon + 1
        }
        if valueStart < count && start[valueStart] == SSEByte.space { valueStart += 1 }
        let value = UnsafeBufferPointer(start: start + valueStart, count: count - valueStart)
        let heldData = dataBuffer.count + (inPlaceData.map { $0.count + 1 } ?? 0)
        guard !exceedsLimits(line: count, event: field == .data ? heldData + value.count : 0) else { return }
        switch field {
        case .data where canStayInPlace && heldData == 0:
            inPlaceData = value
        case .data:
            if let held = inPlaceData {
                keepData(held)
                inPlaceData = nil
            }
            keepData(value)
        case .event:
            eventType = String(decodingUTF8: value)
        case .id:
            if start.firstOffset(of: 0, from: valueStart, to: count) == count {
                idBuffer = String(decodingUTF8: value)
                idIsDispatched = false
            }
        case .retry:
            if let milliseconds = Self.milliseconds(value) {
                reconnectionTime = milliseconds
                items.appendRetry(milliseconds)
            }
        case .comment:
            items.appendComment(value)
        case .ignored:
            break
        }
    }

    /// The standard's "dispatch the event", run at each blank line. `inPlaceData` is the value
    /// of the block's only data line when it is still in the chunk being decoded.
    private mutating func dispatch<Sink: SSEItemSink>(
        inPlaceData: UnsafeBufferPointer<UInt8>?, into items: inout Sink
    ) {
        // Strings are assigned only when they change: most events keep the ID and have no type.
        if !idIsDispatched {
            lastEventID = idBuffer
            idIsDispatched = true
        }
        if let inPlaceData {
            recordWork(inPlaceData.count)
            items.appendEvent(type: eventType, data: inPlaceData, id: idBuffer)
        } else if !dataBuffer.isEmpty {
            recordWork(dataBuffer.count)
            items.appendEvent(type: eventType, taking: &dataBuffer, id: idBuffer)
            dataBuffer.removeAll(keepingCapacity: dataBuffer.capacity <= Self.retainedCapacity)
        }
        if !eventType.isEmpty { eventType = "" }
    }

    /// Appends a data line's value, and the LF that ends it, to the event's data.
    private mutating func keepData(_ value: UnsafeBufferPointer<UInt8>) {
        dataBuffer.append(contentsOf: value)
        dataBuffer.append(SSEByte.lf)
    }

    /// The value of a `retry` field made of ASCII digits only, clamped to `Int.max`; else nil.
    private static func milliseconds(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int(digit))
            value = overflowA || overflowB ? .max : sum
        }
        return value
    }

    /// Records a limit error if a line of `line` bytes, making the event's data `event` bytes,
    /// is over a limit. Both sizes grow with the same last bytes, so when both are over, the
    /// one further over was passed first: chunking never changes which error is reported.
    @inline(__always)
    private mutating func exceedsLimits(line: Int, event: Int) -> Bool {
        let lineExcess = line - limits.maxLineBytes
        let eventExcess = event - limits.maxEventBytes
        guard lineExcess > 0 || eventExcess > 0 else { return false }
        fail(
            lineExcess >= eventExcess
                ? SSEDecoderError(code: .lineTooLong, limit: limits.maxLineBytes, seen: line)
                : SSEDecoderError(code: .eventTooLarge, limit: limits.maxEventBytes, seen: event)
        )
        return true
    }

    private mutating func fail(_ error: SSEDecoderError) {
        failure = error
        pendingLine = []
        dataBuffer = []
        isStreamingData = false
    }
}

/// Bytes the SSE grammar gives a meaning to.
enum SSEByte {
    static var lf: UInt8 { 0x0A }
    static var cr: UInt8 { 0x0D }
    static var space: UInt8 { 0x20 }
    static var colon: UInt8 { 0x3A }
}
