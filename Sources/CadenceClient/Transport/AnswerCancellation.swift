import AsyncHTTPClient
import CadenceCore
import NIOCore
import NIOHTTP1

extension ResearchTransport {
    /// Does nothing: a transport that cannot reach the server's `DELETE` only disconnects.
    public func cancelAnswer(id: String) async throws {}
}

/// `DELETE /v1/answers/{id}`: asks the server to stop producing an answer.
enum AnswerCancellation {
    /// How long a cancel request may take; it is sent as the reader leaves, so it must not linger.
    static let timeout: Duration = .seconds(5)

    /// Sends the request. An answer that already ended (409) or is no longer kept (404, 410) is
    /// not an error: there is nothing left to stop. Anything else throws ``CadenceClientError``.
    static func send(baseURL: String, answerID: String, httpClient: HTTPClient, bearerToken: String?) async throws {
        var request = HTTPClientRequest(url: baseURL + "/v1/answers/" + PercentEncoding.encode(answerID))
        request.method = .DELETE
        ServerAuthorization.add(bearerToken, to: &request.headers)
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(request, timeout: TimeAmount(timeout))
        } catch {
            throw CadenceClientError(
                .transport, message: "could not cancel the answer \(answerID): \(error)", retryable: true,
                underlying: error)
        }
        switch response.status.code {
        case 200, 404, 409, 410:
            return
        case 401:
            let body = (try? await response.body.collect(upTo: 64 << 10)).map { String(buffer: $0) } ?? ""
            throw ServerAuthorization.unauthorized(tokenSent: bearerToken != nil, body: body)
        default:
            let body = (try? await response.body.collect(upTo: 64 << 10)).map { String(buffer: $0) } ?? ""
            throw CadenceClientError.httpStatus(
                Int(response.status.code), reason: response.status.reasonPhrase, body: body, retryAfter: nil)
        }
    }
}
