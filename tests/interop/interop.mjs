//! What the Node interop tests (ts_clients.mjs, inspector_cli.mjs) share: the
//! npm packages they load, the demo library and the servers they talk to, the
//! tool-result contract every MCP face owes its clients, and named checks
//! that count instead of stopping at the first failure.
//
// The packages are installed by scripts/test with `npm ci` into a cache
// outside the tracked tree (LECTERN_INTEROP_TS, default target/interop-ts),
// so they are loaded through createRequire from there, not by bare import.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";

const root = new URL("../..", import.meta.url).pathname;
export const bin = process.env.LECTERN_BIN || join(root, "target/debug/lectern");
export const modules = process.env.LECTERN_INTEROP_TS || join(root, "target/interop-ts");
export const siteConfig = join(root, "examples/demo/lectern.toml");

/** `require` for the packages of tests/interop/ts/package.json, from the cache. */
export const requireTs = createRequire(join(modules, "package.json"));

// --- checks and the summary line ----------------------------------------------

const counts = { passed: 0, failed: 0 };

/** Prints `ok name`, or `FAIL name detail` when `problems` is non-empty. */
export function report(name, problems) {
  if (problems.length === 0) {
    counts.passed++;
    console.log(`ok   ${name}`);
  } else {
    counts.failed++;
    console.log(`FAIL ${name}: ${problems.join("; ")}`);
  }
}

/** Runs one named check; a throw is a failure with its first line as detail. */
export async function check(name, fn) {
  try {
    report(name, (await fn()) || []);
  } catch (e) {
    report(name, [firstLine(e)]);
  }
}

export function firstLine(e) {
  const text = e && e.message ? e.message : String(e);
  return text.split("\n")[0].slice(0, 400);
}

// The 2.x client compiles each outputSchema with a non-strict Ajv that warns
// once per schemars `format` it does not know ("uint", "int64"): harmless,
// but it would bury the report, so those lines are counted instead.
const unknownFormats = new Set();
const warn = console.warn;
console.warn = (...args) => {
  const m = typeof args[0] === "string" && args[0].match(/^unknown format "([^"]+)" ignored in schema/);
  if (m) unknownFormats.add(m[1]);
  else warn(...args);
};

/** Prints "<label>: N passed, M failed" (what scripts/test reads) and exits. */
export function finish(label) {
  if (unknownFormats.size) console.log(`note: a client's Ajv ignored the formats ${[...unknownFormats].join(", ")}`);
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed ? 1 : 0);
}

// --- the tool-result contract ---------------------------------------------------

// schemars names Rust's integer and float widths in `format`; a strict Ajv
// refuses unknown formats, so these are declared and actually checked.
const NUMBER_FORMATS = {
  int8: [-(2 ** 7), 2 ** 7 - 1], int16: [-(2 ** 15), 2 ** 15 - 1], int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], int: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint8: [0, 2 ** 8 - 1], uint16: [0, 2 ** 16 - 1], uint32: [0, 2 ** 32 - 1],
  uint64: [0, Number.MAX_SAFE_INTEGER], uint: [0, Number.MAX_SAFE_INTEGER],
};

/** A strict Ajv for JSON Schema 2020-12 (the dialect MCP tool schemas use). */
export function newAjv() {
  const Ajv2020 = requireTs("ajv/dist/2020").default;
  const addFormats = requireTs("ajv-formats").default;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const [name, [min, max]] of Object.entries(NUMBER_FORMATS)) {
    ajv.addFormat(name, { type: "number", validate: (n) => Number.isInteger(n) && n >= min && n <= max });
  }
  for (const name of ["float", "double"]) ajv.addFormat(name, { type: "number", validate: Number.isFinite });
  return ajv;
}

/**
 * Compiles every listed tool's outputSchema; returns name → validate
 * function, and the problems met (a missing or uncompilable schema).
 */
export function compileOutputSchemas(ajv, tools) {
  const validators = new Map();
  const problems = [];
  for (const tool of tools) {
    if (!tool.outputSchema) {
      problems.push(`${tool.name} has no outputSchema`);
      continue;
    }
    try {
      validators.set(tool.name, ajv.compile(tool.outputSchema));
    } catch (e) {
      problems.push(`${tool.name}'s outputSchema does not compile: ${firstLine(e)}`);
    }
  }
  return { validators, problems };
}

/**
 * What a tool result owes every client, as a list of problems (empty = ok):
 * isError as expected; structuredContent present and valid against the
 * tool's outputSchema (errors included: the schema admits the error shape);
 * the first text block is exactly the JSON of structuredContent (so a
 * client that ignores structuredContent sees the same, code included); an
 * error's structuredContent is {"error":{"code","message"}} with the
 * expected code. `textIs` replaces the JSON rule where a tool's text is
 * documented otherwise (read_page's Markdown).
 */
export function resultProblems(validate, result, expect, ajvErrorsText) {
  const problems = [];
  const isError = result.isError === true;
  if (isError !== Boolean(expect.error)) {
    problems.push(`isError is ${result.isError} (expected ${Boolean(expect.error)})`);
  }
  const sc = result.structuredContent;
  if (sc === undefined || sc === null) {
    problems.push("no structuredContent");
  } else if (validate && !validate(sc)) {
    const errors = validate.errors || [];
    const shown = ajvErrorsText(errors.slice(0, 3)) + (errors.length > 3 ? ` (and ${errors.length - 3} more)` : "");
    problems.push(`structuredContent does not match the outputSchema: ${shown}`);
  }
  const texts = (result.content || []).filter((c) => c.type === "text");
  if (texts.length === 0) {
    problems.push("no text block");
  } else if (expect.textIs) {
    const wanted = expect.textIs(sc);
    if (texts[0].text !== wanted) problems.push(`text block is not ${expect.textIsName}: ${JSON.stringify(texts[0].text.slice(0, 80))}`);
  } else if (sc !== undefined) {
    let parsed;
    try {
      parsed = JSON.parse(texts[0].text);
    } catch {
      problems.push(`text block is not JSON: ${JSON.stringify(texts[0].text.slice(0, 60))}...`);
    }
    if (parsed !== undefined && !isDeepStrictEqual(parsed, sc)) problems.push("text block's JSON differs from structuredContent");
  }
  if (expect.error) {
    const code = sc && sc.error && sc.error.code;
    if (code !== expect.error) problems.push(`error code ${JSON.stringify(code)} (expected ${expect.error})`);
    if (!(sc && sc.error && typeof sc.error.message === "string" && sc.error.message)) problems.push("no error message");
  }
  return problems;
}

// --- the demo library and its servers -------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Keeps the last few KiB a server writes on stderr, for the failure message. */
function keepStderr(proc) {
  proc.stderrTail = "";
  proc.stderr.on("data", (chunk) => {
    proc.stderrTail = (proc.stderrTail + chunk.toString()).slice(-4096);
  });
  return proc;
}

async function waitFor(what, proc, ready, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) {
      throw new Error(`${what} exited with ${proc.exitCode}; its stderr ended:\n${proc.stderrTail ?? ""}`);
    }
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come up in ${seconds} s`);
}

/**
 * Builds the demo library and starts the two servers the faces need:
 * `lectern serve` (the local API behind `lectern mcp`) and `lectern serve
 * --site` (the public /mcp) on a free loopback port. `noApi` is a library
 * folder with no server, where every stdio tool answers local_api_unavailable.
 */
export async function startServers() {
  const work = mkdtempSync(join(tmpdir(), "lectern-interop-ts-"));
  const library = join(work, "library");
  const noApi = join(work, "no-api");
  const add = spawnSync(bin, ["--user-data", library, "add", "--site", siteConfig], { encoding: "utf8" });
  if (add.status !== 0) throw new Error(`lectern add --site failed: ${add.stderr}`);
  const procs = [];
  // (The site takes its free port first: the local API binds any port, and
  // could take the one just found free.)
  const port = await freePort();
  const site = spawn(bin, ["--user-data", join(work, "site"), "serve", "--site", siteConfig, "--listen", `127.0.0.1:${port}`],
    { stdio: ["ignore", "ignore", "pipe"] });
  keepStderr(site);
  procs.push(site);
  const local = keepStderr(spawn(bin, ["--user-data", library, "serve"], { stdio: ["ignore", "ignore", "pipe"] }));
  procs.push(local);
  // Waits for the servers to exit before removing their folder, so none
  // outlives the test or writes into a removed folder.
  const stop = async () => {
    await Promise.all(procs.map((p) => new Promise((resolve) => {
      if (p.exitCode !== null || p.signalCode !== null) return resolve();
      const timer = setTimeout(() => p.kill("SIGKILL"), 10_000);
      p.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      p.kill("SIGTERM");
    })));
    rmSync(work, { recursive: true, force: true });
  };
  try {
    await waitFor("lectern serve", local, () => existsSync(join(library, "api", "status.json")), 20);
    await waitFor("lectern serve --site", site, async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    }, 120);
  } catch (e) {
    await stop();
    throw e;
  }
  return { library, noApi, siteUrl: `http://127.0.0.1:${port}/mcp`, stop };
}
