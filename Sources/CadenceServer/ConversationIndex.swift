/// The messages (answer ids) of each conversation a node keeps in memory, by subject: a subject sees
/// only its own conversations, so another's conversation id names, to it, a conversation that does
/// not exist. An answer leaves its conversation when the answer is forgotten (``remove(_:)``), and a
/// conversation with no messages left is dropped: the index holds no more than the answers kept.
///
/// ```swift
/// var index = ConversationIndex()
/// index.add("ans_1", to: "trip", of: "ada")
/// index.messages(in: "trip", of: "ada")   // ["ans_1"]
/// index.messages(in: "trip", of: "bob")   // nil
/// index.remove("ans_1")
/// index.messages(in: "trip", of: "ada")   // nil
/// ```
struct ConversationIndex: Sendable {
    private struct Key: Hashable {
        var subject: String
        var conversation: String
    }

    /// A conversation's answer ids, oldest first, from `start` (answers leave mostly oldest first, so
    /// that removal is usually a step of `start`, not a shift of the rest).
    private struct Messages {
        var ids: [String] = []
        var start = 0

        var current: ArraySlice<String> { ids[start...] }

        mutating func remove(_ id: String) {
            if start < ids.count, ids[start] == id {
                start += 1
            } else if let index = ids[start...].firstIndex(of: id) {
                ids.remove(at: index)
            }
            if start * 2 > ids.count {
                ids.removeFirst(start)
                start = 0
            }
        }
    }

    private var conversations: [Key: Messages] = [:]
    private var conversationOf: [String: Key] = [:]

    /// The conversations kept.
    var count: Int { conversations.count }

    /// Adds an answer as the newest message of `subject`'s conversation.
    mutating func add(_ id: String, to conversation: String, of subject: String) {
        let key = Key(subject: subject, conversation: conversation)
        conversations[key, default: Messages()].ids.append(id)
        conversationOf[id] = key
    }

    /// The message ids of `subject`'s conversation, oldest first, or `nil` if it has none.
    func messages(in conversation: String, of subject: String) -> [String]? {
        conversations[Key(subject: subject, conversation: conversation)].map { Array($0.current) }
    }

    /// Takes a forgotten answer out of its conversation, dropping the conversation if it was the last.
    mutating func remove(_ id: String) {
        guard let key = conversationOf.removeValue(forKey: id), var messages = conversations[key] else { return }
        messages.remove(id)
        conversations[key] = messages.current.isEmpty ? nil : messages
    }
}
