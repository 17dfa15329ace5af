import GRDB

/// An answer's text as the store keeps it: rows of `answer_chunk`, in order, whose concatenation is
/// the text.
///
/// A checkpoint adds one row with the text that arrived since the one before, so saving an answer
/// writes each byte once, however often it is checkpointed (a `text` column rewritten on every
/// checkpoint wrote the whole text each time: quadratic in the answer's length). Reading
/// concatenates the rows. Only when the final text is not the saved text followed by more does
/// finishing rewrite it, as one row.
enum AnswerTextChunks {
    /// Adds `chunk` after the saved text of a streaming answer; an ended answer is left as it is.
    /// Returns whether a row was added.
    @discardableResult
    static func append(_ chunk: String, to answerID: String, _ db: Database) throws -> Bool {
        guard !chunk.isEmpty else { return false }
        return try insert(chunk, after: answerID, onlyWhile: "streaming", db)
    }

    /// Adds a row after the answer's last one, if the answer is in `state` (any state when `nil`).
    private static func insert(_ chunk: String, after answerID: String, onlyWhile state: String?, _ db: Database) throws
        -> Bool
    {
        try db.execute(
            sql: """
                INSERT INTO answer_chunk (answer_id, position, text)
                SELECT ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM answer_chunk WHERE answer_id = ?), ?
                WHERE EXISTS (SELECT 1 FROM answer WHERE id = ? AND (? IS NULL OR state = ?))
                """,
            arguments: [answerID, answerID, chunk, answerID, state, state])
        return db.changesCount > 0
    }

    /// Replaces the saved text with `text`.
    static func replace(_ answerID: String, with text: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM answer_chunk WHERE answer_id = ?", arguments: [answerID])
        guard !text.isEmpty else { return }
        try db.execute(
            sql: "INSERT INTO answer_chunk (answer_id, position, text) VALUES (?, 0, ?)", arguments: [answerID, text])
    }

    /// Makes the saved text `text`, writing only what it adds when it continues the saved text.
    static func finish(_ answerID: String, with text: String, _ db: Database) throws {
        let saved = try self.text(of: answerID, db)
        if text.utf8.starts(with: saved.utf8) {
            let rest = Substring(text.utf8.dropFirst(saved.utf8.count))
            guard !rest.isEmpty else { return }
            _ = try insert(String(rest), after: answerID, onlyWhile: nil, db)
        } else {
            try replace(answerID, with: text, db)
        }
    }

    /// The saved text of one answer.
    static func text(of answerID: String, _ db: Database) throws -> String {
        var text = ""
        let rows = try String.fetchCursor(
            db, sql: "SELECT text FROM answer_chunk WHERE answer_id = ? ORDER BY position", arguments: [answerID])
        while let chunk = try rows.next() { text += chunk }
        return text
    }

    /// The saved text of every answer in a conversation, by answer id.
    static func texts(inConversation conversationID: String, _ db: Database) throws -> [String: String] {
        var texts: [String: String] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT answer_id, text FROM answer_chunk
                WHERE answer_id IN (SELECT id FROM answer WHERE conversation_id = ?)
                ORDER BY answer_id, position
                """,
            arguments: [conversationID])
        while let row = try rows.next() {
            texts[row["answer_id"], default: ""] += row["text"] as String
        }
        return texts
    }

    /// The migration that moves existing answers' `text` column into chunks.
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE answer_chunk (
                  answer_id TEXT NOT NULL REFERENCES answer(id) ON DELETE CASCADE,
                  position INTEGER NOT NULL,
                  text TEXT NOT NULL,
                  PRIMARY KEY (answer_id, position)
                );
                INSERT INTO answer_chunk (answer_id, position, text) SELECT id, 0, text FROM answer WHERE text <> '';
                ALTER TABLE answer DROP COLUMN text;
                """)
    }
}
