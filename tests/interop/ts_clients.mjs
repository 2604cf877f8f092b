//! The official TypeScript MCP clients (@modelcontextprotocol/sdk 1.32.2 and
//! @modelcontextprotocol/client 2.4.0) against both Lectern MCP faces, in
//! every transport and protocol mode each SDK offers.
//
// Faces: `lectern mcp` over stdio (with a running local API, and without one)
// and the site's /mcp over Streamable HTTP. Modes: 1.x has only the legacy
// `initialize` handshake; 2.x has `versionNegotiation` legacy (its default),
// auto (server/discover probe, falling back to initialize) and a pinned
// 2026-07-28 (stateless, no initialize). Neither SDK's SSE transport applies:
// Lectern serves Streamable HTTP only.
//
// Every call is checked against the tool-result contract (interop.mjs): the
// SDK accepted the result, isError as expected, structuredContent valid
// against the tool's outputSchema with Ajv 2020-12, the text block the JSON
// of structuredContent, and the error code for an error.
//
// Run: node tests/interop/ts_clients.mjs  (LECTERN_BIN, LECTERN_INTEROP_TS
// override target/debug/lectern and target/interop-ts). Prints `ok` / `FAIL`
// lines and "ts-clients: N passed, M failed"; exits 1 on a failure.

import {
  check, compileOutputSchemas, finish, firstLine, newAjv, report, requireTs, resultProblems, startServers, bin,
} from "./interop.mjs";

const STALE = "g0000000000000000";
const STDIO_TOOLS = ["list_installed_docsets", "load_documentation_page", "search_documentation"];
const SITE_TOOLS = ["list_pages", "list_versions", "read_page", "search_docs"];

const sdk1 = {
  label: "sdk 1.32.2",
  modes: ["legacy"],
  client(mode) {
    const { Client } = requireTs("@modelcontextprotocol/sdk/client/index.js");
    return new Client({ name: "lectern-interop", version: "1.0.0" });
  },
  stdio(args) {
    const { StdioClientTransport } = requireTs("@modelcontextprotocol/sdk/client/stdio.js");
    return new StdioClientTransport({ command: bin, args, stderr: "ignore" });
  },
  http(url) {
    const { StreamableHTTPClientTransport } = requireTs("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return new StreamableHTTPClientTransport(new URL(url));
  },
  era: () => null,
};

const sdk2 = {
  label: "client 2.4.0",
  modes: ["legacy", "auto", "2026-07-28"],
  client(mode) {
    const { Client } = requireTs("@modelcontextprotocol/client");
    const negotiation = mode === "2026-07-28" ? { pin: mode } : mode;
    return new Client({ name: "lectern-interop", version: "1.0.0" }, { versionNegotiation: { mode: negotiation } });
  },
  stdio(args) {
    const { StdioClientTransport } = requireTs("@modelcontextprotocol/client/stdio");
    return new StdioClientTransport({ command: bin, args, stderr: "ignore" });
  },
  http(url) {
    const { StreamableHTTPClientTransport } = requireTs("@modelcontextprotocol/client");
    return new StreamableHTTPClientTransport(new URL(url));
  },
  // Lectern speaks 2026-07-28, so auto must find the modern era.
  era(client, mode) {
    const era = client.getProtocolEra();
    const version = client.getNegotiatedProtocolVersion();
    const want = mode === "legacy" ? "legacy" : "modern";
    const problems = era === want ? [] : [`era ${era} (expected ${want})`];
    if (mode !== "legacy" && version !== "2026-07-28") problems.push(`version ${version} (expected 2026-07-28)`);
    return { problems, seen: `${era} ${version}` };
  },
};

/** One connection: tools/list with the schemas compiled, then tool calls. */
class Session {
  constructor(label, client, ajv) {
    Object.assign(this, { label, client, ajv, validators: new Map() });
  }

  async listTools(expected) {
    await check(`${this.label} tools/list: exactly ${expected.join(", ")}, each outputSchema compiles (Ajv 2020-12, strict)`, async () => {
      const { tools } = await this.client.listTools();
      const names = tools.map((t) => t.name).sort();
      const problems = names.join() === expected.join() ? [] : [`tools ${names.join(", ")}`];
      const compiled = compileOutputSchemas(this.ajv, tools);
      this.validators = compiled.validators;
      return problems.concat(compiled.problems);
    });
  }

  /** Calls a tool and reports the contract; returns structuredContent (or undefined). */
  async call(what, name, args, expect = {}) {
    const outcome = expect.error ? `→ ${expect.error}` : "succeeds";
    let result;
    try {
      result = await this.client.callTool({ name, arguments: args });
    } catch (e) {
      report(`${this.label} ${name} ${what} ${outcome}`, [`the client threw: ${firstLine(e)}`]);
      return undefined;
    }
    const problems = resultProblems(this.validators.get(name), result, expect, (errors) => this.ajv.errorsText(errors));
    if (!expect.error && expect.also) problems.push(...expect.also(result.structuredContent || {}));
    report(`${this.label} ${name} ${what} ${outcome}`, problems);
    return result.structuredContent;
  }
}

async function connect(sdk, mode, face, transport) {
  const client = sdk.client(mode);
  await client.connect(transport);
  const era = sdk.era(client, mode);
  if (era) report(`${sdk.label} ${mode} ${face}: protocol era (${era.seen})`, era.problems);
  return client;
}

async function stdioWithApi(sdk, mode, library, ajv) {
  const label = `[${sdk.label} ${mode} stdio]`;
  const client = await connect(sdk, mode, "stdio", sdk.stdio(["mcp", "--user-data", library]));
  try {
    const s = new Session(label, client, ajv);
    await s.listTools(STDIO_TOOLS);
    await s.call("{}", "list_installed_docsets", {}, {
      also: (sc) => (sc.docsets && sc.docsets.length === 5 ? [] : [`${sc.docsets && sc.docsets.length} docsets (expected 5)`]),
    });
    const found = await s.call("(English words)", "search_documentation", { text: "build an index without locking writes" }, {
      also: (sc) => (sc.hits && sc.hits.length ? [] : ["no hits"]),
    });
    if (found && found.hits && found.hits.length) {
      const key = found.hits[0].section_key;
      await s.call("(a hit's section_key and generation)", "load_documentation_page", { section_key: key, generation: found.generation, limit: 64 }, {
        also: (sc) => (typeof sc.text === "string" && sc.text.length ? [] : ["no text"]),
      });
      await s.call("(stale generation)", "load_documentation_page", { section_key: key, generation: STALE }, { error: "generation_changed" });
    } else {
      report(`${label} load_documentation_page`, ["skipped: the search found no section to read"]);
    }
    await s.call("(stale generation)", "list_installed_docsets", { generation: STALE }, { error: "generation_changed" });
    await s.call("(limit 51)", "search_documentation", { text: "x", limit: 51 }, { error: "invalid_argument" });
    await s.call("(no text)", "search_documentation", {}, { error: "invalid_argument" });
  } finally {
    await client.close();
  }
}

async function stdioWithoutApi(sdk, mode, noApi, ajv) {
  const label = `[${sdk.label} ${mode} stdio, no local API]`;
  const client = await connect(sdk, mode, "stdio without a local API", sdk.stdio(["mcp", "--user-data", noApi]));
  try {
    const s = new Session(label, client, ajv);
    await s.listTools(STDIO_TOOLS);
    await s.call("{}", "list_installed_docsets", {}, { error: "local_api_unavailable" });
    await s.call("(text)", "search_documentation", { text: "SELECT" }, { error: "local_api_unavailable" });
    await s.call("(key, generation)", "load_documentation_page", { section_key: "k", generation: STALE }, { error: "local_api_unavailable" });
  } finally {
    await client.close();
  }
}

async function site(sdk, mode, url, ajv) {
  const label = `[${sdk.label} ${mode} http]`;
  const client = await connect(sdk, mode, "http", sdk.http(url));
  try {
    const s = new Session(label, client, ajv);
    await s.listTools(SITE_TOOLS);
    await s.call("{}", "list_versions", {}, {
      also: (sc) => (sc.versions && sc.versions.some((v) => v.prefix === "/app") ? [] : ["no /app version"]),
    });
    await s.call("(limit 3)", "list_pages", { limit: 3 }, {
      also: (sc) => (sc.pages && sc.pages.length === 3 && sc.nextCursor ? [] : ["expected 3 pages and a nextCursor"]),
    });
    const found = await s.call("(INSTALL in /app)", "search_docs", { term: "INSTALL", prefix: "/app" }, {
      also: (sc) => (sc.pages && sc.pages.length ? [] : ["no pages"]),
    });
    const path = found && found.pages && found.pages.length ? found.pages[0].path : "/app/guide/install";
    // read_page's text is documented as the page's Markdown under our
    // frontmatter (what an agent reads), the same as structuredContent.markdown.
    await s.call(`(${path})`, "read_page", { path }, {
      textIs: (sc) => sc && sc.markdown,
      textIsName: "structuredContent.markdown",
      also: (sc) => (typeof sc.markdown === "string" && sc.markdown.startsWith(`---\npath: "${path}"\n`) ? [] : ["markdown without our frontmatter"]),
    });
    await s.call("(missing path)", "read_page", { path: "/app/no-such-page" }, { error: "not_found" });
    await s.call("(no path)", "read_page", {}, { error: "invalid_argument" });
    await s.call("(limit 500)", "list_pages", { limit: 500 }, { error: "invalid_argument" });
    await s.call("(unknown prefix)", "search_docs", { term: "x", prefix: "/nope" }, { error: "invalid_argument" });
  } finally {
    await client.close();
  }
}

async function main() {
  const servers = await startServers();
  const ajv = newAjv();
  try {
    for (const sdk of [sdk1, sdk2]) {
      for (const mode of sdk.modes) {
        const runs = [
          ["stdio", () => stdioWithApi(sdk, mode, servers.library, ajv)],
          ["stdio without a local API", () => stdioWithoutApi(sdk, mode, servers.noApi, ajv)],
          ["http", () => site(sdk, mode, servers.siteUrl, ajv)],
        ];
        for (const [face, run] of runs) {
          try {
            await run();
          } catch (e) {
            report(`[${sdk.label} ${mode} ${face}] session ran`, [firstLine(e)]);
          }
        }
      }
    }
  } finally {
    await servers.stop();
  }
  finish("ts-clients");
}

await main();
