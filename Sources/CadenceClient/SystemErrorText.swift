import Foundation
import NIOCore
import NIOPosix

/// What a failed system call or connection attempt says, for a message: the system's own words
/// ("Connection refused", "Address already in use"), where NIO's description of the same error reads
/// "connection reset (error set): Connection refused) (errno: 111)". The client's messages and the
/// server's (a port in use, a database out of reach) both say it this way.
package enum SystemErrorText {
    package static func describe(_ error: any Error) -> String {
        switch error {
        case let error as IOError:
            return String(cString: strerror(error.errnoCode))
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first { return describe(failure.error) }
            if let dns = error.dnsAError ?? error.dnsAAAAError { return "cannot resolve \(error.host): \(dns)" }
            return "\(error)"
        default:
            return "\(error)"
        }
    }
}
