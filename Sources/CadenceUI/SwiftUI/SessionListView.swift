#if canImport(SwiftUI)
import CadenceStore
import Foundation
public import SwiftUI

/// The list of conversations (seed 004's session manager), most recently used first, over a
/// ``SessionListViewModel``: a tap selects a conversation, the context menu renames or deletes it,
/// swiping (or the delete key) deletes it, and the toolbar's button creates one.
///
/// The model does the rest: it keeps the order, picks the conversation shown after a delete, trims
/// titles and refuses blank ones, and writes every change through to its store. The active
/// conversation is ``SessionListViewModel/activeID``; open a ``ChatViewModel`` for it when it changes.
/// The toolbar's button needs a navigation container around the list.
///
/// ```swift
/// NavigationSplitView {
///     SessionListView(sessions: sessions)
///         .navigationTitle("Conversations")
/// } detail: {
///     if let id = sessions.activeID, let chat = chats[id] { ChatListView(chat: chat) }
/// }
/// ```
@MainActor
public struct SessionListView: View {
    let sessions: SessionListViewModel
    /// The conversation being renamed, while the rename alert is up.
    @State private var renamingID: String?
    @State private var isRenaming = false
    @State private var draftTitle = ""

    /// - Parameter sessions: the conversations.
    public init(sessions: SessionListViewModel) {
        self.sessions = sessions
    }

    public var body: some View {
        List {
            if let problem = sessions.storageError {
                Label(problem, systemImage: "exclamationmark.triangle")
                    .font(.footnote)
                    .foregroundStyle(.red)
            }
            ForEach(sessions.sessions) { session in
                row(for: session)
            }
            .onDelete { offsets in
                delete(at: offsets)
            }
        }
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                Button {
                    sessions.create()
                } label: {
                    Label("New conversation", systemImage: "square.and.pencil")
                }
            }
        }
        .alert("Rename conversation", isPresented: $isRenaming) {
            TextField("Title", text: $draftTitle)
            Button("Rename") {
                if let id = renamingID { sessions.rename(id, to: draftTitle) }
                renamingID = nil
            }
            Button("Cancel", role: .cancel) {
                renamingID = nil
            }
        }
    }

    @ViewBuilder private func row(for session: ConversationSummary) -> some View {
        let isActive = session.id == sessions.activeID
        Button {
            sessions.select(session.id)
        } label: {
            SessionRow(session: session, isActive: isActive)
        }
        .buttonStyle(.plain)
        .listRowBackground(isActive ? Color.accentColor.opacity(0.15) : nil)
        #if !os(watchOS)
        .contextMenu {
            Button {
                startRenaming(session)
            } label: {
                Label("Rename", systemImage: "pencil")
            }
            Button(role: .destructive) {
                sessions.delete(session.id)
            } label: {
                Label("Delete", systemImage: "trash")
            }
        }
        #endif
    }

    private func startRenaming(_ session: ConversationSummary) {
        renamingID = session.id
        draftTitle = session.hasPlaceholderTitle ? "" : session.title
        isRenaming = true
    }

    private func delete(at offsets: IndexSet) {
        let ids = offsets.map { sessions.sessions[$0].id }
        for id in ids { sessions.delete(id) }
    }
}

/// One conversation in the list: its title, when it was last used, how many questions it holds, and
/// how its last answer stands when that is not a plain completion.
///
/// ```swift
/// SessionRow(session: summary, isActive: summary.id == sessions.activeID)
/// ```
struct SessionRow: View {
    let session: ConversationSummary
    let isActive: Bool

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            Text(session.title)
                .fontWeight(isActive ? .semibold : .regular)
                .lineLimit(1)
            HStack(spacing: 4) {
                Text(session.updatedAt, format: .relative(presentation: .named))
                if session.answerCount > 0 {
                    Text(questionCount)
                }
                if let state = session.lastAnswerState, state != .completed {
                    Text("· \(state.label)")
                }
            }
            .font(.caption)
            .foregroundStyle(.secondary)
            .lineLimit(1)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .contentShape(Rectangle())
    }

    private var questionCount: String {
        session.answerCount == 1 ? "· 1 question" : "· \(session.answerCount) questions"
    }
}
#endif
