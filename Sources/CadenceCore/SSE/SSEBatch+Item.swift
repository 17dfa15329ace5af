extension SSEBatch {
    /// What an ``SSEBatch`` holds, in stream order: ``SSEItem`` with the event's data as bytes.
    public enum Item: Sendable, Hashable {
        /// A dispatched event (a block of fields ended by a blank line, with at least one `data` line).
        case event(Event)
        /// A comment line (`: text`): the text after the colon, with one leading space removed.
        case comment(String)
        /// A valid `retry` field: the reconnection time in milliseconds, clamped to `Int.max`.
        case retry(Int)
    }

    /// An event of an ``SSEBatch``: an ``SSEEvent`` whose data stays the UTF-8 bytes that arrived.
    ///
    /// It shares the batch's buffer, so taking one copies nothing. Its `String`s are made when read:
    /// ``type`` and ``id`` (short ones need no allocation) and ``data``.
    ///
    /// ```swift
    /// if case .event(let event) = batch[0] {
    ///     let json = event.dataBytes.withUnsafeBufferPointer { parse($0) }  // no String made
    ///     let text = event.data  // a String when one is needed
    /// }
    /// ```
    public struct Event: Sendable, Hashable {
        /// The batch's bytes, which hold the event's text.
        @usableFromInline let bytes: [UInt8]
        @usableFromInline let typeRange: Range<Int>
        @usableFromInline let idRange: Range<Int>
        @usableFromInline let dataRange: Range<Int>

        @inlinable
        init(bytes: [UInt8], type: Range<Int>, id: Range<Int>, data: Range<Int>) {
            self.bytes = bytes
            typeRange = type
            idRange = id
            dataRange = data
        }

        /// The `event` field, or `"message"` when the block had none (or an empty one).
        @inlinable public var type: String {
            typeRange.isEmpty ? "message" : bytes.withUnsafeBufferPointer { String(decodingUTF8: $0, typeRange) }
        }

        /// The last event ID when the event was dispatched (see ``SSEEvent/id``).
        @inlinable public var id: String {
            bytes.withUnsafeBufferPointer { String(decodingUTF8: $0, idRange) }
        }

        /// The `data` lines of the block joined with LF, without a final LF, as the stream sent
        /// them: UTF-8 that has not been validated. A slice of the batch's buffer, not a copy.
        @inlinable public var dataBytes: ArraySlice<UInt8> {
            bytes[dataRange]
        }

        /// The data as text, as ``SSEEvent/data`` has it: invalid UTF-8 becomes U+FFFD. Decoded on
        /// each read.
        @inlinable public var data: String {
            bytes.withUnsafeBufferPointer { String(decodingUTF8: $0, dataRange) }
        }

        public static func == (lhs: Event, rhs: Event) -> Bool {
            lhs.dataBytes == rhs.dataBytes && lhs.type == rhs.type && lhs.id == rhs.id
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(id)
            hasher.combine(dataBytes)
        }
    }
}

extension SSEItem {
    /// The item `item` stands for, its event's data decoded into a `String`.
    public init(_ item: SSEBatch.Item) {
        switch item {
        case .event(let event): self = .event(SSEEvent(event))
        case .comment(let text): self = .comment(text)
        case .retry(let milliseconds): self = .retry(milliseconds)
        }
    }
}

extension SSEEvent {
    /// The event `event` stands for, its data decoded into a `String`.
    public init(_ event: SSEBatch.Event) {
        self.init(type: event.type, data: event.data, id: event.id)
    }
}
