#!/usr/bin/env python3
"""Writes the hand-made starting inputs of fuzz/corpus/<target>/ (idempotent).

libFuzzer's own finds are minimised into the same folders by scripts/fuzz;
this script only (re)creates the named inputs, so each can be reviewed as text.
"""
import json, os, sqlite3, sys, tempfile

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus")

def put(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def rpc(id, method, params=None, proto=None):
    m = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m)

init = rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}})
initd = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
call = lambda id, name, args: rpc(id, "tools/call", {"name": name, "arguments": args})
stdio = {
    "init_list": "\n".join([init, initd, rpc(2, "tools/list")]) + "\n",
    "init_ping": "\n".join([rpc(1, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}}), initd, rpc(2, "ping")]) + "\n",
    "search": "\n".join([init, initd, call(2, "search_documentation", {"text": "CREATE INDEX", "limit": 3})]) + "\n",
    "search_bad_limit": "\n".join([init, initd, call(2, "search_documentation", {"text": "x", "limit": 999})]) + "\n",
    "search_wrong_type": "\n".join([init, initd, call(2, "search_documentation", {"text": 5})]) + "\n",
    "load_page": "\n".join([init, initd, call(3, "load_documentation_page", {"section_key": "00ff", "generation": "g", "offset": -1})]) + "\n",
    "load_url": "\n".join([init, initd, call(3, "load_documentation_page", {"load_url": "dash://x"})]) + "\n",
    "list": "\n".join([init, initd, call(4, "list_installed_docsets", {})]) + "\n",
    "unknown_tool": "\n".join([init, initd, call(5, "nope", {})]) + "\n",
    "batch": "[" + ",".join([init, rpc(2, "tools/list"), initd]) + "]\n",
    "empty_batch": "[]\n",
    "garbage": "{not json\n",
    "crlf": init + "\r\n" + rpc(2, "tools/list") + "\r\n",
    "discover": rpc(1, "server/discover", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}) + "\n",
    "stateless_call": json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search_documentation", "arguments": {"text": "a"}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}) + "\n",
    "cancel": "\n".join([init, initd, call(2, "search_documentation", {"text": "a"}), json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})]) + "\n",
    "notification_first": initd + "\n" + init + "\n",
    "no_jsonrpc": json.dumps({"id": 1, "method": "initialize"}) + "\n",
    "id_object": json.dumps({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}) + "\n",
    "response": json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}}) + "\n",
    "nul_and_utf8": b'{"jsonrpc":"2.0","id":1,"method":"ping\x00"}\n\xff\xfe\n',
    "scalar_lines": "1\n\"s\"\nnull\ntrue\n",
    "nested": "[" * 200 + "]" * 200 + "\n",
    "many_calls": "\n".join([init, initd] + [call(i, "search_documentation", {"text": "q"}) for i in range(10, 30)]) + "\n",
}
for k, v in stdio.items():
    put("stdio_framing", k, v)

queries = ["CREATE INDEX", "PG96: SELECT", "pg 13: vacuum", "postgresql18: index", "\"quoted phrase\" -excluded",
    "-\"not this\" word", "project:postgresql version:18 index", "branch:* lang:* x", "locale:zh-Hans 创建索引",
    "如何在不阻塞写入的情况下创建索引", "domain:wiki collection:howto a", "version:", "::::", "\"unterminated",
    "- - -", "PG:", "pg9.6: x", "PG99999999999999999999: x", "ا\u0644\u0639\u0631\u0628\u064a\u0629 text",
    "e\u0301\u0301\u0301 combining", "\u202e\u202d bidi", "x" * 256, "\u0000nul", "project:*", "a:b:c:d",
    "how do I build an index without locking the table", "ǅ ß ﬁ İ", "-", "\"\"", "version:9.6 PG18: x"]
for i, q in enumerate(queries):
    put("query", f"q{i:02}", q)

md = {
    "plain": "# Title\n\nText.\n",
    "frontmatter": "---\ntitle: Install\ndescription: How\norder: 3\ndraft: false\n---\n# Install\n\nBody.\n",
    "draft": "---\ndraft: true\n---\nhidden\n",
    "no_close": "---\ntitle: x\nno closing fence\n",
    "dots_close": "---\ntitle: x\n...\nbody\n",
    "yaml_list": "---\n- a\n- b\n---\nbody\n",
    "yaml_bad": "---\ntitle: [unclosed\n---\nbody\n",
    "yaml_deep": "---\n" + "a: " + "[" * 40 + "]" * 40 + "\n---\nx\n",
    "yaml_anchor": "---\na: &a [1,2]\nb: *a\nc: *a\n---\nx\n",
    "order_str": "---\norder: many\ntitle: 5\n---\nx\n",
    "order_big": "---\norder: 99999999999999999999999\n---\nx\n",
    "headings": "# A\n## B\n### C\n#### D\n##### E\n###### F\n####### G\n",
    "setext": "Title\n=====\n\nSub\n---\n\ntext\n",
    "code": "```rust\nfn main() {}\n```\n\n    indented\n",
    "html_inline": "<div>raw <b>html</b></div>\n\n# <script>x</script>\n",
    "links": "[a](../x.md) [b](/abs) ![i](img.png) <https://e.com>\n",
    "table": "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "rtl": "# \u0645\u0631\u062d\u0628\u0627\n\n\u05e9\u05dc\u05d5\u05dd \u202e reversed\n",
    "combining": "# e\u0301\u0301\u0301\u0301\n\nZ\u0351\u0352\u0353\u0354\n",
    "cjk": "# 创建索引\n\n如何在不阻塞写入的情况下创建索引。\n",
    "crlf": "---\r\ntitle: x\r\n---\r\n# H\r\n\r\ntext\r\n",
    "bom": "\ufeff---\ntitle: bom\n---\n# x\n",
    "nul": "# a\x00b\n\nc\x00\n",
    "invalid_utf8": b"# ok\n\n\xff\xfe bad\n",
    "empty": "",
    "only_fence": "---\n",
    "footnotes": "text[^1]\n\n[^1]: note\n",
    "nested_lists": "- a\n  - b\n    - c\n      - d\n" * 3,
    "heading_dupes": "# A\n## Same\n## Same\n## Same\n",
    "empty_headings": "#\n##\n###   \n",
}
for k, v in md.items():
    put("markdown", k, v)

h = {
    "docbook": '<html><head><title>CREATE INDEX</title></head><body><div class="navheader">nav</div><div class="refentry" id="SQL-CREATEINDEX"><div class="refnamediv"><h2>CREATE INDEX</h2><p>define a new index</p></div><div class="refsect1" id="id-1"><h2>Description</h2><p>Text <a href="sql-select.html#x">SELECT</a>.</p></div></div><div class="navfooter">foot</div></body></html>',
    "generic": "<html><body><h1>T</h1><p>p</p><h2 id=a>A</h2><p>x</p></body></html>",
    "no_body": "<p>just a paragraph",
    "unclosed": "<html><body><div><div><div><h1>x",
    "nested": "<div>" * 300 + "x" + "</div>" * 300,
    "table": "<table><tr><td>a</td><td>b<table><tr><td>c</td></tr></table></td></tr></table>",
    "pre": "<pre>  code\n  <b>bold</b>\n</pre>",
    "entities": "<p>&amp; &lt; &#x1F600; &#0; &#xD800; &bogus;</p>",
    "script": "<script>alert(1)</script><style>p{}</style><h1>t</h1>",
    "links": '<a href="javascript:x">j</a><a href="../../etc/passwd">p</a><a href="#frag">f</a><a href="http://e.com">e</a>',
    "headings_only": "<h1></h1><h2></h2><h3>   </h3>",
    "rtl": "<h1>\u0645\u0631\u062d\u0628\u0627</h1><p dir=rtl>\u05e9\u05dc\u05d5\u05dd</p>",
    "cjk": "<h1>创建索引</h1><p>不阻塞写入</p>",
    "nul": "<h1>a\x00b</h1><p>\x00</p>",
    "invalid_utf8": b"<h1>\xff\xfe</h1>",
    "empty": "",
    "xhtml": '<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x"><html xmlns="http://www.w3.org/1999/xhtml"><body><h1>X</h1></body></html>',
    "lists": "<ul><li>a<ul><li>b</li></ul></li></ul><ol start=5><li>c</li></ol><dl><dt>t</dt><dd>d</dd></dl>",
    "code_inline": "<p><code>a`b</code> <kbd>k</kbd> <em>e</em> <strong>s</strong></p>",
    "img": '<img src="x.png" alt="alt text"><img>',
    "comment": "<!-- comment --><h1>x</h1><!-- unclosed",
    "cdata": "<![CDATA[x]]><h1>y</h1>",
    "sect_ids": '<div class="sect1" id="A"><h2 class="title">1. A</h2><div class="sect2" id="B"><h3>1.1 B</h3><p>b</p></div></div>',
}
for k, v in h.items():
    put("html", k, v)

plist = '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleName</key><string>Click</string><key>CFBundleIdentifier</key><string>click</string><key>DocSetPlatformFamily</key><string>click</string></dict></plist>'
page = "<html><body><h1>API</h1><h2 id='click.Abort'>Abort</h2><p>x</p></body></html>"
def ds(layout, pl, pg, rows):
    b = bytes([layout]) + pl.encode() + b"\0" + pg.encode()
    for r in rows:
        b += b"\0" + b"\0".join(c.encode() for c in r)
    return b
docs = {
    "search_index": ds(0, plist, page, [("Abort", "Exception", "index.html#click.Abort"), ("Group", "Class", "index.html")]),
    "ztoken": ds(1, plist, page, [("Abort", "Exception", "index.html#click.Abort")]),
    "dash_entry": ds(0, plist, page, [("x", "Function", "<dash_entry_name=x>index.html#y")]),
    "dash_entry_unclosed": ds(0, plist, page, [("x", "Function", "<dash_entry_name=x")]),
    "remote": ds(0, plist, page, [("x", "Function", "https://example.com/x")]),
    "traversal": ds(0, plist, page, [("x", "Function", "../../../etc/passwd"), ("y", "F", "/etc/passwd")]),
    "missing_file": ds(0, plist, page, [("x", "Function", "nope.html")]),
    "empty_name": ds(0, plist, page, [("", "", ""), ("  ", "T", "index.html")]),
    "bad_plist": ds(0, "<plist><dict><key>CFBundleName", page, [("a", "b", "index.html")]),
    "binary_plist": ds(0, "bplist00\x08\x00", page, []),
    "no_plist": ds(1, "", page, [("a", "b", "index.html#")]),
    "empty_page": ds(0, plist, "", [("a", "b", "index.html")]),
    "rtl_names": ds(0, plist, page, [("\u0645\u0631\u062d\u0628\u0627", "Function", "index.html#\u202e")]),
    "query_string": ds(0, plist, page, [("a", "b", "index.html?x=1#y")]),
    "percent": ds(1, plist, page, [("a", "b", "index%20x.html#%ZZ")]),
    "nul_in_name": ds(0, plist, page, [("a\x01b", "b", "index.html")]),
}
for k, v in docs.items():
    put("docset", k, v)

def sqlite_db(sql):
    """The bytes of a small SQLite database made by `sql` (512-byte pages)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "db")
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA page_size = 512")
        conn.executescript(sql)
        conn.commit()
        conn.execute("VACUUM")
        conn.close()
        with open(path, "rb") as f:
            return f.read()
search_table = "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);"
ztables = """CREATE TABLE ZTOKENTYPE(Z_PK INTEGER, ZTYPENAME TEXT);
CREATE TABLE ZFILEPATH(Z_PK INTEGER, ZPATH TEXT);
CREATE TABLE ZTOKENMETAINFORMATION(Z_PK INTEGER, ZFILE INTEGER, ZANCHOR TEXT);
CREATE TABLE ZTOKEN(Z_PK INTEGER, ZTOKENNAME TEXT, ZTOKENTYPE INTEGER, ZMETAINFORMATION INTEGER);"""
count = lambda n: f"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r LIMIT {n})"
index_dbs = {
    "search_index": sqlite_db(search_table + "INSERT INTO searchIndex(name, type, path) VALUES ('Abort', 'Exception', 'index.html#click.Abort'), ('Group', 'Class', 'index.html');"),
    "ztoken": sqlite_db(ztables + "INSERT INTO ZTOKENTYPE VALUES (1, 'Function'); INSERT INTO ZFILEPATH VALUES (1, 'index.html'); INSERT INTO ZTOKENMETAINFORMATION VALUES (1, 1, 'a'); INSERT INTO ZTOKEN VALUES (1, 'f', 1, 1);"),
    "endless_view": sqlite_db("CREATE VIEW searchIndex AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT NULL AS name, 'Function' AS type, 'index.html' AS path FROM r;"),
    "endless_empty_view": sqlite_db("CREATE VIEW searchIndex AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT 'x' AS name, 'T' AS type, 'index.html' AS path FROM r WHERE n < 0;"),
    "multiplying_join": sqlite_db(ztables + "".join(f"{count(40)} INSERT INTO {t} SELECT {v} FROM r;" for t, v in [("ZTOKENTYPE", "1, 'F'"), ("ZFILEPATH", "1, 'index.html'"), ("ZTOKENMETAINFORMATION", "1, 1, NULL"), ("ZTOKEN", "1, 'n', 1, 1")])),
    "nameless_rows": sqlite_db(search_table + count(300) + " INSERT INTO searchIndex(name, type, path) SELECT NULL, 'F', 'index.html' FROM r;"),
    "huge_value_view": sqlite_db("CREATE VIEW searchIndex AS SELECT printf('%.*c', 5000000, 'x') AS name, 'T' AS type, 'index.html' AS path;"),
    "trigger": sqlite_db(search_table + "CREATE TABLE log(x); CREATE TRIGGER t AFTER INSERT ON searchIndex BEGIN INSERT INTO log VALUES (1); END; INSERT INTO searchIndex(name, type, path) VALUES ('a', 'b', 'index.html');"),
    "no_index_tables": sqlite_db("CREATE TABLE other(x);"),
    "wrong_types": sqlite_db(search_table + "INSERT INTO searchIndex(name, type, path) VALUES (1, x'00ff', 2.5), ('a', NULL, 'index.html');"),
}
index_dbs["truncated"] = index_dbs["search_index"][:700]
index_dbs["not_sqlite"] = b"SQLite format 3\0" + b"\xff" * 100
for k, v in index_dbs.items():
    put("docset_index", k, v)

site = {
    "minimal": '[site]\nname = "Docs"\ndefault_locale = "en"\n\n[[editions]]\nproject = "app"\nversion = "1"\nlocale = "en"\nsource = "docs"\n',
    "full": '[site]\nname = "Docs"\ndescription = "d"\ninstructions = "i"\ndefault_locale = "en"\nbase_url = "https://docs.example.com"\nallowed_hosts = ["docs.example.com"]\n\n[[editions]]\nproject = "app"\nversion = "2"\nlocale = "en"\nsource = "v2"\nprefix = "/app"\nstatus = "current"\nlabel = "App 2"\nref = "v2.0"\n\n[[editions]]\nproject = "app"\nversion = "1"\nlocale = "en"\nsource = "v1"\nprefix = "/app/v1"\nstatus = "eol"\n',
    "empty": "",
    "bad_toml": "[site\nname=",
    "wrong_type": '[site]\nname = 5\n',
    "unknown_key": '[site]\nname = "x"\nbogus = 1\n',
    "bad_locale": '[site]\nname = "x"\ndefault_locale = "??"\n[[editions]]\nproject = "a"\nversion = "1"\nlocale = "zz-!!"\nsource = "d"\n',
    "bad_prefix": '[site]\nname = "x"\ndefault_locale = "en"\n[[editions]]\nproject = "a"\nversion = "1"\nlocale = "en"\nsource = "d"\nprefix = "../x"\n',
    "dup_prefix": '[site]\nname = "x"\ndefault_locale = "en"\n[[editions]]\nproject = "a"\nversion = "1"\nlocale = "en"\nsource = "d"\nprefix = "/a"\n[[editions]]\nproject = "b"\nversion = "1"\nlocale = "en"\nsource = "d"\nprefix = "/a"\n',
    "bad_status": '[site]\nname = "x"\ndefault_locale = "en"\n[[editions]]\nproject = "a"\nversion = "1"\nlocale = "en"\nsource = "d"\nstatus = "ancient"\n',
    "abs_source": '[site]\nname = "x"\ndefault_locale = "en"\n[[editions]]\nproject = "a"\nversion = "1"\nlocale = "en"\nsource = "/etc"\n',
    "rate_limits": '[site]\nname = "x"\ndefault_locale = "en"\n[limits]\nrequests_per_minute = -1\n',
    "unicode_name": '[site]\nname = "\u0645\u0631\u062d\u0628\u0627 e\u0301\u202e"\ndefault_locale = "zh-Hans"\n',
    "nul": '[site]\nname = "a\\u0000b"\n',
    "deep_inline": "a = " + "[" * 100 + "]" * 100 + "\n",
    "huge_int": '[site]\nname = "x"\n[limits]\nrequests_per_minute = 99999999999999999999\n',
    "editions_not_array": '[site]\nname = "x"\neditions = "no"\n',
    "dotted_keys": 'site.name = "x"\nsite.default_locale = "en"\n',
    "base_url_bad": '[site]\nname = "x"\ndefault_locale = "en"\nbase_url = "not a url"\n',
    "crlf": '[site]\r\nname = "x"\r\ndefault_locale = "en"\r\n',
}
for k, v in site.items():
    put("site_config", k, v)

ck = {
    "list_none": b"\x00",
    "list_cursor": b"\x00/postgresql/guide",
    "list_cursor_end": b"\x00/zzzz",
    "list_cursor_bad": b"\x00no-slash",
    "list_cursor_ctl": b"\x00/a\x01b",
    "list_cursor_long": b"\x00/" + b"a" * 3000,
    "prefix": b"\x01/postgresql",
    "prefix_nested": b"\x01/postgresql/9.6",
    "prefix_locale": b"\x01/zh-Hans/postgresql",
    "prefix_bad": b"\x01../..",
    "prefix_limit": b"\x01\xff",
    "search_cursor": b"\x02/postgresql/sql-createindex",
    "search_cursor_rtl": "\x02/\u202e\u0645".encode(),
    "key_hex": b"\x030123456789abcdef",
    "key_empty": b"\x03",
    "key_ws": b"\x03   ",
    "key_neg": b"\x03\x80\x80",
    "key_nul": b"\x03\x00\x00\x00",
    "page_path": b"\x04/postgresql/sql-createindex",
    "page_anchor": b"\x04/postgresql/sql-createindex#concurrently",
    "page_rel": b"\x04sql-createindex",
    "page_dotdot": b"\x04/postgresql/../app",
    "page_offset": b"\x04\x7f\x7f/postgresql",
    "site_page": b"\x05/postgresql",
    "site_page_window": b"\x05\x7f\x01",
    "site_page_neg": b"\x05\x80\xff",
    "site_page_md": b"\x05/postgresql.md",
}
for k, v in ck.items():
    put("cursor_key", k, v)
print("fuzz inputs written under", os.path.normpath(root))
