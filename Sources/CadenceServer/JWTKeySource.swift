import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// Loads the keys of a ``JWTConfiguration``: the secret or the key set given, or a key set fetched
/// from the operator's URL, and keeps a fetched set fresh.
///
/// A fetch goes only to the URL the operator gave: redirects are not followed, and nothing in a
/// token (`jku`, `x5u`) is ever fetched. The body is limited to ``maxBytes``.
enum JWTKeySource {
    /// The largest key set fetched, in bytes.
    static let maxBytes = 1 << 20

    /// A verifier with the configuration's keys; throws ``JWTKeysError`` if they cannot be loaded.
    static func verifier(for configuration: JWTConfiguration) async throws -> JWTVerifier {
        let keys: JWTVerifier.KeySet
        switch configuration.keys {
        case .secret(let secret): keys = try await .secret(secret)
        case .jwks(let json): keys = try await .jwks(json)
        case .jwksURL(let url): keys = try await .jwks(fetch(url))
        }
        return JWTVerifier(configuration: configuration, keys: keys)
    }

    /// Fetches the key set again every ``JWTConfiguration/refreshInterval`` until cancelled; a failed
    /// fetch keeps the keys there are (and is logged). `nil` unless the keys come from a URL.
    static func refreshing(
        _ verifier: JWTVerifier, clock: any Clock<Duration>, logger: Logger
    ) -> Task<Void, Never>? {
        guard case .jwksURL(let url) = verifier.configuration.keys else { return nil }
        let interval = verifier.configuration.refreshInterval
        return Task {
            while (try? await clock.sleep(for: interval)) != nil {
                do {
                    verifier.replaceKeys(try await .jwks(fetch(url)))
                } catch {
                    logger.warning("could not refresh the JSON Web Key Set", metadata: ["url": "\(url)", "error": "\(error)"])
                }
            }
        }
    }

    /// The body of a `GET` of `url`, which must answer 200 within 10 seconds without redirecting.
    static func fetch(_ url: String) async throws -> String {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: Result<String, any Error>
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            guard response.status == .ok else {
                throw JWTKeysError(message: "fetching the JSON Web Key Set at \(url) got HTTP \(response.status.code)")
            }
            let body = try await response.body.collect(upTo: maxBytes)
            result = .success(String(buffer: body))
        } catch let error as JWTKeysError {
            result = .failure(error)
        } catch {
            result = .failure(JWTKeysError(message: "could not fetch the JSON Web Key Set at \(url): \(error)"))
        }
        try? await client.shutdown()
        return try result.get()
    }
}
