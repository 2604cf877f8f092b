// What both browser tests share: the binary and browser they drive, named
// checks that count instead of stopping at the first failure, and the
// summary line `scripts/test` reads ("<label>: N passed, M failed"; exit 1
// on a failure).

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

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Prints the summary line and exits (1 when anything failed). */
export function finish(label) {
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed ? 1 : 0);
}
