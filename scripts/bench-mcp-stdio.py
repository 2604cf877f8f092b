#!/usr/bin/env python3
"""Benchmark of `lectern mcp` (issue 5), figures from one run.

Usage: .venv/bin/python scripts/bench-mcp-stdio.py [CORPORA] [--bin target/release/lectern]

1. Cold start to the first `tools/list` answer (initialize + tools/list as
   raw lines), median of 20 starts, side by side with a minimal Python MCP SDK
   stdio server (MCPServer/FastMCP, one tool) answering the same two lines: the floor
   for Python-based peers.
2. `search_documentation` round trips (stdio -> local API -> index) over the
   PostgreSQL 18 manuals (en + zh-Hans): p50/p99 one at a time, then calls/s
   with 8 requests in flight.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
QUERIES = ["CREATE INDEX CONCURRENTLY", "vacuum freeze", "并行查询", "创建索引", "row level security", "work_mem",
           "pg_dump", "逻辑复制", "autovacuum", "how do I build an index without locking the table",
           "事务隔离级别", "EXPLAIN ANALYZE", "WAL archiving", "外键约束", "JSONB operators", "window functions"]


def lines(*messages):
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def cold_start(cmd, env=None):
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    p.stdin.write(lines(INIT, INITIALIZED, LIST))
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit(f"{cmd[0]} ended before answering tools/list")
        if json.loads(line).get("id") == 1:
            break
    elapsed = time.perf_counter() - start
    p.stdin.close()
    p.wait(timeout=10)
    return elapsed * 1000


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpora", nargs="?", default=str(ROOT.parent / "shared" / "corpora"))
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "lectern"))
    ap.add_argument("--starts", type=int, default=20)
    ap.add_argument("--calls", type=int, default=400)
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)

    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "lib")
        py_server = os.path.join(tmp, "tiny_server.py")
        pathlib.Path(py_server).write_text(textwrap.dedent("""
            try:
                from mcp.server.mcpserver import MCPServer as FastMCP  # mcp 2.x
            except ImportError:
                from mcp.server.fastmcp import FastMCP  # mcp 1.x
            mcp = FastMCP("tiny")
            @mcp.tool()
            def search_documentation(text: str) -> str:
                return text
            mcp.run()
        """))
        lectern_ms = [cold_start([binary, "mcp", "--user-data", lib]) for _ in range(a.starts)]
        python_ms = [cold_start([sys.executable, py_server]) for _ in range(a.starts)]
        l50, p50 = statistics.median(lectern_ms), statistics.median(python_ms)
        print(f"cold start to tools/list, median of {a.starts}: lectern {l50:.1f} ms, Python SDK server {p50:.1f} ms, "
              f"ratio {p50 / l50:.1f}x")

        for name, locale, default in [("postgresql-18-zh-Hans", "zh-Hans", True), ("postgresql-18-en", "en", False)]:
            cmd = [binary, "--user-data", lib, "add", os.path.join(a.corpora, name + ".tar.xz"), "--project",
                   "postgresql", "--aliases", "pg", "--version", "18", "--locale", locale, "--status", "current", "-q"]
            subprocess.run(cmd + (["--default"] if default else []), check=True, stdout=subprocess.DEVNULL)
        server = subprocess.Popen([binary, "--user-data", lib, "serve"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            status = pathlib.Path(lib, "api", "status.json")
            while not status.exists():
                time.sleep(0.05)
            p = subprocess.Popen([binary, "mcp", "--user-data", lib], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
            p.stdin.write(lines(INIT, INITIALIZED))
            p.stdin.flush()
            json.loads(p.stdout.readline())

            def call(i):
                q = QUERIES[i % len(QUERIES)]
                args = {"text": q, "locale": "*" if i % 3 == 0 else ("zh-Hans" if any(ord(c) > 0x2e80 for c in q) else "en")}
                return {"jsonrpc": "2.0", "id": 100 + i, "method": "tools/call",
                        "params": {"name": "search_documentation", "arguments": args}}

            for i in range(30):  # warm-up
                p.stdin.write(lines(call(i)))
                p.stdin.flush()
                p.stdout.readline()
            rtt = []
            for i in range(a.calls):
                start = time.perf_counter()
                p.stdin.write(lines(call(i)))
                p.stdin.flush()
                reply = json.loads(p.stdout.readline())
                rtt.append((time.perf_counter() - start) * 1000)
                assert not reply["result"].get("isError"), reply
            print(f"search_documentation round trip, {a.calls} calls one at a time: p50 {pct(rtt, 50):.2f} ms, "
                  f"p99 {pct(rtt, 99):.2f} ms")

            total, in_flight, sent, done = a.calls * 2, 8, 0, 0
            start = time.perf_counter()
            for _ in range(in_flight):
                p.stdin.write(lines(call(sent)))
                sent += 1
            p.stdin.flush()
            while done < total:
                reply = json.loads(p.stdout.readline())
                assert not reply["result"].get("isError"), reply
                done += 1
                if sent < total:
                    p.stdin.write(lines(call(sent)))
                    p.stdin.flush()
                    sent += 1
            secs = time.perf_counter() - start
            print(f"search_documentation with 8 in flight: {total} calls in {secs:.2f} s = {total / secs:.0f} calls/s")
            print(json.dumps({"cold_start_ms_p50": {"lectern": round(l50, 2), "python_sdk": round(p50, 2)},
                              "ratio": round(p50 / l50, 1), "rtt_ms": {"p50": round(pct(rtt, 50), 3),
                              "p99": round(pct(rtt, 99), 3)}, "calls_per_s_8_in_flight": round(total / secs)}))
            p.stdin.close()
            p.wait(timeout=5)
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
