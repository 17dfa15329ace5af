import NIOConcurrencyHelpers
import NIOPosix

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns a host name into the addresses a fetch may connect to. ``PageFetcher`` resolves each host
/// once, checks the addresses, and connects to the one it checked.
public protocol HostResolver: Sendable {
    /// The addresses of `host` (a domain name), in the order to try them; throws when it has none.
    func addresses(of host: String) async throws -> [IPAddress]
}

/// The system resolver, `getaddrinfo`, run on NIO's blocking-work thread pool so that a slow lookup
/// never holds a thread of Swift's cooperative pool. A cancelled lookup returns at once; the
/// thread finishes the call in the background.
///
/// ```swift
/// let addresses = try await SystemHostResolver().addresses(of: "localhost")  // [127.0.0.1, ::1]
/// ```
public struct SystemHostResolver: HostResolver {
    public init() {}

    public func addresses(of host: String) async throws -> [IPAddress] {
        let lookup = Lookup()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard lookup.wait(continuation) else { return }
                NIOThreadPool.singleton.submit { _ in
                    lookup.finish(Result { try Self.lookUp(host) })
                }
            }
        } onCancel: {
            lookup.finish(.failure(CancellationError()))
        }
    }

    /// The waiting caller, resumed once: by the lookup's result or by cancellation, whichever is first.
    private final class Lookup: Sendable {
        private enum State {
            case idle
            case waiting(CheckedContinuation<[IPAddress], any Error>)
            case done(Result<[IPAddress], any Error>)
        }
        private let state = NIOLockedValueBox(State.idle)

        /// Stores the continuation; `false` (having resumed it) when the lookup was already cancelled.
        func wait(_ continuation: CheckedContinuation<[IPAddress], any Error>) -> Bool {
            let early = state.withLockedValue { state -> Result<[IPAddress], any Error>? in
                if case .done(let result) = state { return result }
                state = .waiting(continuation)
                return nil
            }
            guard let early else { return true }
            continuation.resume(with: early)
            return false
        }

        func finish(_ result: Result<[IPAddress], any Error>) {
            let waiting = state.withLockedValue { state -> CheckedContinuation<[IPAddress], any Error>? in
                switch state {
                case .idle:
                    state = .done(result)
                    return nil
                case .waiting(let continuation):
                    state = .done(result)
                    return continuation
                case .done: return nil
                }
            }
            waiting?.resume(with: result)
        }
    }

    /// A failed lookup, with `gai_strerror`'s words.
    struct LookupError: Error, CustomStringConvertible {
        let description: String
    }

    private static func lookUp(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { throw LookupError(description: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let info = entry?.pointee {
            defer { entry = info.ai_next }
            guard let socketAddress = info.ai_addr else { continue }
            switch Int32(info.ai_family) {
            case AF_INET:
                let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                addresses.append(withUnsafeBytes(of: address) { IPAddress(bytes: Array($0))! })
            case AF_INET6:
                let address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_addr
                }
                addresses.append(withUnsafeBytes(of: address) { IPAddress(bytes: Array($0))! })
            default: continue
            }
        }
        var unique: [IPAddress] = []
        for address in addresses where !unique.contains(address) { unique.append(address) }
        guard !unique.isEmpty else { throw LookupError(description: "no address") }
        return unique
    }
}
