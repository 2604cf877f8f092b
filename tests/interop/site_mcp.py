"""The docs site's /mcp (four tools) through a real client: the Python SDK (mcp==2.3.0) over
Streamable HTTP against `lectern serve --site` on a temporary copy of the
demo site, in every connect mode (auto, 2026-07-28, legacy initialize).

Checks: exactly the four tools; list_versions; a listing paged to its end;
search_docs + read_page; fallback pages in /zh-Hans/app; a cursor that
survives a page added between two calls (`lectern add --site` run from
another process while the server runs); tool errors as isError results.

Run: .venv/bin/python tests/interop/site_mcp.py  (LECTERN_BIN overrides
target/debug/lectern). Prints "N passed, M failed" and exits non-zero on a
failure.
"""

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

from mcp import Client

ROOT = Path(__file__).resolve().parents[2]
LECTERN = os.environ.get("LECTERN_BIN", str(ROOT / "target" / "debug" / "lectern"))
TOOLS = {"list_versions", "list_pages", "search_docs", "read_page"}

passed, failed = 0, 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
        return json.loads(r.read())


def start_site(config, user_data, port):
    proc = subprocess.Popen(
        [LECTERN, "--user-data", str(user_data), "serve", "--site", str(config), "--listen", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"lectern serve --site exited: {proc.stderr.read().decode()}")
        try:
            health(port)
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("lectern serve --site did not come up in 120 s")


def structured(result):
    return result.structured_content or {}


async def list_all(client, prefix=None, limit=3):
    pages, cursor, calls = [], None, 0
    while True:
        args = {"limit": limit}
        if prefix:
            args["prefix"] = prefix
        if cursor:
            args["cursor"] = cursor
        r = structured(await client.call_tool("list_pages", args))
        pages += r["pages"]
        calls += 1
        cursor = r.get("nextCursor")
        if cursor is None:
            return pages, calls


async def every_tool(url, mode):
    async with Client(url, mode=mode) as c:
        tools = await c.list_tools()
        names = {t.name for t in tools.tools}
        check(f"[{mode}] exactly the four seed-002 tools", names == TOOLS, names)
        check(f"[{mode}] every tool is read-only", all(t.annotations and t.annotations.read_only_hint for t in tools.tools))
        if mode != "2026-07-28":  # a pinned version skips server/discover, so no server info
            check(f"[{mode}] server name from the config", c.server_info is not None and c.server_info.name == "Acme App Docs", c.server_info)

        v = await c.call_tool("list_versions", {})
        versions = structured(v)["versions"]
        prefixes = [x["prefix"] for x in versions]
        check(f"[{mode}] list_versions prefixes", {"/app", "/app/v1", "/zh-Hans/app"} <= set(prefixes), prefixes)
        default = [x["prefix"] for x in versions if x["default"]]
        check(f"[{mode}] one default edition, /app", default == ["/app"], default)
        app = next(x for x in versions if x["prefix"] == "/app")
        check(f"[{mode}] locales of App 2", app["locales"] == ["en", "zh-Hans"], app)

        whole = structured(await c.call_tool("list_pages", {"limit": 100}))
        paged, calls = await list_all(c)
        check(f"[{mode}] listing paged to its end equals one big page", [p["path"] for p in paged] == [p["path"] for p in whole["pages"]] and calls > 1, calls)
        check(f"[{mode}] a complete listing has no nextCursor", "nextCursor" not in whole)
        check(f"[{mode}] default scope is the default locale only", all(p["locale"] == "en" for p in whole["pages"]))
        check(f"[{mode}] nested versions are separate scopes", not any(p["path"].startswith("/app/v1") for p in structured(await c.call_tool("list_pages", {"prefix": "/app", "limit": 100}))["pages"]))

        zh = structured(await c.call_tool("list_pages", {"prefix": "/zh-Hans/app", "limit": 100}))["pages"]
        fallbacks = [p for p in zh if p["fallback"]]
        check(f"[{mode}] fallback pages in /zh-Hans/app", fallbacks and all(p["locale"] == "en" and p["path"].startswith("/zh-Hans/app/") for p in fallbacks), fallbacks)
        check(f"[{mode}] each path once in /zh-Hans/app", len({p["path"] for p in zh}) == len(zh))

        s = structured(await c.call_tool("search_docs", {"term": "INSTALL", "prefix": "/app"}))
        paths = [p["path"] for p in s["pages"]]
        check(f"[{mode}] search_docs finds pages, sorted by path", paths and paths == sorted(paths), paths)
        check(f"[{mode}] search_docs excerpts", all(p["excerpt"] for p in s["pages"]), s["pages"][:1])
        cjk = structured(await c.call_tool("search_docs", {"term": "索引", "prefix": "/zh-Hans/app"}))
        check(f"[{mode}] search_docs finds CJK", len(cjk["pages"]) > 0, cjk)

        r = await c.call_tool("read_page", {"path": paths[0]})
        text = r.content[0].text
        check(f"[{mode}] read_page is frontmatter over Markdown", text.startswith(f'---\npath: "{paths[0]}"\n') and "<p>" not in text, text[:200])
        fb = await c.call_tool("read_page", {"path": fallbacks[0]["path"]})
        check(f"[{mode}] read_page flags a fallback", "\nfallback: true\n" in fb.content[0].text, fb.content[0].text[:300])

        bad = await c.call_tool("list_pages", {"limit": 500})
        err = structured(bad).get("error", {})
        check(f"[{mode}] a bad limit is an isError result", bad.is_error and err.get("code") == "invalid_argument" and "1 to 100" in err.get("message", ""), bad)
        bad = await c.call_tool("search_docs", {"term": "x", "prefix": "/nope"})
        check(f"[{mode}] an unknown prefix lists the valid ones", bad.is_error and "/app/v1" in structured(bad)["error"]["message"], bad)
        bad = await c.call_tool("read_page", {"path": "/app/no-such-page"})
        check(f"[{mode}] a missing page is not_found", bad.is_error and structured(bad)["error"]["code"] == "not_found", bad)


async def cursor_survives_a_change(url, port, config, user_data):
    async with Client(url) as c:
        first = structured(await c.call_tool("list_pages", {"prefix": "/app", "limit": 3}))
        cursor = first["nextCursor"]
        generation = health(port)["generation"]
        guide = config.parent / "app" / "v2" / "en" / "guide"
        (guide / "zz-added.md").write_text("---\ntitle: Added later\n---\n\n# Added later\n\nA page added between two calls.\n")
        (config.parent / "app" / "v2" / "en" / "aaa-added.md").write_text("---\ntitle: Added before\n---\n\nSorted before the cursor.\n")
        subprocess.run([LECTERN, "--user-data", str(user_data), "add", "--site", str(config)], check=True, capture_output=True)
        deadline = time.time() + 10
        while health(port)["generation"] == generation and time.time() < deadline:
            time.sleep(0.1)
        check("the running server picks up the new generation", health(port)["generation"] != generation)
        rest, cursor2 = [], cursor
        while cursor2:
            r = structured(await c.call_tool("list_pages", {"prefix": "/app", "limit": 3, "cursor": cursor2}))
            rest += r["pages"]
            cursor2 = r.get("nextCursor")
        seen = [p["path"] for p in first["pages"]] + [p["path"] for p in rest]
        check("the cursor continues strictly after its path", all(p["path"] > cursor for p in rest), cursor)
        check("a page added after the cursor is listed", "/app/guide/zz-added" in seen, seen)
        check("a page added before the cursor is not", "/app/aaa-added" not in seen, seen)
        check("no page is listed twice", len(seen) == len(set(seen)), seen)


async def main():
    work = Path(tempfile.mkdtemp(prefix="lectern-site-interop-"))
    shutil.copytree(ROOT / "examples" / "demo", work / "demo")
    config, user_data = work / "demo" / "lectern.toml", work / "user-data"
    port = free_port()
    proc = start_site(config, user_data, port)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        for mode in ["auto", "2026-07-28", "legacy"]:
            try:
                await every_tool(url, mode)
            except Exception:
                check(f"[{mode}] session ran", False, traceback.format_exc())
        try:
            await cursor_survives_a_change(url, port, config, user_data)
        except Exception:
            check("cursor test ran", False, traceback.format_exc())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print(f"site /mcp interop (mcp 2.3.0): {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
