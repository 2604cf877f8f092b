"""Real MCP clients from PyPI against `lectern mcp` over stdio.

Usage: python stdio_clients.py LECTERN_BIN MODE [MODE...]
MODE: auto | legacy | 2026-07-28 (mcp 2.x `Client`), or session (mcp 1.x
`ClientSession`, whose version picks the handshake: 1.3.0 speaks 2024-11-05,
1.9.4 speaks 2025-03-26).

It builds the demo library in a temporary folder, starts `lectern serve` on
it, and for each mode: lists the tools, searches in English and Chinese,
pages through results with next_offset, and reads a section to its end.
Prints one line per mode and exits non-zero on any failure.
"""

import asyncio
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import mcp

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXPECTED_TOOLS = {"list_installed_docsets", "search_documentation", "load_documentation_page"}


def structured(result):
    """structuredContent where the SDK has it, else the JSON text block."""
    content = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
    text = json.loads(result.content[0].text)
    if content is not None:
        assert content == text, "structuredContent and the text differ"
        return content
    return text


def is_error(result):
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", None))


async def exercise(call, list_tools, label):
    tools = await list_tools()
    names = {t.name for t in tools}
    assert names == EXPECTED_TOOLS, f"tools: {names}"
    listing = structured(await call("list_installed_docsets", {}))
    assert len(listing["docsets"]) == 5, listing

    en = structured(await call("search_documentation", {"text": "build an index without locking writes"}))
    assert en["hits"][0]["path"] == "/app/guide/indexes", en["hits"][0]
    zh = structured(await call("search_documentation", {"text": "并发创建索引", "locale": "zh-Hans"}))
    assert zh["hits"] and zh["hits"][0]["locale"] == "zh-Hans", zh

    keys, offset = [], 0
    while offset is not None:
        page = structured(await call("search_documentation",
                                     {"text": "app", "branch": "*", "locale": "*", "limit": 7, "offset": offset}))
        keys += [h["section_key"] for h in page["hits"]]
        offset = page["next_offset"]
        if offset is not None and offset > 60:
            break
    assert len(keys) == len(set(keys)), "a section came twice while paging"

    generation, key = en["generation"], en["hits"][0]["section_key"]
    text, offset = "", 0
    while offset is not None:
        part = structured(await call("load_documentation_page",
                                     {"section_key": key, "generation": generation, "offset": offset, "limit": 64}))
        text += part["text"]
        offset = part["next_offset"]
    assert "CONCURRENTLY" in text, text[:200]

    bad = await call("search_documentation", {"text": "x", "limit": 51})
    assert is_error(bad), "limit 51 must be a tool error"
    print(f"{label}: ok ({len(names)} tools, {len(keys)} results paged, section of {len(text)} characters read)")


async def run_mode(binary, user_data, mode):
    args = ["mcp", "--user-data", user_data]
    if mode == "session":
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        params = StdioServerParameters(command=binary, args=args)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                label = f"mcp {mcp_version()} session ({init.protocolVersion})"

                async def list_tools():
                    return (await session.list_tools()).tools
                await exercise(session.call_tool, list_tools, label)
    else:
        from mcp import Client
        from mcp.client.stdio import StdioServerParameters
        params = StdioServerParameters(command=binary, args=args)
        async with Client(params, mode=mode) as client:
            async def list_tools():
                listed = await client.list_tools()
                return getattr(listed, "tools", listed)
            await exercise(client.call_tool, list_tools, f"mcp {mcp_version()} mode {mode}")


def mcp_version():
    try:
        from importlib.metadata import version
        return version("mcp")
    except Exception:  # noqa: BLE001
        return "?"


def main():
    binary, modes = os.path.abspath(sys.argv[1]), sys.argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        user_data = os.path.join(tmp, "lib")
        subprocess.run([binary, "--user-data", user_data, "add", "--site", str(ROOT / "examples/demo/lectern.toml")],
                       check=True, stdout=subprocess.DEVNULL)
        server = subprocess.Popen([binary, "--user-data", user_data, "serve"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            status = pathlib.Path(user_data, "api", "status.json")
            deadline = time.time() + 20
            while not status.exists():
                if time.time() > deadline:
                    raise SystemExit("lectern serve did not start")
                time.sleep(0.05)
            failures = 0
            for mode in modes:
                try:
                    asyncio.run(run_mode(binary, user_data, mode))
                except Exception as e:  # noqa: BLE001
                    failures += 1
                    print(f"mcp {mcp_version()} mode {mode}: FAILED: {type(e).__name__}: {e}")
            print(f"stdio clients (mcp {mcp_version()}): {len(modes) - failures} passed, {failures} failed")
            sys.exit(1 if failures else 0)
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
