import Testing

@testable import CadenceServer

/// How a request sees an answer's row: what a subject may know of it, and whether a cursor was sent.
@Suite struct AnswerRowTests {
    static let row = AnswerRow(subject: "alice", lastSequence: 4, ended: false, purged: false)

    static func lookupError(_ body: () throws -> Void) -> AnswerLookupError? {
        do {
            try body()
            return nil
        } catch {
            return error as? AnswerLookupError
        }
    }

    @Test func anotherSubjectsAnswerIsUnknownLikeOneWithNoRowEvenOncePurged() {
        var purged = Self.row
        purged.purged = true
        for row in [Self.row, purged, nil] as [AnswerRow?] {
            guard case .unknown("a1") = Self.lookupError({ _ = try AnswerRow.visible(row, of: "a1", to: "bob") }) else {
                Issue.record("bob learned something of alice's answer from \(String(describing: row))")
                continue
            }
        }
    }

    @Test func aPurgedAnswerIsGoneToItsSubjectAndToAReaderAlreadyAdmitted() {
        var purged = Self.row
        purged.purged = true
        for subject in ["alice", nil] as [String?] {
            guard case .gone("a1") = Self.lookupError({ _ = try AnswerRow.visible(purged, of: "a1", to: subject) })
            else {
                Issue.record("a purged answer is not gone to \(subject ?? "an admitted reader")")
                continue
            }
        }
        #expect((try? AnswerRow.visible(Self.row, of: "a1", to: "alice")) == Self.row)
        #expect((try? AnswerRow.visible(Self.row, of: "a1", to: nil)) == Self.row)
    }

    @Test func aCursorPastTheLastEventWasNeverSent() {
        #expect(Self.lookupError { try Self.row.requireSent(4, of: "a1") } == nil)
        guard
            case .pastEnd("a1", after: 5, lastSequence: 4, ended: false) = Self.lookupError({
                try Self.row.requireSent(5, of: "a1")
            })
        else {
            Issue.record("a cursor past the last event is not refused as past the end")
            return
        }
    }
}
