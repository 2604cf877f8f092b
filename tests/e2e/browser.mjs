// Drives the web page of `lectern serve --demo` in headless Chromium
// (Debian's /usr/bin/chromium, through playwright-core): log in through the
// printed one-time URL, search as you type, open a result, switch language,
// disable an edition, read the Integrations configs (and the demo's warning). Prints
// "browser: N passed, M failed" and exits 1 on a failure.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync } from "node:fs";
import { assert, bin, check, finish, launchBrowser } from "./harness.mjs";

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

const { child, url } = await startServer();
const origin = new URL(url).origin;
const browser = await launchBrowser();
const context = await browser.newContext();
const page = await context.newPage();
page.setDefaultTimeout(10000);

try {
  await check("without a session the page asks to log in", async () => {
    await page.goto(origin + "/");
    await page.waitForSelector("#login-needed:not([hidden])");
  });

  await check("the one-time login URL logs in and leaves the address bar", async () => {
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]");
    assert(!page.url().includes("token="), `address bar still holds the token: ${page.url()}`);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.startsWith("lectern_session_"));
    assert(session && session.httpOnly && session.sameSite === "Strict", "session cookie is not HttpOnly+Strict");
  });

  await check("the login URL works only once", async () => {
    const other = await browser.newContext();
    const p = await other.newPage();
    const response = await p.goto(url);
    assert(response.status() === 401, `second use answered ${response.status()}`);
    await other.close();
  });

  await check("search as you type shows highlighted results", async () => {
    await page.fill("#q", "instal");
    await page.waitForSelector("#results .hit");
    const marks = await page.$$eval("#results .hit mark", (ms) => ms.map((m) => m.textContent));
    assert(marks.length > 0, "no highlighted words");
    assert(marks.some((m) => /instal/i.test(m)), `marks: ${marks.join(",")}`);
  });

  await check("keyboard navigation moves the selection", async () => {
    await page.focus("#q");
    await page.keyboard.press("ArrowDown");
    const selected = await page.$eval("#results .hit[aria-selected=true]", (e) => e.dataset.index);
    assert(selected === "1", `selected ${selected}`);
    await page.keyboard.press("ArrowUp");
  });

  await check("Chinese search highlights the right characters", async () => {
    await page.selectOption("#f-locale", "zh-Hans");
    await page.fill("#q", "安装");
    await page.waitForFunction(() => [...document.querySelectorAll("#results .hit mark")].some((m) => m.textContent.includes("安装")));
  });

  await check("Enter opens the result in the reading view", async () => {
    await page.focus("#q");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#view-reader:not([hidden]) #content h1");
    const lang = await page.$eval("#content", (e) => e.lang);
    assert(lang === "zh-Hans", `content lang ${lang}`);
  });

  await check("the reading view switches to the same page in English", async () => {
    const before = await page.textContent("#reader-crumbs");
    await page.selectOption("#r-locale", "en");
    await page.waitForFunction((b) => document.querySelector("#reader-crumbs").textContent !== b && document.querySelector("#content").lang === "en", before);
    const path = await page.textContent("#reader-crumbs");
    assert(path.startsWith("/app/"), `path ${path}`);
    const rel = before.replace(/^\/zh-Hans\/app/, "");
    assert(path === "/app" + rel, `${path} is not the English twin of ${before}`);
  });

  await check("an edition can be disabled from the Editions view", async () => {
    await page.click("#tab-editions");
    const row = 'tr[data-edition="app@1/zh-Hans"]';
    await page.waitForSelector(`${row} td.enabled`);
    await page.click(`${row} button`);
    await page.waitForFunction((r) => document.querySelector(`${r} td.enabled`)?.textContent === "no", row);
    await page.click(`${row} button`);
    await page.waitForFunction((r) => document.querySelector(`${r} td.enabled`)?.textContent === "yes", row);
  });

  await check("Integrations shows Generic and VS Code configs with absolute paths", async () => {
    await page.click("#tab-integrations");
    await page.waitForFunction(() => document.querySelector("#mcp-config").textContent.includes("mcpServers"));
    const generic = JSON.parse(await page.textContent("#mcp-config"));
    const entry = generic.mcpServers.lectern;
    assert(entry.command.startsWith("/") && entry.args[0] === "mcp" && entry.args[2].startsWith("/"), JSON.stringify(entry));
    await page.selectOption("#client", "vscode");
    const vscode = JSON.parse(await page.textContent("#mcp-config"));
    assert(vscode.servers.lectern.type === "stdio", JSON.stringify(vscode));
    await page.click("#copy-config");
    await page.waitForFunction(() => document.querySelector("#copy-status").textContent === "Copied");
  });

  await check("Integrations lists the editors people use, each with the file it goes into", async () => {
    const ids = await page.$$eval("#client option", (os) => os.map((o) => o.value));
    for (const id of ["claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "zed", "codex"]) {
      assert(ids.includes(id), `no ${id} in ${ids}`);
    }
    await page.selectOption("#client", "codex");
    const toml = await page.textContent("#mcp-config");
    assert(toml.startsWith("[mcp_servers.lectern]"), toml);
    assert((await page.textContent("#mcp-target")).includes("~/.codex/config.toml"), "codex target");
    await page.selectOption("#client", "claude-code");
    assert((await page.textContent("#mcp-config")).startsWith("claude mcp add lectern -- /"), "claude-code command");
    assert((await page.textContent("#mcp-more")).includes(".mcp.json"), "claude-code project file");
  });

  await check("the demo's Integrations tab says its library is deleted when the demo stops", async () => {
    await page.waitForSelector("#demo-notice:not([hidden])");
    const notice = await page.textContent("#demo-notice");
    assert(notice.includes("deleted") && notice.includes("lectern add") && notice.includes("lectern serve"), notice);
  });

  await check("a foreign Origin is refused", async () => {
    const status = await page.evaluate(async (o) => {
      const r = await fetch("/v1/status", { headers: {} });
      return r.status;
    }, origin);
    assert(status === 200, `same-origin status ${status}`);
    const other = await browser.newContext();
    const p = await other.newPage();
    const r = await p.request.get(origin + "/v1/status", { headers: { Origin: "http://evil.example" } });
    assert(r.status() === 403, `foreign origin answered ${r.status()}`);
    await other.close();
  });
} finally {
  await browser.close();
  child.kill("SIGTERM");
}

finish("browser");
