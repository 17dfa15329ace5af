import CadenceCore
import Testing

struct ProviderModelErrorTests {
    @Test(arguments: [
        (408, true), (409, true), (429, true), (500, true), (502, true), (503, true), (529, true),
        (400, false), (401, false), (403, false), (404, false), (422, false), (200, false),
    ])
    func retryableStatuses(status: Int, retryable: Bool) {
        #expect(ConnectionFailure.isRetryable(status: status) == retryable)
    }

    @Test(arguments: [
        (
            #"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
            "Rate limit reached", "rate_limit_exceeded"
        ),
        (
            #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, "Overloaded",
            "overloaded_error"
        ),
        (
            #"[{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}]"#, "Quota exceeded",
            "RESOURCE_EXHAUSTED"
        ),
        (
            #"{"error":"model \"llama9\" not found, try pulling it first"}"#,
            #"model "llama9" not found, try pulling it first"#, nil
        ),
    ])
    func providerMessagesAreExtracted(body: String, message: String, code: String?) {
        #expect(ModelError.providerMessage(inErrorBody: Array(body.utf8)) == message)
        let error = ModelError(httpStatus: 429, body: Array(body.utf8))
        #expect(error.message == message)
        #expect(error.code == code)
        #expect(error.status == 429)
        #expect(error.retryable)
    }

    @Test func anyOtherBodyIsQuoted() {
        let error = ModelError(httpStatus: 401, body: Array("<html>Unauthorized</html>\n".utf8))
        #expect(error.message == "HTTP status 401: <html>Unauthorized</html>")
        #expect(error.code == ModelError.httpStatus)
        #expect(!error.retryable)
        #expect(ModelError.providerMessage(inErrorBody: Array("<html>".utf8)) == nil)
        #expect(ModelError(httpStatus: 503, body: [UInt8]()).message == "HTTP status 503")
        #expect(String(describing: ModelError(httpStatus: 503, body: [UInt8]())).contains("retryable"))
    }
}
