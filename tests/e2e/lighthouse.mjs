// Lighthouse 13 on pages of a running server, or of a docs site this runner
// starts itself; prints each page's scores and fails when accessibility,
// best practices or SEO is under 95 or performance under 90.
//
//   node lighthouse.mjs [--site CONFIG] [--header "Name: value"]... [--cookie "name=value"]... URL|PATH...
//
// With --site, `lectern serve --site CONFIG` is started on a free port and
// PATHs are read on it; otherwise give full URLs. Headers and cookies are
// sent with every request (a page behind a login). Runs Debian's Chromium
// (CHROME_PATH, default /usr/bin/chromium) headless; needs Node 22 or later.
// Prints "lighthouse: N passed, M failed" and exits 1 on a failure.
import lighthouse from "lighthouse";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, check, fail, finish, launchChrome, startSite, stopServer } from "./harness.mjs";

export const THRESHOLDS = { performance: 90, accessibility: 95, "best-practices": 95, seo: 95 };

/**
 * Runs Lighthouse on each URL (one Chromium for all), returning
 * `[{url, scores: {performance, accessibility, "best-practices", seo}}]`
 * with scores out of 100. `headers` go with every request.
 */
export async function audit(urls, { headers = {}, formFactor = "desktop" } = {}) {
  const chrome = await launchChrome();
  const results = [];
  try {
    for (const url of urls) {
      const desktop = formFactor === "desktop";
      const flags = {
        port: chrome.port, output: "json", logLevel: "error",
        onlyCategories: Object.keys(THRESHOLDS), extraHeaders: headers,
        formFactor,
        screenEmulation: desktop
          ? { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false }
          : { mobile: true, width: 390, height: 844, deviceScaleFactor: 3, disabled: false },
      };
      const run = await lighthouse(url, flags);
      const scores = {};
      for (const [id, category] of Object.entries(run.lhr.categories)) scores[id] = Math.round(category.score * 100);
      const failing = Object.values(run.lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
        .map((a) => a.id);
      results.push({ url, scores, failing });
    }
  } finally {
    await chrome.kill();
  }
  return results;
}

/** Checks one audited page against the thresholds (one named check each). */
export async function checkScores({ url, scores, failing }, label = "") {
  const shown = Object.keys(THRESHOLDS).map((k) => `${k} ${scores[k]}`).join(", ");
  await check(`lighthouse${label} ${url}: ${shown}`, async () => {
    for (const [k, min] of Object.entries(THRESHOLDS)) {
      assert(scores[k] >= min, `${k} ${scores[k]} < ${min}; failing audits: ${failing.join(", ")}`);
    }
  });
}

function parseArgs(argv) {
  const out = { site: null, headers: {}, cookies: [], targets: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--site") out.site = argv[++i];
    else if (a === "--header") {
      const [name, ...value] = (argv[++i] || "").split(":");
      if (!name || !value.length) throw new Error(`--header wants "Name: value", got ${argv[i]}`);
      out.headers[name.trim()] = value.join(":").trim();
    } else if (a === "--cookie") out.cookies.push(argv[++i]);
    else out.targets.push(a);
  }
  if (out.cookies.length) out.headers.Cookie = out.cookies.join("; ");
  if (!out.targets.length) throw new Error("give at least one URL (or, with --site, a path)");
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let server;
  let userData;
  try {
    const args = parseArgs(process.argv.slice(2));
    let urls = args.targets;
    if (args.site) {
      userData = mkdtempSync(join(tmpdir(), "lectern-lighthouse-"));
      server = await startSite(args.site, userData);
      urls = urls.map((p) => (p.startsWith("http") ? p : server.origin + p));
    }
    for (const formFactor of ["desktop", "mobile"]) {
      for (const result of await audit(urls, { headers: args.headers, formFactor })) {
        await checkScores(result, ` (${formFactor})`);
      }
    }
  } catch (e) {
    fail("lighthouse setup", e);
  } finally {
    if (server) await stopServer(server.child);
    if (userData) rmSync(userData, { recursive: true, force: true });
  }
  finish("lighthouse");
}
