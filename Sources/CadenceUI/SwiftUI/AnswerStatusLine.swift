#if canImport(SwiftUI)
import CadenceCore
import SwiftUI

/// An answer's status: while it is in progress (``AnswerViewModel/isEffectivelySearching``), a
/// spinner, the latest research stage and a stop button; afterwards, how it ended, if that needs
/// saying (nothing for a plain completion).
///
/// ```swift
/// AnswerStatusLine(answer: answer, onStop: { chat.cancel(answer.id) })
/// ```
@MainActor
struct AnswerStatusLine: View {
    let answer: AnswerViewModel
    let onStop: (@MainActor () -> Void)?

    var body: some View {
        if answer.isEffectivelySearching {
            HStack(spacing: 8) {
                #if os(macOS)
                ProgressView().controlSize(.small)
                #else
                ProgressView()
                #endif
                Text(answer.stage?.stageDescription ?? "Researching…")
                    .foregroundStyle(.secondary)
                    .lineLimit(1)
                if canStop {
                    Button {
                        stop()
                    } label: {
                        Label("Stop", systemImage: "stop.circle")
                    }
                    .labelStyle(.iconOnly)
                    .buttonStyle(.plain)
                }
            }
            .font(.footnote)
        } else {
            AnswerEndingLabel(ending: answer.ending)
                .font(.footnote)
        }
    }

    /// A streaming answer stops through the chat; one that only animates can always show the rest.
    private var canStop: Bool {
        answer.isStreaming ? onStop != nil : answer.isAnimating
    }

    private func stop() {
        if answer.isStreaming {
            onStop?()
        } else {
            answer.revealAll()
        }
    }
}

/// How an answer ended, in one line, for the endings that need saying.
///
/// ```swift
/// AnswerEndingLabel(ending: .cancelled(partialText: "Half"))   // "Stopped"
/// ```
struct AnswerEndingLabel: View {
    let ending: AnswerEnding?

    var body: some View {
        switch ending {
        case .completed(let completion)? where completion.reason == .timedOut:
            Label("Timed out; the answer may be incomplete", systemImage: "clock")
                .foregroundStyle(.orange)
        case .failed(let failure)?:
            Label(failure.message, systemImage: "exclamationmark.triangle")
                .foregroundStyle(.red)
        case .cancelled?:
            Label("Stopped", systemImage: "stop.circle")
                .foregroundStyle(.secondary)
        case .interrupted?:
            Label("Interrupted; this is the last saved text", systemImage: "exclamationmark.circle")
                .foregroundStyle(.secondary)
        case .completed?, nil:
            EmptyView()
        }
    }
}

/// The connection banner over an answer (``AnswerViewModel/banner``).
///
/// ```swift
/// ConnectionBannerLabel(banner: .reconnecting(attempt: 2, startsAt: .seconds(3)))
/// ```
struct ConnectionBannerLabel: View {
    let banner: ConnectionBannerState.Banner

    var body: some View {
        Group {
            switch banner {
            case .reconnecting(let attempt, _):
                Label("Reconnecting (attempt \(attempt))…", systemImage: "wifi.exclamationmark")
            case .reconnected:
                Label("Reconnected", systemImage: "wifi")
            }
        }
        .font(.footnote)
        .padding(.horizontal, 10)
        .padding(.vertical, 4)
        .background(.thinMaterial, in: Capsule())
    }
}
#endif
