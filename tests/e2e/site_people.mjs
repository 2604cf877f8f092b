// The docs site as a person uses it, at 1280×900 and 390×844: a home for
// every edition, one <h1> per page, the sidebar's groups (collapsible, the
// current page marked, readable labels in order), versions newest first,
// the end-of-life notice, the table of contents, previous/next, the edit
// link, light and dark themes, no sideways scrolling from 320 px, content
// before the sidebar on small screens (behind a Menu button), focusable code
// blocks, the page-not-found page, /favicon.ico and /robots.txt, search
// without JavaScript, and axe-core with no serious or critical violation.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { assert, check } from "./harness.mjs";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const TOOL_NAMES = /\b(list_pages|search_docs|read_page|list_versions)\b/;

/** Serious and critical axe-core violations on the page as it is now. */
async function axeViolations(page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
}

/** Relative luminance of a CSS rgb() colour. */
function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const sidebarLinks = (page) => page.$$eval("nav.sidebar a", (as) => as.map((a) => ({
  href: a.getAttribute("href"), text: a.textContent.trim(), current: a.getAttribute("aria-current"),
})));

/** Every check of one site at one viewport. */
async function atViewport(browser, origin, site, viewport) {
  const tag = `${site.name} ${viewport.width}px`;
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  const open = async (path) => {
    const response = await page.goto(origin + path);
    assert(response.status() === 200, `${path} answered ${response.status()}`);
  };
  const small = viewport.width < 600;

  await check(`${tag}: / leads to a home page`, async () => {
    const response = await page.goto(origin + "/");
    assert(response.status() === 200, `/ answered ${response.status()}`);
    assert(new URL(page.url()).pathname === site.home, `/ went to ${page.url()}`);
    if (site.landing) {
      assert(await page.textContent("main h1") === site.landing.title, `h1 ${await page.textContent("main h1")}`);
      const sections = await page.$$eval("main article h2", (hs) => hs.map((h) => h.textContent));
      assert(JSON.stringify(sections) === JSON.stringify(site.landing.sections), `sections ${sections}`);
      const first = page.locator("main article .sections a").first();
      const href = await first.getAttribute("href");
      assert((await page.request.get(origin + href)).status() === 200, `${href} from the home page`);
    }
  });

  await check(`${tag}: one <h1> per page, from its title`, async () => {
    for (const path of site.pages) {
      await open(path);
      const h1s = await page.$$eval("h1", (hs) => hs.map((h) => h.textContent));
      assert(h1s.length === 1 && h1s[0].trim() !== "", `${path}: h1 ${JSON.stringify(h1s)}`);
      if (site.h1 && site.h1[path]) assert(h1s[0] === site.h1[path], `${path}: h1 ${h1s[0]}`);
    }
  });

  await check(`${tag}: the sidebar has the source's groups, open around the current page`, async () => {
    await open(site.groupPage);
    const groups = await page.$$eval("nav.sidebar > ul > li > details > summary", (ss) => ss.map((s) => s.textContent));
    assert(JSON.stringify(groups) === JSON.stringify(site.groups), `groups ${JSON.stringify(groups)}`);
    const links = await sidebarLinks(page);
    const current = links.filter((l) => l.current === "page");
    assert(current.length === 1 && current[0].href === site.groupPage, `current ${JSON.stringify(current)}`);
    const isOpen = await page.$eval("nav.sidebar a[aria-current=page]", (a) => a.closest("details").open);
    assert(isOpen, "the group of the current page is closed");
    assert(links.filter((l) => /^index$/i.test(l.text)).length === 0, "a link labelled Index");
    // Within each group, labels read in order regardless of case.
    const perGroup = await page.$$eval("nav.sidebar details", (ds) => ds.map((d) =>
      [...d.querySelectorAll(":scope > ul > li > a")].map((a) => a.textContent.trim())));
    for (const labels of perGroup) {
      const sorted = [...labels].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
      // Sources may order pages themselves (frontmatter `order`); those sites list no such group here.
      if (site.name === "npm") assert(JSON.stringify(labels) === JSON.stringify(sorted), `not in order: ${labels.slice(0, 8)}`);
    }
    // A group folds away (on a small screen, once the menu is open).
    if (small) await page.click("label.menu-button");
    await page.locator("nav.sidebar summary").first().click();
    assert(!(await page.$eval("nav.sidebar details", (d) => d.open)), "a group did not fold");
  });

  await check(`${tag}: versions newest first`, async () => {
    await open(site.groupPage);
    const versions = await page.$$eval("header nav[aria-label=Versions] a", (as) => as.map((a) => a.textContent));
    assert(JSON.stringify(versions) === JSON.stringify(site.versions), `versions ${JSON.stringify(versions)}`);
  });

  if (site.eol) {
    await check(`${tag}: an end-of-life version says so and links the current one`, async () => {
      await open(site.eol.path);
      const banner = page.locator("main .banner[role=note]");
      assert(await banner.isVisible(), "no visible notice");
      assert(/end of life/.test(await banner.textContent()), `notice: ${await banner.textContent()}`);
      const href = await banner.locator("a").getAttribute("href");
      assert(href === site.eol.current, `notice links ${href}`);
      await Promise.all([page.waitForNavigation(), banner.locator("a").click()]);
      assert(new URL(page.url()).pathname === site.eol.current, `went to ${page.url()}`);
      assert(await page.$("main .banner") === null, "the current version has a notice");
    });
  }

  await check(`${tag}: the table of contents links the page's headings`, async () => {
    await open(site.tocPage);
    const anchors = await page.$$eval("nav.toc a", (as) => as.map((a) => a.getAttribute("href")));
    assert(anchors.length >= 2, `${anchors.length} entries`);
    for (const a of anchors) {
      assert(await page.$(`[id="${decodeURIComponent(a.slice(1))}"]`) !== null, `no heading for ${a}`);
    }
  });

  await check(`${tag}: previous and next follow the sidebar`, async () => {
    await open(site.groupPage);
    const order = (await sidebarLinks(page)).map((l) => l.href);
    const at = order.indexOf(site.groupPage);
    const next = await page.getAttribute("a[rel=next]", "href");
    assert(next === order[at + 1], `next ${next}, sidebar has ${order[at + 1]}`);
    const prev = await page.$("a[rel=prev]");
    if (at > 0) assert(prev && (await prev.getAttribute("href")) === order[at - 1], "previous is not the one before");
    await Promise.all([page.waitForNavigation(), page.click("a[rel=next]")]);
    assert(new URL(page.url()).pathname === next, `went to ${page.url()}`);
    assert(await page.getAttribute("a[rel=prev]", "href") === site.groupPage, "no way back");
  });

  if (site.edit) {
    await check(`${tag}: an edit link to the page's file`, async () => {
      await open(site.edit.path);
      const href = await page.getAttribute("footer a:text('Edit this page')", "href");
      assert(href && href.endsWith(site.edit.suffix), `edit link ${href}`);
    });
  }

  await check(`${tag}: no sideways scrolling; content ${small ? "before the sidebar, which opens from Menu" : "beside the sidebar"}`, async () => {
    for (const path of site.pages) {
      await open(path);
      const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      assert(scroll <= width, `${path}: ${scroll} px wide in ${width}`);
    }
    await open(site.groupPage);
    const h1 = await page.locator("main h1").boundingBox();
    assert(h1.y < viewport.height / 2, `h1 starts ${Math.round(h1.y)} px down`);
    const sidebar = page.locator("nav.sidebar");
    if (small) {
      assert(!(await sidebar.isVisible()), "the sidebar shows before Menu is pressed");
      await page.click("label.menu-button");
      assert(await sidebar.isVisible(), "Menu did not open the sidebar");
      assert(await page.locator("nav.sidebar a[aria-current=page]").isVisible(), "the current page is not in view in the menu");
    } else {
      assert(await sidebar.isVisible(), "no sidebar");
      assert(!(await page.isVisible("label.menu-button")), "a Menu button on a wide screen");
    }
  });

  await check(`${tag}: code blocks take keyboard focus`, async () => {
    await open(site.tocPage);
    const pres = await page.$$eval("article pre", (ps) => ps.map((p) => p.getAttribute("tabindex")));
    assert(pres.length > 0 && pres.every((t) => t === "0"), `pre tabindex: ${pres}`);
    await page.locator("article pre").first().focus();
    assert(await page.evaluate(() => document.activeElement.tagName) === "PRE", "a code block did not take focus");
  });

  await check(`${tag}: axe-core finds no serious or critical violation`, async () => {
    const found = [];
    for (const path of [...site.pages, `/search?prefix=${encodeURIComponent(site.home)}&q=install`]) {
      await page.goto(origin + path);
      for (const v of await axeViolations(page)) found.push(`${path}: ${v}`);
    }
    await page.goto(origin + site.home + "/no-such-page");
    for (const v of await axeViolations(page)) found.push(`404: ${v}`);
    assert(found.length === 0, found.join(" | "));
  });
  await context.close();
}

/** Light and dark themes follow the system setting. */
async function themes(browser, origin, site) {
  await check(`${site.name}: light and dark themes from prefers-color-scheme`, async () => {
    const colours = {};
    for (const colorScheme of ["light", "dark"]) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(origin + site.groupPage);
      colours[colorScheme] = await page.evaluate(() => {
        const s = getComputedStyle(document.body);
        return { bg: s.backgroundColor, fg: s.color };
      });
      await context.close();
    }
    assert(luminance(colours.light.bg) > 0.8 && luminance(colours.light.fg) < 0.1, `light ${JSON.stringify(colours.light)}`);
    assert(luminance(colours.dark.bg) < 0.05 && luminance(colours.dark.fg) > 0.6, `dark ${JSON.stringify(colours.dark)}`);
  });
}

/** 320 px, the narrowest phone: still no sideways scrolling. */
async function narrowest(browser, origin, site) {
  await check(`${site.name} 320px: no sideways scrolling`, async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    const page = await context.newPage();
    for (const path of site.pages) {
      await page.goto(origin + path);
      const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      assert(scroll <= width, `${path}: ${scroll} px wide in ${width}`);
    }
    await context.close();
  });
}

/** The page-not-found page, the icon, robots.txt, and search without JavaScript. */
async function plumbing(browser, origin, site) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await check(`${site.name}: a missing page is explained, with a search box and a link that works`, async () => {
    const path = site.home + "/no-such-page";
    const response = await page.goto(origin + path);
    assert(response.status() === 404, `status ${response.status()}`);
    const text = await page.innerText("body");
    assert(!TOOL_NAMES.test(text), `a tool name shown to a person: ${text}`);
    assert(await page.isVisible("form[role=search] input[name=q]"), "no search box");
    const home = await page.getAttribute("main a", "href");
    assert(home && home !== path, `home link ${home}`);
    const back = await page.request.get(origin + home);
    assert(back.status() === 200, `${home} answered ${back.status()}`);
  });
  await check(`${site.name}: /favicon.ico and /robots.txt`, async () => {
    const icon = await page.request.get(origin + "/favicon.ico");
    assert(icon.status() === 200 && icon.headers()["content-type"].startsWith("image/"), `favicon ${icon.status()} ${icon.headers()["content-type"]}`);
    assert((await icon.body()).length > 0, "empty icon");
    const robots = await page.request.get(origin + "/robots.txt");
    assert(robots.status() === 200, `robots.txt ${robots.status()}`);
    const sitemap = (await robots.text()).match(/^Sitemap: (\S+)$/m);
    assert(sitemap, "robots.txt names no sitemap");
    const listed = await page.request.get(origin + new URL(sitemap[1]).pathname);
    assert(listed.status() === 200, `the sitemap answered ${listed.status()}`);
  });
  await check(`${site.name}: the search box works without JavaScript`, async () => {
    await page.goto(origin + site.groupPage);
    await page.fill("form[role=search] input[name=q]", "install");
    await Promise.all([page.waitForNavigation(), page.press("form[role=search] input[name=q]", "Enter")]);
    const url = new URL(page.url());
    assert(url.pathname === "/search" && url.searchParams.get("prefix") === site.home, `URL ${page.url()}`);
    const hits = await page.$$eval("ol.results > li > a", (as) => as.map((a) => a.getAttribute("href")));
    assert(hits.length > 0 && hits.every((h) => h.startsWith(site.home)), `results ${hits}`);
  });
  await context.close();
}

/** Every check of the pages for people on one site. */
export async function peopleChecks(browser, origin, site) {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    await atViewport(browser, origin, site, viewport);
  }
  await narrowest(browser, origin, site);
  await themes(browser, origin, site);
  await plumbing(browser, origin, site);
}
