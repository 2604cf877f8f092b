// Drives the public docs site of `lectern serve --site examples/demo/lectern.toml`
// in headless Chromium (Debian's /usr/bin/chromium, through playwright-core):
// open /app, read the sidebar and follow it, switch version and locale, open a
// missing translation (the English fallback with its note), search from the
// search box and follow a result, and read a page's `.md`. Then the pages for
// people (site_people.mjs) at 1280×900 and 390×844, on the demo and on the
// real npm CLI docs (4 versions, from /work/shared/corpora or
// LECTERN_NPM_DOCS; skipped with a message when absent). Prints
// "site browser: N passed, M failed" and exits 1 on a failure.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, check, fail, finish, launchBrowser, startSite, stopServer } from "./harness.mjs";
import { peopleChecks } from "./site_people.mjs";

const config = new URL("../../examples/demo/lectern.toml", import.meta.url).pathname;

const HAN = /[\u4e00-\u9fff]/;

// The `---` block of a `.md` answer as an object (every value is a JSON
// scalar: double-quoted strings, booleans), plus the Markdown after it.
function frontmatter(text) {
  const m = text.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/);
  if (!m) throw new Error(`no YAML frontmatter at the start: ${JSON.stringify(text.slice(0, 80))}`);
  const fields = {};
  for (const line of m[1].split("\n")) {
    const kv = line.match(/^([a-z_]+): (.*)$/);
    if (!kv) throw new Error(`unexpected frontmatter line ${JSON.stringify(line)}`);
    fields[kv[1]] = JSON.parse(kv[2]);
  }
  return { fields, body: m[2] };
}

const NPM_ARCHIVE = process.env.LECTERN_NPM_DOCS || "/work/shared/corpora/npm-cli-docs-4-versions.tar.xz";

/** Extracts the npm docs into `dir` and writes a site config for its 4 versions (8 is end of life). */
function npmSite(dir) {
  execFileSync("tar", ["-xJf", NPM_ARCHIVE, "-C", dir]);
  const folders = readdirSync(dir).filter((f) => f.startsWith("npm-cli-"));
  const major = (f) => Number(f.replace("npm-cli-", "").split(".")[0]);
  const newest = Math.max(...folders.map(major));
  let toml = `[site]\nname = "npm Docs"\ndescription = "The npm command line interface."\n` +
    `edit_url = "https://github.com/npm/cli/edit/latest/docs/lib/content/{file}"\n`;
  for (const f of folders) {
    const v = major(f);
    const status = v === newest ? "current" : v === 8 ? "eol" : "supported";
    toml += `\n[[editions]]\nproject = "npm"\nversion = "${v}"\nlocale = "en"\nlabel = "npm ${v}"\n` +
      `status = "${status}"\nprefix = "${v === newest ? "/npm" : `/npm/${v}`}"\nsource = "${f}"\n` +
      (v === newest ? "default = true\n" : "");
  }
  const config = join(dir, "lectern.toml");
  writeFileSync(config, toml);
  return config;
}

// What the pages-for-people checks expect of each site.
const DEMO = {
  name: "demo",
  home: "/app",
  pages: ["/app", "/app/guide/install", "/app/reference/cli", "/zh-Hans/app/reference/limits", "/app/v1/guide/install"],
  groupPage: "/app/guide/install",
  groups: ["User guide", "Reference"],
  versions: ["App 2", "App 1"],
  tocPage: "/app/guide/install",
};
const NPM = {
  name: "npm",
  home: "/npm",
  landing: { title: "npm 11", sections: ["Commands", "Configuring npm", "Using npm"] },
  pages: ["/npm", "/npm/commands/npm-install", "/npm/using-npm/config", "/npm/8/commands/npm-install"],
  groupPage: "/npm/commands/npm-install",
  groups: ["Commands", "Configuring npm", "Using npm"],
  h1: { "/npm/commands/npm-install": "npm-install" },
  versions: ["npm 11", "npm 10", "npm 9", "npm 8"],
  eol: { path: "/npm/8/commands/npm-install", current: "/npm/commands/npm-install" },
  edit: { path: "/npm/commands/npm-install", suffix: "/docs/lib/content/commands/npm-install.md" },
  tocPage: "/npm/commands/npm-install",
};

const userData = mkdtempSync(join(tmpdir(), "lectern-site-e2e-"));
let npmDir;
let npmChild;
let child;
let browser;
try {
  const server = await startSite(config, userData);
  child = server.child;
  const origin = server.origin;
  browser = await launchBrowser();
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10000);

  const path = () => decodeURIComponent(new URL(page.url()).pathname);
  const sidebar = () => page.$$eval("nav.sidebar[aria-label=Pages] a",
    (as) => as.map((a) => ({ href: a.getAttribute("href"), text: a.textContent, current: a.getAttribute("aria-current") })));
  const currentIn = (label) => page.$eval(`header nav[aria-label=${label}] a[aria-current]`, (a) => a.textContent);
  const lang = () => page.$eval("html", (h) => h.lang);
  // Clicks a link and waits for the page it leads to.
  const follow = async (locator) => {
    const [response] = await Promise.all([page.waitForNavigation(), locator.click()]);
    assert(response && response.status() === 200, `${page.url()} answered ${response && response.status()}`);
  };

  await check("/ redirects to the default edition, /app", async () => {
    const response = await page.goto(origin + "/");
    assert(response.status() === 200, `status ${response.status()}`);
    assert(path() === "/app", `landed on ${path()}`);
  });

  await check("/app: English App 2 with a sidebar of its pages and rendered headings", async () => {
    await page.goto(origin + "/app");
    assert(await lang() === "en", `html lang ${await lang()}`);
    assert(await currentIn("Versions") === "App 2", `current version ${await currentIn("Versions")}`);
    assert(await currentIn("Languages") === "en", `current locale ${await currentIn("Languages")}`);
    const links = await sidebar();
    assert(links.length >= 5, `sidebar has ${links.length} links`);
    assert(links.every((l) => l.href === "/app" || l.href.startsWith("/app/")), `sidebar: ${links.map((l) => l.href)}`);
    assert(!links.some((l) => l.href.startsWith("/app/v1") || l.href.startsWith("/app/wiki")), "sidebar leaks other editions");
    const current = links.filter((l) => l.current === "page");
    assert(current.length === 1 && current[0].href === "/app", `current: ${JSON.stringify(current)}`);
    assert(links.some((l) => l.text === "Installing App"), "no Installing App in the sidebar");
    const h1 = await page.textContent("main article h1");
    assert(h1 === "Acme App 2", `h1 ${h1}`);
    assert((await page.$$("main article h2")).length >= 2, "fewer than two h2 headings");
    assert(await page.isVisible("main article h2#whats-new"), "h2#whats-new is not visible");
    assert(await page.$("p.note") === null, "an untranslated-page note on an English page");
    assert((await page.title()).includes("Acme App Docs"), `title ${await page.title()}`);
  });

  await check("a sidebar link opens its page and becomes the current one", async () => {
    await follow(page.locator("nav.sidebar a", { hasText: "Installing App" }));
    assert(path() === "/app/guide/install", `URL ${path()}`);
    assert(await page.textContent("main article h1") === "Installing App", "wrong h1");
    const current = (await sidebar()).filter((l) => l.current === "page").map((l) => l.href);
    assert(current.length === 1 && current[0] === "/app/guide/install", `current ${current}`);
  });

  await check("the version switcher goes to the same page in App 1", async () => {
    await follow(page.locator("header nav[aria-label=Versions] a", { hasText: "App 1" }));
    assert(path() === "/app/v1/guide/install", `URL ${path()}`);
    assert(await currentIn("Versions") === "App 1", `current version ${await currentIn("Versions")}`);
    const h1 = await page.textContent("main article h1");
    assert(h1.includes("App 1"), `h1 ${h1}`);
    const links = await sidebar();
    assert(links.length > 0 && links.every((l) => l.href === "/app/v1" || l.href.startsWith("/app/v1/")), `sidebar: ${links.map((l) => l.href)}`);
    assert(await page.$eval("form[role=search] input[name=prefix]", (i) => i.value) === "/app/v1", "search form prefix is not /app/v1");
  });

  await check("the locale switcher goes to the same page in Simplified Chinese", async () => {
    await follow(page.locator("header nav[aria-label=Languages] a", { hasText: "zh-Hans" }));
    assert(path() === "/zh-Hans/app/v1/guide/install", `URL ${path()}`);
    assert(await lang() === "zh-Hans", `html lang ${await lang()}`);
    assert(await currentIn("Languages") === "zh-Hans", `current locale ${await currentIn("Languages")}`);
    assert(await currentIn("Versions") === "App 1（简体中文）", `current version ${await currentIn("Versions")}`);
    const h1 = await page.textContent("main article h1");
    assert(HAN.test(h1), `h1 is not Chinese: ${h1}`);
    assert(HAN.test(await page.innerText("main article")), "no Chinese text in the article");
    assert(await page.$("p.note") === null, "a real translation is marked as untranslated");
  });

  await check("in Chinese, the version switcher goes back to App 2 (under /zh-Hans/app)", async () => {
    await follow(page.locator("header nav[aria-label=Versions] a", { hasText: "App 2" }));
    assert(path() === "/zh-Hans/app/guide/install", `URL ${path()}`);
    assert(await lang() === "zh-Hans", `html lang ${await lang()}`);
    assert(HAN.test(await page.textContent("main article h1")), "h1 is not Chinese");
    const links = await sidebar();
    assert(links.every((l) => l.href === "/zh-Hans/app" || l.href.startsWith("/zh-Hans/app/")), `sidebar: ${links.map((l) => l.href)}`);
    assert(links.filter((l) => HAN.test(l.text)).length >= 5, `sidebar titles: ${links.map((l) => l.text)}`);
  });

  await check("a missing translation shows the English page, marked as not translated", async () => {
    await follow(page.locator("nav.sidebar a[href='/zh-Hans/app/reference/limits']"));
    assert(path() === "/zh-Hans/app/reference/limits", `URL ${path()}`);
    const note = page.locator("main p.note[role=note]");
    assert(await note.isVisible(), "no visible fallback note");
    assert((await note.textContent()).includes("not translated"), `note: ${await note.textContent()}`);
    assert(await lang() === "en", `html lang of the English content is ${await lang()}`);
    assert(await page.textContent("main article h1") === "Limits", "h1 is not the English Limits");
    assert(!HAN.test(await page.innerText("main article")), "Chinese text in the English fallback");
    // Still inside the Chinese edition: its sidebar, switchers and search scope.
    assert(await currentIn("Languages") === "zh-Hans", `current locale ${await currentIn("Languages")}`);
    assert(await currentIn("Versions") === "App 2（简体中文）", `current version ${await currentIn("Versions")}`);
    const links = await sidebar();
    assert(links.some((l) => HAN.test(l.text)), "the sidebar is not the Chinese edition's");
    assert(await page.$eval("form[role=search] input[name=prefix]", (i) => i.value) === "/zh-Hans/app", "search prefix");
    // hreflang lists only real translations: English, not this fallback.
    const alternates = await page.$$eval("link[rel=alternate][hreflang]", (ls) => ls.map((l) => l.hreflang));
    assert(alternates.includes("en") && !alternates.includes("zh-Hans"), `hreflang: ${alternates}`);
  });

  await check("the fallback's .md says fallback: true and the content's locale", async () => {
    const md = await page.getAttribute("link[rel=alternate][type='text/markdown']", "href");
    assert(md === "/zh-Hans/app/reference/limits.md", `markdown link ${md}`);
    const response = await page.request.get(origin + md);
    assert(response.status() === 200, `status ${response.status()}`);
    const { fields, body } = frontmatter(await response.text());
    assert(fields.path === "/zh-Hans/app/reference/limits" && fields.prefix === "/zh-Hans/app", JSON.stringify(fields));
    assert(fields.locale === "en" && fields.fallback === true && fields.label === "App 2（简体中文）", JSON.stringify(fields));
    assert(/^# Limits$/m.test(body), "no # Limits heading in the Markdown");
  });

  await check("the search box searches this edition and lists ranked, highlighted results", async () => {
    await page.goto(origin + "/app");
    await page.fill("form[role=search] input[name=q]", "index");
    await Promise.all([page.waitForNavigation(), page.press("form[role=search] input[name=q]", "Enter")]);
    const url = new URL(page.url());
    assert(url.pathname === "/search", `URL ${page.url()}`);
    assert(url.searchParams.get("q") === "index" && url.searchParams.get("prefix") === "/app", `query ${url.search}`);
    assert((await page.textContent("main h1")) === "Search: index", `h1 ${await page.textContent("main h1")}`);
    assert(await page.inputValue("form[role=search] input[name=q]") === "index", "the box lost the query");
    const hits = await page.$$eval("ol.results > li > a", (as) => as.map((a) => a.getAttribute("href")));
    assert(hits.length >= 3, `${hits.length} results`);
    assert(hits.every((h) => /^\/app(\/|#|$)/.test(h) && !h.startsWith("/app/v1") && !h.startsWith("/app/wiki")),
      `results outside /app: ${hits}`);
    assert(hits.some((h) => h.startsWith("/app/guide/indexes")), `no Indexes page in ${hits}`);
    const marks = await page.$$eval("ol.results mark", (ms) => ms.map((m) => m.textContent));
    assert(marks.length > 0 && marks.every((m) => /index/i.test(m)), `marks: ${marks}`);
  });

  await check("every search result links to a page that exists", async () => {
    const hits = await page.$$eval("ol.results > li > a", (as) => as.map((a) => a.getAttribute("href")));
    for (const href of new Set(hits.map((h) => h.split("#")[0]))) {
      const response = await page.request.get(origin + href);
      assert(response.status() === 200, `${href} answered ${response.status()}`);
      assert((await response.text()).includes("<article>"), `${href} is not a page`);
    }
  });

  await check("following a search result opens the page", async () => {
    const first = page.locator("ol.results > li > a").first();
    const href = await first.getAttribute("href");
    const title = await first.textContent();
    await follow(first);
    assert(path() === href.split("#")[0], `URL ${path()} for ${href}`);
    assert((await page.innerText("main article")).includes(title), `the page has no "${title}"`);
  });

  await check("a search in Chinese stays in the Chinese edition", async () => {
    await page.goto(origin + "/zh-Hans/app");
    await page.fill("form[role=search] input[name=q]", "索引");
    await Promise.all([page.waitForNavigation(), page.press("form[role=search] input[name=q]", "Enter")]);
    const hits = await page.$$eval("ol.results > li > a", (as) => as.map((a) => a.getAttribute("href")));
    assert(hits.length > 0, "no results");
    assert(hits.every((h) => h.startsWith("/zh-Hans/app") && !h.startsWith("/zh-Hans/app/v1")), `results: ${hits}`);
    const marks = await page.$$eval("ol.results mark", (ms) => ms.map((m) => m.textContent));
    assert(marks.some((m) => m.includes("索引")), `marks: ${marks}`);
  });

  await check("a search with no hits says so", async () => {
    await page.goto(origin + "/search?prefix=%2Fapp&q=zzqxnothing");
    assert(await page.$("ol.results") === null, "results for nonsense");
    assert((await page.innerText("main")).includes("Nothing found"), "no 'Nothing found' message");
  });

  await check("{path}.md is the page's Markdown with YAML frontmatter", async () => {
    await page.goto(origin + "/app/guide/install");
    const source = await page.getAttribute("footer a", "href");
    assert(source === "/app/guide/install.md", `footer link ${source}`);
    const response = await page.request.get(origin + source);
    assert(response.status() === 200, `status ${response.status()}`);
    assert(response.headers()["content-type"].startsWith("text/markdown"), `content-type ${response.headers()["content-type"]}`);
    const text = await response.text();
    assert(!/<(html|article|h1)\b/i.test(text), "the .md holds HTML");
    const { fields, body } = frontmatter(text);
    assert(fields.path === "/app/guide/install" && fields.prefix === "/app" && fields.label === "App 2", JSON.stringify(fields));
    assert(fields.locale === "en" && fields.status === "current" && fields.ref === "v2.3.0", JSON.stringify(fields));
    assert(!("fallback" in fields), "fallback on a real page");
    assert(/^# Installing App$/m.test(body), "no # Installing App heading");
    assert(!/^title: /m.test(body), "the original frontmatter is still there");
  });

  await peopleChecks(browser, origin, DEMO);
  await context.close();

  // The npm CLI docs: 4 versions of a real Markdown tree with no index page,
  // titles only in frontmatter, and folders for groups.
  if (!existsSync(NPM_ARCHIVE)) {
    console.log(`skip npm CLI docs: ${NPM_ARCHIVE} is absent`);
  } else {
    npmDir = mkdtempSync(join(tmpdir(), "lectern-site-npm-"));
    const npmConfig = npmSite(npmDir);
    const npm = await startSite(npmConfig, join(npmDir, "user-data"));
    npmChild = npm.child;
    await peopleChecks(browser, npm.origin, NPM);
  }
} catch (e) {
  fail("setup", e);
} finally {
  if (browser) await browser.close();
  await stopServer(child);
  await stopServer(npmChild);
  rmSync(userData, { recursive: true, force: true });
  if (npmDir) rmSync(npmDir, { recursive: true, force: true });
}

finish("site browser");
