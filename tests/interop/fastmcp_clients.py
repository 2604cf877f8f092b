"""fastmcp's Client (PyPI fastmcp==4.2.3, on mcp 2.3.0) against both Lectern
MCP faces, in every protocol mode it offers.

fastmcp picks the era with `Client(..., mode=...)`: "auto" (its default:
probe server/discover, fall back to initialize), "legacy" (the initialize
handshake only) or a modern version, "2026-07-28" (adopted directly, no
probe). Faces: `lectern mcp` over stdio (with a running local API, and
without one) and the site's /mcp over Streamable HTTP.

Per face and mode: tools/list, one success and one error call (through
call_tool(raise_on_error=False), what fastmcp users write), each checked for
isError, structuredContent valid against the tool's outputSchema (JSON
Schema 2020-12), the text block being the JSON of structuredContent, and the
error code.

Run: .venv-fastmcp/bin/python tests/interop/fastmcp_clients.py  (LECTERN_BIN
overrides target/debug/lectern). Prints `ok` / `FAIL` lines and
"fastmcp-clients: N passed, M failed"; exits non-zero on a failure.
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

import jsonschema
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

ROOT = Path(__file__).resolve().parents[2]
LECTERN = os.environ.get("LECTERN_BIN", str(ROOT / "target" / "debug" / "lectern"))
CONFIG = ROOT / "examples" / "demo" / "lectern.toml"
MODES = ["auto", "legacy", "2026-07-28"]
STDIO_TOOLS = {"list_installed_docsets", "search_documentation", "load_documentation_page"}
SITE_TOOLS = {"list_versions", "list_pages", "search_docs", "read_page"}

passed, failed = 0, 0


def report(name, problems):
    global passed, failed
    if problems:
        failed += 1
        print(f"FAIL {name}: {'; '.join(problems)}", flush=True)
    else:
        passed += 1
        print(f"ok   {name}", flush=True)


def result_problems(schema, result, error=None, text_is=None):
    """What a tool result owes every client, as a list of problems."""
    problems = []
    if bool(result.is_error) != bool(error):
        problems.append(f"isError is {result.is_error} (expected {bool(error)})")
    sc = result.structured_content
    if sc is None:
        problems.append("no structuredContent")
    elif schema is not None:
        errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(sc), key=lambda e: list(e.path))
        if errors:
            shown = "; ".join(e.message for e in errors[:3])
            problems.append(f"structuredContent does not match the outputSchema: {shown}"
                            + (f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""))
    texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    if not texts:
        problems.append("no text block")
    elif text_is is not None:
        if texts[0] != text_is(sc or {}):
            problems.append(f"text block is not the documented text: {texts[0][:60]!r}")
    elif sc is not None:
        try:
            if json.loads(texts[0]) != sc:
                problems.append("text block's JSON differs from structuredContent")
        except ValueError:
            problems.append(f"text block is not JSON: {texts[0][:60]!r}...")
    if error:
        code = (sc or {}).get("error", {}).get("code") if isinstance(sc, dict) else None
        if code != error:
            problems.append(f"error code {code!r} (expected {error})")
    return problems


class Session:
    def __init__(self, label, client):
        self.label, self.client, self.schemas = label, client, {}

    async def list_tools(self, expected):
        tools = await self.client.list_tools()
        names = {t.name for t in tools}
        self.schemas = {t.name: t.output_schema for t in tools}
        problems = [] if names == expected else [f"tools {sorted(names)}"]
        problems += [f"{t.name} has no outputSchema" for t in tools if not t.output_schema]
        report(f"{self.label} tools/list: exactly {', '.join(sorted(expected))}", problems)

    async def call(self, what, name, args, error=None, text_is=None):
        outcome = f"→ {error}" if error else "succeeds"
        try:
            result = await self.client.call_tool(name, args, raise_on_error=False)
        except Exception as e:  # noqa: BLE001 - a client-side failure is the finding
            report(f"{self.label} {name} {what} {outcome}", [f"the client raised {type(e).__name__}: {str(e)[:300]}"])
            return None
        problems = result_problems(self.schemas.get(name), result, error, text_is)
        # fastmcp turns a success's structuredContent into `.data` through a
        # type built from the outputSchema, and only logs when it cannot.
        if not error and result.structured_content is not None and result.data is None:
            problems.append("fastmcp could not build .data from structuredContent through the outputSchema")
        report(f"{self.label} {name} {what} {outcome}", problems)
        return result.structured_content


def era_problems(client, mode):
    version = client.protocol_version
    if mode == "legacy":
        return [] if version and version != "2026-07-28" else [f"version {version} (expected a handshake version)"]
    return [] if version == "2026-07-28" else [f"version {version} (expected 2026-07-28)"]


async def stdio_face(library, no_api, mode):
    label = f"[fastmcp {mode} stdio]"
    transport = StdioTransport(LECTERN, ["mcp", "--user-data", library], keep_alive=False)
    async with Client(transport, mode=mode) as c:
        report(f"{label} protocol version ({c.protocol_version})", era_problems(c, mode))
        s = Session(label, c)
        await s.list_tools(STDIO_TOOLS)
        await s.call("(English words)", "search_documentation", {"text": "build an index without locking writes"})
        await s.call("(limit 51)", "search_documentation", {"text": "x", "limit": 51}, error="invalid_argument")
    label = f"[fastmcp {mode} stdio, no local API]"
    transport = StdioTransport(LECTERN, ["mcp", "--user-data", no_api], keep_alive=False)
    async with Client(transport, mode=mode) as c:
        s = Session(label, c)
        await s.list_tools(STDIO_TOOLS)
        await s.call("{}", "list_installed_docsets", {}, error="local_api_unavailable")


async def site_face(url, mode):
    label = f"[fastmcp {mode} http]"
    async with Client(url, mode=mode) as c:
        report(f"{label} protocol version ({c.protocol_version})", era_problems(c, mode))
        s = Session(label, c)
        await s.list_tools(SITE_TOOLS)
        await s.call("(limit 2)", "list_pages", {"limit": 2})
        # read_page's text is documented as the page's Markdown under our frontmatter.
        await s.call("(/app/guide/install)", "read_page", {"path": "/app/guide/install"}, text_is=lambda sc: sc.get("markdown"))
        await s.call("(missing path)", "read_page", {"path": "/app/no-such-page"}, error="not_found")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, proc, ready, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            if ready():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up in {seconds} s")


async def main():
    work = Path(tempfile.mkdtemp(prefix="lectern-fastmcp-"))
    library, no_api = str(work / "library"), str(work / "no-api")
    subprocess.run([LECTERN, "--user-data", library, "add", "--site", str(CONFIG)], check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    procs = [
        subprocess.Popen([LECTERN, "--user-data", library, "serve"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        subprocess.Popen([LECTERN, "--user-data", str(work / "site"), "serve", "--site", str(CONFIG),
                          "--listen", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ]
    try:
        wait_for("lectern serve", procs[0], lambda: Path(library, "api", "status.json").exists(), 20)
        wait_for("lectern serve --site", procs[1],
                 lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).status == 200, 120)
        for mode in MODES:
            for name, run in [("stdio", lambda: stdio_face(library, no_api, mode)),
                              ("http", lambda: site_face(f"http://127.0.0.1:{port}/mcp", mode))]:
                try:
                    await run()
                except Exception:  # noqa: BLE001
                    report(f"[fastmcp {mode} {name}] session ran", [traceback.format_exc().strip().splitlines()[-1]])
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print(f"fastmcp-clients: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
