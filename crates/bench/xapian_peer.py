"""Xapian as a search-quality peer for `lectern-bench eval` (benchmark only).

The bench runs this script as a child and talks JSON lines over its stdin
and stdout:

- `{"doc": {"db": ID, "locale": L, "path": P, "title": T, "text": X}}` adds
  one section to the in-memory database of edition ID (nothing is written
  back, so the bench can stream every section before the first question);
- `{"query": {"db": ID, "text": Q, "limit": N}}` answers with one line
  `{"paths": [P, ...]}`, best first (or `{"error": "..."}`).

Xapian is used as a plain Xapian user would use it: BM25 (Xapian's default
weighting), the default QueryParser with the default operator OR, the
English stemmer for `en`, and CJK text indexed and parsed as n-grams
(`FLAG_CJK_NGRAM`) for other locales. The title is indexed with a wdf
increment of 5, as the FTS5 peer weights its title column 5 to 1.

Xapian 1.4's parser joins the n-grams of one unbroken CJK run with AND, so
an unsegmented Chinese question would need every one of its n-grams in one
section; the bench therefore sends Chinese questions already split into
space-separated overlapping bigrams (as it does for FTS5), and the default
operator OR then applies between them as it does between words.
"""

import json
import sys

import xapian

TITLE_WEIGHT = 5


class Edition:
    def __init__(self, locale):
        self.db = xapian.WritableDatabase("", xapian.DB_BACKEND_INMEMORY)
        self.english = locale == "en"
        self.indexer = xapian.TermGenerator()
        if self.english:
            self.indexer.set_stemmer(xapian.Stem("english"))
        else:
            self.indexer.set_flags(xapian.TermGenerator.FLAG_CJK_NGRAM)
        self.parser = None

    def add(self, doc):
        d = xapian.Document()
        self.indexer.set_document(d)
        self.indexer.index_text(doc["title"], TITLE_WEIGHT)
        # Keeps phrases from running from the title into the body.
        self.indexer.increase_termpos()
        self.indexer.index_text(doc["text"])
        d.set_data(doc["path"])
        self.db.add_document(d)

    def search(self, text, limit):
        if self.parser is None:
            self.parser = xapian.QueryParser()
            self.parser.set_database(self.db)
            self.parser.set_default_op(xapian.Query.OP_OR)
            if self.english:
                self.parser.set_stemmer(xapian.Stem("english"))
                self.parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
        flags = xapian.QueryParser.FLAG_DEFAULT
        if not self.english:
            flags |= xapian.QueryParser.FLAG_CJK_NGRAM
        try:
            query = self.parser.parse_query(text, flags)
        except xapian.QueryParserError:
            # Text the parser rejects is read as plain words: a stray quote,
            # say, or (Xapian 1.4.22) a lone CJK character between two Latin
            # words, as in `DELETE 和 TRUNCATE`. The bigrams sent for Chinese
            # are terms of the index as they stand.
            query = self.parser.parse_query(text, 0)
        enquire = xapian.Enquire(self.db)
        enquire.set_query(query)
        enquire.set_weighting_scheme(xapian.BM25Weight())
        return [m.document.get_data().decode("utf-8") for m in enquire.get_mset(0, limit)]


def main():
    editions = {}
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if "doc" in msg:
            doc = msg["doc"]
            edition = editions.get(doc["db"])
            if edition is None:
                edition = editions[doc["db"]] = Edition(doc["locale"])
            edition.add(doc)
            continue
        q = msg["query"]
        edition = editions.get(q["db"])
        if edition is None:
            reply = {"error": "no documents for edition %r" % q["db"]}
        else:
            try:
                reply = {"paths": edition.search(q["text"], int(q.get("limit", 10)))}
            except xapian.Error as err:
                reply = {"error": str(err)}
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
