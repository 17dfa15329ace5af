import Foundation
import Testing

@testable import CadenceEngine

@Suite struct CorpusLoadingTests {
    @Test func theBundledCorpusLoads() throws {
        let corpus = try Corpus.bundled()
        #expect((12...20).contains(corpus.documents.count))
        #expect((2...4).contains(corpus.collections.count))
        #expect(corpus.passageCount > corpus.documents.count)
        for document in corpus.documents {
            #expect(document.url.hasPrefix("cadence://corpus/\(document.collection)/"))
            #expect(!document.title.isEmpty)
            let words = document.text.split(whereSeparator: \.isWhitespace).count
            #expect((200...600).contains(words), "\(document.path) has \(words) words")
        }
        let hit = corpus.search("Last-Event-ID", limit: 1).first
        #expect(hit?.url == "cadence://corpus/cadence/resume.md#last-event-id")
    }

    @Test func aFolderOfFilesBecomesCollections() throws {
        let folder = try TemporaryFolder()
        try folder.write("readme.md", "# Notes\n\nGeneral notes about gardening.")
        try folder.write("plants/tomato.markdown", "# Tomatoes\n\nTomatoes need sun and regular watering.")
        try folder.write("plants/deep/basil.txt", "Basil likes warmth.\n\nPinch the flowers.")
        try folder.write("tools/spade.md", "## Spades\n\nA spade digs.")
        try folder.write("tools/image.png", "not text")
        try folder.write(".hidden/secret.md", "# Secret\n\nHidden.")
        try folder.write("plants/.draft.md", "# Draft\n\nHidden.")

        let corpus = try Corpus(directory: folder.url)
        #expect(corpus.documents.map(\.path) == ["readme.md", "deep/basil.txt", "tomato.markdown", "spade.md"])
        #expect(corpus.documents.map(\.collection) == [folder.url.lastPathComponent, "plants", "plants", "tools"])
        #expect(corpus.documents.map(\.title) == ["Notes", "Basil", "Tomatoes", "Spades"])
        let hit = try #require(corpus.search("watering tomatoes", limit: 1).first)
        #expect(hit.url.hasPrefix("file://"))
        #expect(hit.url.hasSuffix("/plants/tomato.markdown#tomatoes"))
        #expect(corpus.search("secret hidden draft", limit: 5).isEmpty)
    }

    @Test func aMissingFolderIsATypedErrorNamingThePath() throws {
        let path = "/tmp/cadence-no-such-folder-\(UInt64.random(in: 0...UInt64.max))"
        let error = try #require(throws: CorpusError.self) { try Corpus(directory: URL(fileURLWithPath: path)) }
        #expect(error.code == .notFound)
        #expect(error.path == path)
        #expect(error.description.contains(path))
    }

    @Test func aFolderWithoutDocumentsIsATypedError() throws {
        let folder = try TemporaryFolder()
        try folder.write("photo.jpg", "binary")
        let error = try #require(throws: CorpusError.self) { try Corpus(directory: folder.url) }
        #expect(error.code == .empty)
        #expect(error.description.contains(folder.url.path))
        #expect(error.description.contains(".md"))
    }

    @Test func documentsWithoutTextAreATypedError() throws {
        let folder = try TemporaryFolder()
        try folder.write("blank.md", "  \n\n\t\n")
        let error = try #require(throws: CorpusError.self) { try Corpus(directory: folder.url) }
        #expect(error.code == .empty)
    }

    @Test func aFileIsNotAFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("one.md", "# One\n\nText.")
        let file = folder.url.appendingPathComponent("one.md")
        let error = try #require(throws: CorpusError.self) { try Corpus(directory: file) }
        #expect(error.code == .notADirectory)
        #expect(error.path == file.path)
    }
}
