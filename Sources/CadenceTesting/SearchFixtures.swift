/// Replies shaped as each search API documents them (trimmed to the members a source reads, plus a few it
/// must ignore), for tests that serve them from a loopback server.
///
/// ```swift
/// router.get("search") { _, _ in SearchFixtures.searxng }
/// ```
public enum SearchFixtures {
    /// SearXNG `GET /search?q=…&format=json`.
    public static let searxng = """
        {"query": "server-sent events", "number_of_results": 0,
         "results": [
          {"url": "https://html.spec.whatwg.org/multipage/server-sent-events.html", "title": "HTML Standard: Server-sent events",
           "content": "This section describes the EventSource interface.", "engine": "duckduckgo",
           "parsed_url": ["https", "html.spec.whatwg.org", "/multipage/server-sent-events.html", "", "", ""],
           "template": "default.html", "engines": ["duckduckgo", "bing"], "positions": [1, 2], "publishedDate": null,
           "score": 4.0, "category": "general"},
          {"url": "https://developer.mozilla.org/en-US/docs/Web/API/Server-sent_events", "title": "Server-sent events - Web APIs | MDN",
           "content": "Server-sent events let a server push data to a page.", "engine": "bing", "engines": ["bing"],
           "positions": [2], "publishedDate": "2024-02-01T00:00:00", "score": 1.0, "category": "general"},
          {"url": "javascript:alert(1)", "title": "Not a page", "content": "dropped", "engine": "bad"}
         ],
         "answers": [], "corrections": [], "infoboxes": [], "suggestions": ["sse"], "unresponsive_engines": []}
        """

    public static let searxngEmpty = """
        {"query": "zzzz", "number_of_results": 0, "results": [], "answers": [], "corrections": [], "infoboxes": [],
         "suggestions": [], "unresponsive_engines": [["google", "timeout"]]}
        """

    /// Brave `GET /res/v1/web/search?q=…`.
    public static let brave = """
        {"type": "search", "query": {"original": "server-sent events", "more_results_available": true},
         "mixed": {"type": "mixed", "main": [{"type": "web", "index": 0, "all": false}]},
         "web": {"type": "search", "family_friendly": true, "results": [
           {"type": "search_result", "title": "Using server-sent events - Web APIs | MDN",
            "url": "https://developer.mozilla.org/en-US/docs/Web/API/Server-sent_events/Using_server-sent_events",
            "is_source_local": false, "description": "Developing a web application that uses <strong>server-sent events</strong> is straightforward.",
            "page_age": "2025-01-10T08:00:00", "age": "January 10, 2025", "language": "en",
            "profile": {"name": "MDN Web Docs", "url": "https://developer.mozilla.org", "long_name": "developer.mozilla.org"},
            "meta_url": {"scheme": "https", "netloc": "developer.mozilla.org", "hostname": "developer.mozilla.org"}}
         ]}}
        """

    /// Brave with no web results: the reply has no `web` member.
    public static let braveEmpty = """
        {"type": "search", "query": {"original": "qqqqzzzz", "more_results_available": false},
         "mixed": {"type": "mixed", "main": []}}
        """

    /// Tavily `POST /search`.
    public static let tavily = """
        {"query": "server-sent events", "follow_up_questions": null, "answer": null, "images": [],
         "results": [
          {"title": "Server-Sent Events explained", "url": "https://example.org/sse-explained",
           "content": "SSE is a one-way channel from server to browser over HTTP.", "score": 0.91, "raw_content": null},
          {"title": "Resuming streams with Last-Event-ID", "url": "https://example.org/last-event-id",
           "content": "The browser sends Last-Event-ID when it reconnects.", "score": 0.72, "raw_content": null,
           "published_date": "2024-06-03"}
         ],
         "response_time": 1.09, "request_id": "123e4567-e89b-12d3-a456-426614174111"}
        """

    public static let tavilyError = #"{"detail": {"error": "Unauthorized: missing or invalid API key."}}"#

    /// PubMed `esearch.fcgi?db=pubmed&term=…&retmode=json`.
    public static let esearch = """
        {"header": {"type": "esearch", "version": "0.3"},
         "esearchresult": {"count": "2", "retmax": "2", "retstart": "0", "idlist": ["38012345", "37654321"],
          "translationset": [], "querytranslation": "statin[All Fields] AND myopathy[All Fields]"}}
        """

    public static let esearchEmpty = """
        {"header": {"type": "esearch", "version": "0.3"},
         "esearchresult": {"count": "0", "retmax": "0", "retstart": "0", "idlist": [], "translationset": [],
          "querytranslation": "qqqzzz[All Fields]",
          "errorlist": {"phrasesnotfound": ["qqqzzz"], "fieldsnotfound": []},
          "warninglist": {"phrasesignored": [], "quotedphrasesnotfound": [], "outputmessages": ["No items found."]}}}
        """

    /// NCBI's rate-limit reply (with HTTP 429).
    public static let ncbiRateLimit = #"{"error":"API rate limit exceeded","api-key":"127.0.0.1","count":"4","limit":"3"}"#

    /// PubMed `efetch.fcgi?db=pubmed&id=…&retmode=xml`, articles in PMID order (not esearch's).
    public static let efetch = """
        <?xml version="1.0" ?>
        <!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">
        <PubmedArticleSet>
        <PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">37654321</PMID>
        <Article PubModel="Print-Electronic"><Journal><ISSN IssnType="Electronic">1474-547X</ISSN>
        <JournalIssue CitedMedium="Internet"><Volume>402</Volume><Issue>10405</Issue><PubDate><Year>2023</Year><Month>Sep</Month><Day>2</Day></PubDate></JournalIssue>
        <Title>Lancet (London, England)</Title><ISOAbbreviation>Lancet</ISOAbbreviation></Journal>
        <ArticleTitle>Statin therapy and muscle symptoms: an individual participant data meta-analysis.</ArticleTitle>
        <ELocationID EIdType="doi" ValidYN="Y">10.1016/S0140-6736(22)01545-8</ELocationID>
        <Abstract><AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">Statins are often blamed for muscle pain.</AbstractText>
        <AbstractText Label="FINDINGS" NlmCategory="RESULTS">Most muscle symptoms were not caused by the statin &amp; stopped anyway.</AbstractText></Abstract>
        <AuthorList CompleteYN="Y"><Author ValidYN="Y"><CollectiveName>Cholesterol Treatment Trialists' Collaboration</CollectiveName></Author></AuthorList>
        <Language>eng</Language></Article></MedlineCitation>
        <PubmedData><ArticleIdList><ArticleId IdType="pubmed">37654321</ArticleId><ArticleId IdType="doi">10.1016/S0140-6736(22)01545-8</ArticleId></ArticleIdList></PubmedData>
        </PubmedArticle>
        <PubmedArticle><MedlineCitation Status="PubMed-not-MEDLINE" Owner="NLM"><PMID Version="1">38012345</PMID>
        <Article PubModel="Electronic"><Journal><JournalIssue CitedMedium="Internet"><PubDate><MedlineDate>2023 Nov-Dec</MedlineDate></PubDate></JournalIssue>
        <Title>Journal of clinical lipidology</Title></Journal>
        <ArticleTitle>Statin-associated <i>myopathy</i>: a review.</ArticleTitle>
        <Abstract><AbstractText>Myopathy is rare on statins.</AbstractText></Abstract>
        <AuthorList CompleteYN="Y"><Author ValidYN="Y"><LastName>Smith</LastName><ForeName>Jane A</ForeName><Initials>JA</Initials></Author>
        <Author ValidYN="Y"><LastName>Ng</LastName><ForeName>Li</ForeName><Initials>L</Initials></Author></AuthorList>
        </Article></MedlineCitation>
        <PubmedData><ArticleIdList><ArticleId IdType="pubmed">38012345</ArticleId></ArticleIdList></PubmedData>
        </PubmedArticle>
        </PubmedArticleSet>
        """

    /// arXiv `query?search_query=all:…` Atom feed.
    public static let arxiv = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">
          <link href="http://arxiv.org/api/query?search_query%3Dall%3Astreaming%26id_list%3D%26start%3D0%26max_results%3D2" rel="self" type="application/atom+xml"/>
          <title type="html">ArXiv Query: search_query=all:streaming&amp;id_list=&amp;start=0&amp;max_results=2</title>
          <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
          <updated>2024-05-01T00:00:00-04:00</updated>
          <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">2</opensearch:totalResults>
          <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
          <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">2</opensearch:itemsPerPage>
          <entry>
            <id>http://arxiv.org/abs/2401.01234v2</id>
            <updated>2024-02-01T10:00:00Z</updated>
            <published>2024-01-03T18:59:59Z</published>
            <title>Streaming Token Delivery for
              Language Model Interfaces</title>
            <summary>  We study how tokens should be paced on screen.
            </summary>
            <author><name>Ada Lovelace</name></author>
            <author><name>Alan Turing</name></author>
            <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.48550/arXiv.2401.01234</arxiv:doi>
            <link title="doi" href="http://dx.doi.org/10.48550/arXiv.2401.01234" rel="related"/>
            <arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">Proc. CHI 2024</arxiv:journal_ref>
            <link href="http://arxiv.org/abs/2401.01234v2" rel="alternate" type="text/html"/>
            <link title="pdf" href="http://arxiv.org/pdf/2401.01234v2" rel="related" type="application/pdf"/>
            <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.HC" scheme="http://arxiv.org/schemas/atom"/>
          </entry>
          <entry>
            <id>http://arxiv.org/abs/2312.00001v1</id>
            <published>2023-12-01T00:00:00Z</published>
            <title>Server Push Revisited</title>
            <summary>A survey of push protocols.</summary>
            <author><name>Grace Hopper</name></author>
            <link href="http://arxiv.org/abs/2312.00001v1" rel="alternate" type="text/html"/>
          </entry>
        </feed>
        """

    public static let arxivEmpty = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <title type="html">ArXiv Query: search_query=all:qqqzzz</title>
          <id>http://arxiv.org/api/x</id>
          <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:totalResults>
        </feed>
        """

    /// arXiv's error report: a feed with one entry titled "Error".
    public static let arxivError = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <title type="html">ArXiv Query: search_query=&amp;id_list=&amp;start=0&amp;max_results=-1</title>
          <entry>
            <id>http://arxiv.org/api/errors#max_results_must_be_non-negative</id>
            <title>Error</title>
            <summary>max_results must be non-negative</summary>
            <link href="http://arxiv.org/api/errors#max_results_must_be_non-negative" rel="alternate" type="text/html"/>
            <author><name>arXiv api core</name></author>
          </entry>
        </feed>
        """
}
