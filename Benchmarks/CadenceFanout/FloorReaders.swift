import NIOCore

/// The floor server's readers on one event loop, by answer: touched only on that loop, so a chunk
/// reaches every reader of an answer on the loop in one pass, one `writeAndFlush` each, with no
/// hand-off per reader.
final class FloorReaders: Sendable {
    let loop: any EventLoop
    private let channels: NIOLoopBoundBox<[Int: [any Channel]]>

    init(loop: any EventLoop) {
        self.loop = loop
        self.channels = .makeBoxSendingValue([:], eventLoop: loop)
    }

    /// Adds a reader of answer `answer`, whose connection is on this loop; called on the loop.
    func add(_ channel: any Channel, answer: Int) {
        channels.value[answer, default: []].append(channel)
    }

    /// Writes `chunk` to every reader of answer `answer`, and forgets them after the answer's `last`
    /// chunk (their connections stay open, as Cadence's do after a stream ends). Called on the loop.
    func write(_ chunk: ByteBuffer, answer: Int, last: Bool) {
        guard let readers = channels.value[answer] else { return }
        for channel in readers { channel.writeAndFlush(chunk, promise: nil) }
        if last { channels.value[answer] = nil }
    }

    /// `write(_:answer:last:)`, on this loop, from any thread.
    func send(_ chunk: ByteBuffer, answer: Int, last: Bool) {
        if loop.inEventLoop {
            write(chunk, answer: answer, last: last)
        } else {
            loop.execute { self.write(chunk, answer: answer, last: last) }
        }
    }
}
