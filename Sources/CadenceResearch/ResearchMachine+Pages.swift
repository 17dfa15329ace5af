import CadenceCore
import CadenceSearch

extension ResearchMachine {
    /// The web results among the passages at `positions` (those the round added) worth reading,
    /// best first, at most ``ResearchConfiguration/pagesPerRound``, none asked for before; none
    /// when the search budget is spent.
    mutating func pagesToRead(among positions: [Int]) -> [String] {
        guard configuration.pagesPerRound > 0, searchTimeLeft > .zero else { return [] }
        let candidates = positions.filter { found[$0].details.kind == .web }
            .sorted { found[$0].score != found[$1].score ? found[$0].score > found[$1].score : $0 < $1 }
        var urls: [String] = []
        for position in candidates where urls.count < configuration.pagesPerRound {
            let identity = found[position].identities.first ?? found[position].url
            guard pagesAsked.insert(identity).inserted else { continue }
            urls.append(found[position].url)
        }
        return urls
    }

    /// The round's pages were read: each page's best passages replace its snippet, so the model
    /// reads them and citations are checked against them; a page that was not read, or matched
    /// nothing, keeps its snippet. Then the round ends as a round without pages does.
    public mutating func pagesRead(_ readings: [PageReading], now: Duration) -> [Action] {
        guard case .readingPages(let startedAt, let added, let everySourceFailed) = state else { return [] }
        stageTimes["search_ms", default: .zero] += now - startedAt
        var read = 0
        var skipped = 0
        for reading in readings {
            guard reading.failure == nil else {
                skipped += 1
                continue
            }
            read += 1
            let probe = RetrievedPassage(id: 0, title: "", url: reading.url, text: "", score: 0, source: "web")
            let text = pageText(reading.passages)
            guard let best = reading.passages.first, !text.isEmpty,
                let position = probe.identities.first.flatMap({ foundIndex[$0] })
            else { continue }
            found[position].text = text
            if let heading = best.heading, !heading.isEmpty, heading != found[position].title {
                found[position].heading = heading
            }
        }
        roundPages =
            "read \(read) page\(read == 1 ? "" : "s")" + (skipped == 0 ? "" : ", skipped \(skipped)")
        return roundEnded(added: added, everySourceFailed: everySourceFailed, now: now)
    }

    /// A page's passages, best first, joined while they fit in
    /// ``ResearchConfiguration/passageCharacters`` (the first always).
    func pageText(_ passages: [RetrievedPassage]) -> String {
        var text = ""
        for passage in passages {
            let piece = passage.text.trimmingWhitespace
            guard !piece.isEmpty else { continue }
            if !text.isEmpty, text.count + 2 + piece.count > configuration.passageCharacters { break }
            text += (text.isEmpty ? "" : "\n\n") + piece
        }
        return text
    }
}
