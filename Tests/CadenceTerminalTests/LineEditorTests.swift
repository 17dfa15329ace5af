import Testing

@testable import CadenceTerminal

@Suite struct LineEditorTests {
    static func editor(_ text: String, cursor: Int? = nil) -> LineEditor {
        var editor = LineEditor()
        editor.insert(text)
        if let cursor { for _ in 0..<(text.count - cursor) { editor.moveLeft() } }
        return editor
    }

    @Test func insertsAtTheCursorAndMoves() {
        var editor = LineEditor()
        editor.insert("helo")
        editor.moveLeft()
        editor.insert("l")
        #expect(editor.text == "hello")
        #expect(editor.cursor == 4)
        editor.moveToStart()
        editor.moveLeft()
        #expect(editor.cursor == 0)
        editor.moveToEnd()
        editor.moveRight()
        #expect(editor.cursor == 5)
    }

    @Test func lineBreaksAndControlCharactersDoNotEnterTheLine() {
        var editor = LineEditor()
        editor.insert("a\nb\tc\u{07}d")
        #expect(editor.text == "a b cd")
    }

    @Test func backspaceAndDelete() {
        var editor = Self.editor("abcd", cursor: 2)
        editor.handle(.backspace)
        #expect(editor.text == "acd" && editor.cursor == 1)
        editor.handle(.delete)
        #expect(editor.text == "ad" && editor.cursor == 1)
        editor.moveToStart()
        editor.handle(.backspace)
        #expect(editor.text == "ad")
        editor.moveToEnd()
        editor.handle(.delete)
        #expect(editor.text == "ad")
    }

    @Test func controlKeysEditLikeEmacs() {
        var editor = Self.editor("what is  server sent", cursor: 15)
        editor.handle(.control("w"))  // "server" before the cursor
        #expect(editor.text == "what is   sent")
        #expect(editor.cursor == 9)
        editor.handle(.control("w"))  // "is" and the spaces after it
        #expect(editor.text == "what  sent")
        editor.handle(.control("k"))
        #expect(editor.text == "what ")
        editor.handle(.control("a"))
        #expect(editor.cursor == 0)
        editor.handle(.control("e"))
        #expect(editor.cursor == 5)
        editor.moveLeft()
        editor.handle(.control("u"))
        #expect(editor.text == " " && editor.cursor == 0)
        let handledEnter = editor.handle(.enter)
        let handledInterrupt = editor.handle(.control("c"))
        #expect(!handledEnter && !handledInterrupt)
    }

    @Test func submitTrimsRecordsAndSkipsBlankAndRepeatedLines() {
        var editor = LineEditor()
        editor.insert("  first  ")
        #expect(editor.submit() == "first")
        #expect(editor.isEmpty && editor.cursor == 0)
        editor.insert("   ")
        #expect(editor.submit() == nil)
        editor.insert("first")
        #expect(editor.submit() == "first")
        editor.insert("second")
        #expect(editor.submit() == "second")
        #expect(editor.history == ["first", "second"])
    }

    @Test func historyBrowsingKeepsTheDraft() {
        var editor = LineEditor(history: ["one", "two"])
        editor.insert("dra")
        editor.handle(.up)
        #expect(editor.text == "two")
        editor.handle(.up)
        #expect(editor.text == "one")
        editor.handle(.up)
        #expect(editor.text == "one")
        editor.handle(.down)
        #expect(editor.text == "two")
        editor.handle(.down)
        #expect(editor.text == "dra")
        #expect(editor.historyIndex == nil)
        editor.handle(.down)
        #expect(editor.text == "dra")
    }

    @Test func aRecalledLineCanBeEditedAndSent() {
        var editor = LineEditor(history: ["What is SSE?"])
        editor.historyPrevious()
        editor.insert(" Briefly.")
        #expect(editor.submit() == "What is SSE? Briefly.")
        #expect(editor.history == ["What is SSE?", "What is SSE? Briefly."])
    }

    @Test func shortLinesShowWhole() {
        let editor = Self.editor("hello", cursor: 2)
        let (text, column) = editor.display(width: 10)
        #expect(text == "hello")
        #expect(column == 2)
    }

    @Test func longLinesScrollToKeepTheCursorVisible() {
        let editor = Self.editor("abcdefghijklmnopqrstuvwxyz")
        let (text, column) = editor.display(width: 10)
        #expect(text == "rstuvwxyz")
        #expect(column == 9)
        let atStart = Self.editor("abcdefghijklmnopqrstuvwxyz", cursor: 0).display(width: 10)
        #expect(atStart.text == "abcdefghij")
        #expect(atStart.cursorColumn == 0)
    }

    @Test func wideCharactersTakeTwoColumns() {
        let editor = Self.editor("日本語のテキスト")  // 8 characters, 16 columns
        let (text, column) = editor.display(width: 9)
        #expect(text == "のテキスト".suffix(4).description)  // 8 columns, the cursor in the 9th
        #expect(column == 8)
        let short = Self.editor("日本x", cursor: 2).display(width: 20)
        #expect(short.cursorColumn == 4)
        #expect(DisplayWidth.of("日本x") == 5)
    }
}
