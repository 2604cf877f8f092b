"""The MCP conformance suite (@modelcontextprotocol/conformance@0.2.0-alpha.12)
against `lectern serve --site examples/demo/lectern.toml`, for spec versions
2026-07-28 and 2025-11-25, with `conformance-baseline.yml` listing the
scenarios a docs server legitimately fails (they need the reference
server's tools, prompts or resources).

Run: python3 tests/interop/site_conformance.py  (NPX overrides
.venv-node/bin/npx; LECTERN_BIN overrides target/debug/lectern). Exits
non-zero unless exactly the baselined scenarios fail, for both versions.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LECTERN = os.environ.get("LECTERN_BIN", str(ROOT / "target" / "debug" / "lectern"))
NPX = os.environ.get("NPX", str(ROOT / ".venv-node" / "bin" / "npx"))
SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12"
VERSIONS = ["2026-07-28", "2025-11-25"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="lectern-conformance-") as user_data:
        proc = subprocess.Popen(
            [LECTERN, "--user-data", user_data, "serve", "--site", str(ROOT / "examples" / "demo" / "lectern.toml"),
             "--listen", f"127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # rmcp logs every -32601 the suite provokes
        )
        try:
            deadline = time.time() + 120
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                    break
                except OSError:
                    if proc.poll() is not None or time.time() > deadline:
                        print("lectern serve --site did not come up")
                        return 1
                    time.sleep(0.2)
            failures = 0
            env = dict(os.environ, PATH=f"{Path(NPX).parent}{os.pathsep}{os.environ.get('PATH', '')}")
            for version in VERSIONS:
                print(f"\n--- conformance, spec {version} ---", flush=True)
                run = subprocess.run(
                    [NPX, "--yes", SUITE, "server", "--url", f"http://127.0.0.1:{port}/mcp", "--suite", "all",
                     "--spec-version", version, "--expected-failures", str(ROOT / "conformance-baseline.yml")],
                    env=env, cwd=ROOT, capture_output=True, text=True, timeout=900,
                )
                out = run.stdout + run.stderr
                must_pass = ("tools-list:", "server-stateless:", "dns-rebinding-protection:", "http-header-validation:")
                summary = [l for l in out.splitlines() if l.startswith("Total:") or "Baseline" in l or l[2:].startswith(must_pass)]
                print(out[-8000:] if run.returncode else "\n".join(summary))
                print(f"conformance {version}: exit {run.returncode}")
                failures += run.returncode != 0
            print(f"\nsite conformance: {len(VERSIONS) - failures} passed, {failures} failed")
            return 1 if failures else 0
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
