// What the browser tests and the Lighthouse runs share: the binary and the
// browser they drive, named checks that count instead of stopping at the
// first failure, and the summary line `scripts/test` reads ("<label>: N
// passed, M failed"; exit 1 on a failure).

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as chromeLauncher from "chrome-launcher";
import { chromium } from "playwright-core";

export const bin = process.env.LECTERN_BIN || new URL("../../target/debug/lectern", import.meta.url).pathname;
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";

const counts = { passed: 0, failed: 0 };

function firstLine(e) {
  return e && e.message ? e.message.split("\n")[0] : String(e);
}

/** Runs one named check; a failure is counted and printed, not thrown. */
export async function check(name, fn) {
  try {
    await fn();
    counts.passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    fail(name, e);
  }
}

/** Counts a failure outside a check (a setup that could not finish). */
export function fail(name, e) {
  counts.failed++;
  console.log(`FAIL ${name}: ${firstLine(e)}`);
}

/** Debian's Chromium, headless, with nothing reaching the network. */
export function launchBrowser() {
  return chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * Debian's Chromium for Lighthouse, headless, its temporary files in a
 * folder of their own. chrome-launcher stops Chromium with SIGKILL, which
 * leaves Chromium's singleton folders in the temporary folder, so `kill`
 * removes that folder too. Returns `{ port, kill }`.
 */
export async function launchChrome() {
  const tmp = mkdtempSync(join(tmpdir(), "lectern-chrome-"));
  try {
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH || executablePath,
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      envVars: { ...process.env, TMPDIR: tmp },
    });
    return {
      port: chrome.port,
      kill: async () => {
        await chrome.kill();
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Prints the summary line and exits (1 when anything failed). */
export function finish(label) {
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed ? 1 : 0);
}

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

/**
 * Starts `lectern serve --site config` on a free loopback port with its own
 * user data folder; resolves to `{child, origin}` once /healthz answers.
 */
export async function startSite(config, userData) {
  if (!existsSync(bin)) throw new Error(`${bin} is missing; run cargo build --bin lectern`);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ["--user-data", userData, "serve", "--site", config, "--listen", `127.0.0.1:${port}`],
    { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("serve --site printed no URL in 180 s")), 180000);
      lines.on("line", (line) => {
        if (line.includes(`${origin}/`)) { clearTimeout(timer); resolve(); }
      });
      child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`serve --site exited with ${code}`)); });
    });
    // The URL is printed once the listener is up; /healthz confirms it answers.
    const health = await (await fetch(`${origin}/healthz`)).json();
    if (health.status !== "ok") throw new Error(`/healthz: ${JSON.stringify(health)}`);
  } catch (e) {
    child.kill("SIGTERM");
    throw e;
  }
  return { child, origin };
}

/** Stops a server started here: SIGTERM, then SIGKILL after 10 s. */
export async function stopServer(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10000);
  await exited;
  clearTimeout(timer);
}
