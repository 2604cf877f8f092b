// Drives the web page of `lectern serve --demo` in headless Chromium
// (Debian's /usr/bin/chromium, through playwright-core) at 1280×900 and
// 390×844: log in through the printed one-time URL, search as you type,
// open a result, switch language, disable an edition, read the
// Integrations configs (and the demo's warning); then the address (reload,
// Back/Forward, a pasted link, before and after logging in), browsing an
// edition's contents tree from its first page, the project picker (over a
// second project the test adds), the zero-result hint, small screens
// (320 and 390 px: nothing runs off the screen) and axe-core (no serious
// or critical violation). Screenshots go to target/e2e-screenshots/.
// Prints "browser: N passed, M failed" and exits 1 on a failure.
import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
page.setDefaultTimeout(10000);
// The demo's temporary user-data folder (from /v1/status once logged in).
let userData = null;
const shots = new URL("../../target/e2e-screenshots/", import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

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

  userData = await page.evaluate(async () => (await (await fetch("/v1/status")).json()).user_data);

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
  await addressChecks();
  await browseChecks();
  await projectChecks();
  await hintChecks();
  await smallScreenChecks();
  await axeChecks();
} finally {
  await browser.close();
  child.kill("SIGTERM");
}

// --- the address, browsing, the project picker, the hint ---------------------

function ready(p) { return p.waitForSelector("body[data-ready=true]"); }
function params(p) { return new URL(p.url()).searchParams; }
function visible(p, sel) { return p.waitForSelector(`${sel}:not([hidden])`); }

/** A search through the API with this page's session (to pick test inputs). */
function apiSearch(p, body) {
  return p.evaluate(async (b) => (await fetch("/v1/search", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b) })).json(), body);
}

async function readerShows(p, path) {
  await p.waitForFunction((want) => document.querySelector("#reader-crumbs")?.textContent === want
    && !document.querySelector("#view-reader").hidden && document.querySelector("#content h1"), path);
}

async function addressChecks() {
  await check("the address holds the search, and a reload restores it", async () => {
    await page.goto(origin + "/");
    await ready(page);
    await page.fill("#q", "configur");
    await page.selectOption("#f-version", "2");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("q") === "configur"
      && new URLSearchParams(location.search).get("version") === "2");
    await page.waitForSelector("#results .hit");
    const before = await page.$$eval("#results .hit .title", (ts) => ts.map((t) => t.textContent));
    await page.reload();
    await ready(page);
    await page.waitForSelector("#results .hit");
    assert(await page.inputValue("#q") === "configur", "the query is lost on reload");
    assert(await page.inputValue("#f-version") === "2", "the version filter is lost on reload");
    const after = await page.$$eval("#results .hit .title", (ts) => ts.map((t) => t.textContent));
    assert(JSON.stringify(after) === JSON.stringify(before), `results differ after reload: ${after} vs ${before}`);
  });

  await check("Back and Forward move between results and pages", async () => {
    await page.focus("#q");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#view-reader:not([hidden]) #content h1");
    const path = params(page).get("page");
    assert(path && path.startsWith("/app"), `no page in the address: ${page.url()}`);
    await readerShows(page, path);
    await page.goBack();
    await visible(page, "#view-search");
    await page.waitForSelector("#results .hit[aria-selected]");
    assert(await page.inputValue("#q") === "configur", "Back lost the query");
    await page.goForward();
    await readerShows(page, path);
    await page.goBack();
    await visible(page, "#view-search");
  });

  await check("a section's link opens its page at the section, after a reload too", async () => {
    const r = await apiSearch(page, { text: "configuration file", limit: 20 });
    const hit = r.hits.find((h) => h.anchor);
    assert(hit, `no hit with a section anchor: ${JSON.stringify(r.hits.map((h) => h.path))}`);
    const link = `${origin}/?page=${encodeURIComponent(hit.path)}#${encodeURIComponent(hit.anchor)}`;
    await page.goto(link);
    await ready(page);
    await readerShows(page, hit.path);
    const focus = () => page.evaluate((a) => {
      const e = document.getElementById(a);
      if (!e) return "missing";
      const r = e.getBoundingClientRect();
      return e.classList.contains("focus") && r.top >= 0 && r.top < innerHeight ? "ok" : `top ${r.top}`;
    }, hit.anchor);
    assert(await focus() === "ok", `section ${hit.anchor}: ${await focus()}`);
    await page.reload();
    await ready(page);
    await readerShows(page, hit.path);
    assert(await focus() === "ok", `after reload, section ${hit.anchor}: ${await focus()}`);
  });

  await check("a pasted link opens the same page in another tab", async () => {
    const link = page.url();
    const other = await context.newPage();
    await other.goto(link);
    await ready(other);
    const path = params(page).get("page");
    await readerShows(other, path);
    assert(await other.textContent("#content h1") === await page.textContent("#content h1"), "a different page");
    await other.close();
  });

  await check("a link pasted before logging in opens after `lectern open`, and the key never enters the address", async () => {
    const link = `${origin}/?page=${encodeURIComponent("/app/guide/install")}`;
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const waiting = await fresh.newPage();
    await waiting.goto(link);
    await waiting.waitForSelector("#login-needed:not([hidden])");
    assert(waiting.url() === link, `the address changed: ${waiting.url()}`);
    // What `lectern open` does: mint a one-time URL and open it in a new tab.
    const login = await page.evaluate(async () => (await (await fetch("/v1/login-token", { method: "POST" })).json()).url);
    const opened = await fresh.newPage();
    await opened.goto(login);
    await ready(opened);
    await readerShows(opened, "/app/guide/install");
    assert(!opened.url().includes("token=") && params(opened).get("page") === "/app/guide/install", `landed on ${opened.url()}`);
    // The tab that waited goes on by itself.
    await readerShows(waiting, "/app/guide/install");
    const key = readFileSync(join(userData, "api", "access-key"), "utf8");
    for (const p of [waiting, opened]) assert(!p.url().includes(key) && !p.url().includes("token="), p.url());
    await fresh.close();
  });
}

async function browseChecks() {
  await check("Browse opens the edition's first page beside its contents tree", async () => {
    await page.goto(origin + "/");
    await ready(page);
    await page.click("#tab-browse");
    await readerShows(page, "/app");
    assert(params(page).get("page") === "/app", page.url());
    const current = await page.$eval("#toc a[aria-current=page]", (a) => a.dataset.path);
    assert(current === "/app", `current ${current}`);
    const top = await page.$$eval("#toc > ul > li", (lis) => lis.map((li) => li.querySelector(":scope > a")?.dataset.path || li.textContent.trim()));
    assert(top[0] === "/app" && top.includes("/app/guide") && top.includes("/app/faq"), `top level: ${top}`);
    assert(await page.$$eval("#toc a[data-path^='/app/v1'], #toc a[data-path^='/app/wiki']", (as) => as.length) === 0, "another edition's pages in the tree");
  });

  await check("a folder of the tree opens, and its page opens with the folder marked", async () => {
    const group = await page.$("#toc li.group:has(a[data-path='/app/guide']) > .twisty");
    assert(group, "no Guide folder with its own page");
    assert(await page.$eval("#toc a[data-path='/app/guide/install']", (a) => a.offsetParent === null), "the folder starts closed");
    await group.click();
    await page.click("#toc a[data-path='/app/guide/install']");
    await readerShows(page, "/app/guide/install");
    assert(await page.$eval("#toc a[aria-current=page]", (a) => a.dataset.path) === "/app/guide/install", "current page not marked");
    await page.goBack();
    await readerShows(page, "/app");
    await page.goForward();
    await readerShows(page, "/app/guide/install");
    // The version switch keeps the page and rebuilds the tree for App 1.
    await page.selectOption("#r-version", "1");
    await readerShows(page, "/app/v1/guide/install");
    await page.waitForSelector("#toc a[data-path='/app/v1'][href]");
    assert(await page.$eval("#toc .toc-title", (t) => t.textContent) === "App 1", "tree title");
  });

  await check("the filter keeps the matching pages with their folders open, and Enter opens the first", async () => {
    await page.goto(origin + "/?page=/app/faq");
    await ready(page);
    await readerShows(page, "/app/faq");
    await page.fill("#toc-filter", "INDEX");
    const shown = () => page.$$eval("#toc a[data-path]", (as) => as.filter((a) => a.offsetParent !== null).map((a) => a.dataset.path));
    // The match, and the folder around it (its own page is a link too).
    await page.waitForFunction(() => [...document.querySelectorAll("#toc a[data-path]")].filter((a) => a.offsetParent !== null).length === 2);
    assert(JSON.stringify(await shown()) === JSON.stringify(["/app/guide", "/app/guide/indexes"]), `shown: ${await shown()}`);
    await page.press("#toc-filter", "Enter");
    await readerShows(page, "/app/guide/indexes");
    await page.fill("#toc-filter", "");
    const all = await shown();
    assert(all.includes("/app/faq") && all.includes("/app/guide/indexes") && !all.includes("/app/reference/cli"), `cleared: ${all}`);
  });

  await check("the tree and links work from the keyboard", async () => {
    await page.focus("#toc a[aria-current=page]");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    const focused = await page.evaluate(() => document.activeElement.getAttribute("href"));
    assert(focused && focused.startsWith("/?page="), `Shift+Tab moved to ${focused}`);
    await page.keyboard.press("Enter");
    await page.waitForFunction((h) => location.pathname + location.search === h, focused);
  });
}

async function projectChecks() {
  await check("the project picker lists the projects and filters the version list", async () => {
    // A second project, added to the running server's library as a user would.
    const dir = mkdtempSync(join(tmpdir(), "lectern-tool-"));
    mkdirSync(join(dir, "usage"), { recursive: true });
    writeFileSync(join(dir, "index.md"), "# Toolkit\n\nThe toolkit installs with one command.\n");
    writeFileSync(join(dir, "usage", "run.md"), "# Running the toolkit\n\nInstall it first, then run it.\n");
    execFileSync(bin, ["add", dir, "--project", "toolkit", "--version", "3", "--locale", "en", "--label", "Toolkit 3", "--user-data", userData], { stdio: "ignore" });
    // The server serves another process's generation within a second.
    const served = () => page.evaluate(async () => (await (await fetch("/v1/editions")).json()).editions.some((e) => e.project === "toolkit"));
    for (let i = 0; i < 50 && !(await served()); i++) await page.waitForTimeout(100);
    assert(await served(), "the server did not pick up the added project within 5 s");
    await page.goto(origin + "/?q=install");
    await ready(page);
    const projects = await page.$$eval("#f-project option", (os) => os.map((o) => o.value));
    assert(projects.includes("app") && projects.includes("toolkit"), `projects ${projects}`);
    const versions = () => page.$$eval("#f-version option", (os) => os.map((o) => o.value).filter((v) => v && v !== "*"));
    assert(JSON.stringify(await versions()) === JSON.stringify(["2", "1"]), `default project's versions ${await versions()}`);
    await page.selectOption("#f-project", "toolkit");
    assert(JSON.stringify(await versions()) === JSON.stringify(["3"]), `toolkit versions ${await versions()}`);
    await page.waitForFunction(() => new URLSearchParams(location.search).get("project") === "toolkit");
    await page.waitForFunction(() => document.querySelectorAll("#results .hit").length > 0
      && [...document.querySelectorAll("#results .hit .meta")].every((m) => m.textContent.startsWith("Toolkit 3")));
    await page.reload();
    await ready(page);
    assert(await page.inputValue("#f-project") === "toolkit", "the project is lost on reload");
  });

  await check("the reader's project picker opens the other project's first page", async () => {
    await page.goto(origin + "/?page=/app/guide/install");
    await ready(page);
    await readerShows(page, "/app/guide/install");
    const option = await page.$$eval("#r-project option", (os) => os.find((o) => o.textContent === "toolkit")?.value);
    assert(option, "no toolkit in the reader's project picker");
    await page.selectOption("#r-project", option);
    await readerShows(page, "/toolkit");
    assert(await page.textContent("#content h1") === "Toolkit", "not the toolkit's first page");
  });
}

async function hintChecks() {
  await check("a zero with hits in another language says so and searches there", async () => {
    await page.goto(origin + "/?" + new URLSearchParams({ q: "安装", project: "app" }));
    await ready(page);
    await visible(page, "#search-hint");
    const hint = await page.textContent("#search-hint .hint-text");
    assert(/^0 in en; \d+ in zh-Hans/.test(hint), `hint: ${hint}`);
    assert(await page.$$eval("#results .hit", (h) => h.length) === 0, "hits shown with the hint");
    await page.screenshot({ path: shots + "local-hint-1280.png" });
    await page.click("#search-hint button[data-where='zh-Hans']");
    await page.waitForSelector("#results .hit");
    assert(params(page).get("locale") === "zh-Hans", page.url());
    assert(await page.$eval("#search-hint", (h) => h.hidden), "the hint stays after searching there");
    const n = Number(hint.match(/(\d+) in zh-Hans/)[1]);
    const status = await page.textContent("#search-status");
    assert(status.startsWith(`${n} result`), `the hint said ${n}, the search found: ${status}`);
    await page.goBack();
    await visible(page, "#search-hint");
  });
}

// --- small screens and accessibility -----------------------------------------

/** What sticks out past the right edge of the viewport (none is the goal). */
function overflow(p) {
  return p.evaluate(() => {
    const out = [];
    if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth} > ${innerWidth}`);
    for (const e of document.querySelectorAll("select, input, button, .tab, #toc, #content, #results")) {
      const r = e.getBoundingClientRect();
      if (r.width && (r.right > innerWidth + 0.5 || r.left < -0.5)) out.push(`${e.id || e.tagName} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out;
  });
}

async function smallScreenChecks() {
  for (const [width, height] of [[390, 844], [320, 640]]) {
    const small = await browser.newContext({ viewport: { width, height }, storageState: await context.storageState() });
    const p = await small.newPage();
    p.setDefaultTimeout(10000);
    await check(`at ${width} px nothing runs off the screen (search, reader, editions, integrations)`, async () => {
      await p.goto(origin + "/?q=install");
      await ready(p);
      await p.waitForSelector("#results .hit");
      let out = await overflow(p);
      assert(!out.length, `search: ${out}`);
      if (width === 390) await p.screenshot({ path: shots + "local-search-390.png" });
      await p.goto(origin + "/?page=/app/guide/configuration");
      await ready(p);
      await readerShows(p, "/app/guide/configuration");
      assert(await p.$eval("#toc", (t) => getComputedStyle(t).display) === "none", "the tree is not behind its button");
      const contentTop = await p.$eval("#content", (c) => c.getBoundingClientRect().top);
      assert(contentTop < height, `the page starts at ${contentTop} px, below the screen`);
      out = await overflow(p);
      assert(!out.length, `reader: ${out}`);
      await p.click("#toc-toggle");
      await p.waitForSelector("#toc.open a[aria-current=page]");
      out = await overflow(p);
      assert(!out.length, `reader with the tree open: ${out}`);
      if (width === 390) {
        await p.emulateMedia({ colorScheme: "dark" });
        await p.screenshot({ path: shots + "local-tree-390-dark.png" });
        await p.emulateMedia({ colorScheme: "light" });
      }
      await p.click("#toc a[data-path='/app/faq']");
      await readerShows(p, "/app/faq");
      assert(!(await p.$eval("#toc", (t) => t.classList.contains("open"))), "the tree stays open over the page");
      for (const view of ["editions", "integrations"]) {
        await p.click(`#tab-${view}`);
        await visible(p, `#view-${view}`);
        await p.waitForFunction((v) => v === "editions" ? document.querySelector("#editions tbody tr") : document.querySelector("#mcp-config").textContent, view);
        out = await overflow(p);
        assert(!out.length, `${view}: ${out}`);
      }
    });
    await small.close();
  }
}

async function axeChecks() {
  const source = readFileSync(new URL("./node_modules/axe-core/axe.min.js", import.meta.url), "utf8");
  const views = [
    ["search results", "/?q=install"],
    ["zero-result hint", "/?" + new URLSearchParams({ q: "安装", project: "app" })],
    ["reader with its tree", "/?page=/app/guide/configuration"],
    ["editions", "/?view=editions"],
    ["integrations", "/?view=integrations"],
  ];
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const ctx = await browser.newContext({ viewport: { width, height }, storageState: await context.storageState() });
    const p = await ctx.newPage();
    p.setDefaultTimeout(10000);
    for (const scheme of ["light", "dark"]) {
      await p.emulateMedia({ colorScheme: scheme });
      await check(`axe: no serious or critical violation at ${width} px, ${scheme}`, async () => {
        const found = [];
        for (const [name, path] of views) {
          await p.goto(origin + path);
          await ready(p);
          await p.waitForTimeout(150);
          // The page's CSP allows only its own scripts: evaluate axe through the driver.
          await p.evaluate(source);
          const r = await p.evaluate(() => axe.run(document, { resultTypes: ["violations"] }));
          for (const v of r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")) {
            found.push(`${name}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join(", ")}`);
          }
        }
        assert(!found.length, found.join("; "));
      });
      if (width === 1280) {
        await p.goto(origin + "/?page=/app/guide/configuration");
        await ready(p);
        await p.screenshot({ path: shots + `local-reader-1280-${scheme}.png` });
      }
    }
    await ctx.close();
  }
}

finish("browser");
