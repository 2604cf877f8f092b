// Lighthouse 13 on the local web page of `lectern serve --demo`, logged in:
// the session cookie from the printed one-time URL goes to Lighthouse as an
// extra header. Three states of the page: search results, the zero-result
// hint, and the reader with its contents tree. Asserts accessibility and
// best practices ≥ 95, performance ≥ 90 and SEO ≥ 95, and prints every
// score. Run with Node 24 (Lighthouse 13 needs it); CHROME_PATH names the
// browser (Debian's /usr/bin/chromium by default). Prints
// "lighthouse-local: N passed, M failed" and exits 1 on a failure.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync } from "node:fs";
import lighthouse from "lighthouse";
import { assert, bin, check, fail, finish, launchChrome } from "./harness.mjs";

const MIN = { performance: 90, accessibility: 95, "best-practices": 95, seo: 95 };
// Each page, and the API call that proves Lighthouse saw it logged in.
const PAGES = [
  ["search results", "/?q=install", "/v1/search"],
  ["zero-result hint", "/?" + new URLSearchParams({ q: "安装", project: "app" }), "/v1/search"],
  ["reader with its contents tree", "/?page=/app/guide/configuration", "/v1/toc"],
];

async function startServer() {
  if (!existsSync(bin)) throw new Error(`${bin} is missing; run cargo build --bin lectern`);
  const child = spawn(bin, ["serve", "--demo"], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("serve printed no login URL in 60 s")), 60000);
    lines.on("line", (line) => {
      const m = line.match(/http:\/\/127\.0\.0\.1:\d+\/login\?token=[0-9a-f]+/);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    });
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { child, url };
}

/** Spends the login URL as a browser would and returns the session cookie. */
async function login(url) {
  const response = await fetch(url, { redirect: "manual" });
  const cookie = (response.headers.get("set-cookie") || "").split(";")[0];
  if (response.status !== 303 || !cookie.startsWith("lectern_session_")) {
    throw new Error(`login answered ${response.status} without a session cookie`);
  }
  return cookie;
}

const { child, url } = await startServer();
const origin = new URL(url).origin;
let chrome = null;
try {
  const cookie = await login(url);
  chrome = await launchChrome();
  for (const [name, path, call] of PAGES) {
    let scores = null;
    try {
      const result = await lighthouse(origin + path, {
        port: chrome.port, output: "json", logLevel: "error",
        onlyCategories: Object.keys(MIN), extraHeaders: { Cookie: cookie },
      });
      const lhr = result.lhr;
      if (lhr.runtimeError) throw new Error(lhr.runtimeError.message);
      const requests = lhr.audits["network-requests"].details.items;
      const answered = requests.find((r) => new URL(r.url).pathname === call);
      assert(answered && answered.statusCode === 200,
        `the page was not logged in: ${call} answered ${answered ? answered.statusCode : "nothing"}`);
      scores = Object.fromEntries(Object.keys(MIN).map((c) => [c, Math.round((lhr.categories[c].score ?? 0) * 100)]));
      const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative"
        && a.scoreDisplayMode !== "manual" && a.scoreDisplayMode !== "notApplicable").map((a) => a.id);
      console.log(`     ${name}: ${Object.entries(scores).map(([c, s]) => `${c} ${s}`).join(", ")}`
        + (failing.length ? ` (below full marks: ${failing.join(", ")})` : ""));
    } catch (e) {
      fail(`Lighthouse on ${name}`, e);
      continue;
    }
    for (const [category, min] of Object.entries(MIN)) {
      await check(`${name}: ${category} ${scores[category]} ≥ ${min}`, async () => {
        assert(scores[category] >= min, `${category} is ${scores[category]}`);
      });
    }
  }
} catch (e) {
  fail("Lighthouse run", e);
} finally {
  if (chrome) await chrome.kill();
  child.kill("SIGTERM");
}

finish("lighthouse-local");
