import CadenceCore

/// One article of an `efetch` reply (`PubmedArticleSet` XML), with what a source shows of it.
///
/// ```swift
/// let articles = try PubMedArticle.parse(xml)
/// articles.first?.venue   // "The New England journal of medicine"
/// ```
struct PubMedArticle: Sendable, Hashable {
    var pmid: String
    var title: String
    var abstract: String
    var journal: String?
    var published: String?
    var authors: [String]
    var doi: String?

    /// The articles of an `efetch` reply; articles without a PMID or a title are skipped.
    static func parse(_ xml: String) throws -> [PubMedArticle] {
        let root = try XMLNode.parse(xml)
        guard root.name == "PubmedArticleSet" else {
            throw SearchSourceError(.unreadableBody, "PubMed efetch's reply is <\(root.name)>, not <PubmedArticleSet>")
        }
        return root.children("PubmedArticle").compactMap(Self.init(article:))
    }

    init?(article: XMLNode) {
        guard let citation = article.child("MedlineCitation"), let pmid = citation.child("PMID")?.text,
            let details = citation.child("Article"), let title = details.child("ArticleTitle")?.text, !title.isEmpty
        else { return nil }
        self.pmid = pmid
        self.title = title
        abstract = (details.child("Abstract")?.children("AbstractText") ?? []).map { part in
            let label = part.attributes["Label"].map { "\($0): " } ?? ""
            return label + part.text
        }.joined(separator: "\n\n")
        let journal = details.child("Journal")
        self.journal = journal?.child("Title")?.text ?? journal?.child("ISOAbbreviation")?.text
        published = journal?.find("JournalIssue", "PubDate").flatMap(Self.date)
            ?? details.child("ArticleDate").flatMap(Self.date)
        authors = (details.find("AuthorList")?.children("Author") ?? []).compactMap { author in
            if let collective = author.child("CollectiveName")?.text { return collective }
            guard let last = author.child("LastName")?.text else { return nil }
            return [author.child("ForeName")?.text, last].compactMap { $0 }.joined(separator: " ")
        }
        let ids = article.find("PubmedData", "ArticleIdList")?.children("ArticleId") ?? []
        doi =
            ids.first { $0.attributes["IdType"] == "doi" }?.text
            ?? details.children("ELocationID").first { $0.attributes["EIdType"] == "doi" }?.text
    }

    /// `2023-11-02`, `2023-11` or `2023` from a `PubDate`/`ArticleDate`; a `MedlineDate` such as
    /// `1998 Dec-1999 Jan` gives its year.
    static func date(_ node: XMLNode) -> String? {
        if let medline = node.child("MedlineDate")?.text {
            return medline.split(separator: " ").first.map(String.init)
        }
        guard let year = node.child("Year")?.text else { return nil }
        guard let month = (node.child("Month")?.text).flatMap(Self.month) else { return year }
        guard let day = (node.child("Day")?.text).flatMap({ Int($0) }) else { return "\(year)-\(month)" }
        return "\(year)-\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    /// "Jan" or "1" → "01".
    static func month(_ text: String) -> String? {
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let number = Int(text) ?? names.firstIndex(of: String(text.prefix(3)).lowercased()).map { $0 + 1 }
        guard let number, (1...12).contains(number) else { return nil }
        return number < 10 ? "0\(number)" : "\(number)"
    }

    /// The article as a passage: its abstract (or title) as text.
    func passage(score: Double) -> RetrievedPassage {
        RetrievedPassage(
            id: 0, title: title, url: "https://pubmed.ncbi.nlm.nih.gov/\(pmid)/",
            text: abstract.isEmpty ? title : abstract, score: score,
            details: SourceDetails(
                kind: .paper, published: published, authors: authors.isEmpty ? nil : authors, venue: journal,
                pmid: pmid, doi: doi))
    }
}
