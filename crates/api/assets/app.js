// Lectern's web page: search as you type (project, version and language
// filters, and a hint when the hits are elsewhere), a reading view with the
// edition's contents as a tree that switches project, version and language,
// editions with enable/disable, and the MCP integration configs. What is
// shown lives in the address (`/?q=…`, `/?page=/path#section`,
// `/?view=…`), so reload, Back/Forward and a pasted link work. Talks only
// to this server's /v1/ API with the HttpOnly session cookie; loads nothing
// from elsewhere.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = {
  editions: [], defaults: {}, hits: [], selected: -1, seq: 0, page: null, toc: null, tocs: new Map(),
  integrations: null, started: false, wired: false, fromSearch: false, lastSearch: "/",
};
// How long a link opened before logging in is remembered for the tab that logs in.
const RESUME_MS = 10 * 60 * 1000;

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.error && body.error.code;
  }
}

async function api(path, body) {
  const init = { method: body === undefined ? "GET" : "POST", credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let json = null;
  try { json = await response.json(); } catch (_) { /* not JSON */ }
  if (!response.ok) {
    const err = new ApiError(response.status, json);
    if (response.status === 401) showLogin();
    throw err;
  }
  return json;
}

function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, String(v));
  return u.toString();
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function setStatus(id, text, isError) {
  const s = $(id);
  s.textContent = text || "";
  s.classList.toggle("error", !!isError);
}

// Version numbers as people read them: 9 < 10, newest first.
const byNumber = (a, b) => String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: "base" });
function uniq(values) { return [...new Set(values)].sort(byNumber); }

// --- the address ------------------------------------------------------------

function here() { return location.pathname + location.search + location.hash; }

function pageUrl(path, anchor) {
  return `/?${qs({ page: path })}${anchor ? "#" + encodeURIComponent(anchor) : ""}`;
}

function searchUrl() {
  const q = $("#q").value;
  return `/?${qs({ q, project: $("#f-project").value, version: $("#f-version").value, locale: $("#f-locale").value })}`.replace(/\?$/, "");
}

// Leaving an entry keeps its scroll position, so Back returns to the same place.
function keepScroll() {
  try { history.replaceState({ ...(history.state || {}), scroll: window.scrollY }, ""); } catch (_) { /* ignore */ }
}

function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState({}, "", url);
  else if (url !== here()) { keepScroll(); history.pushState({}, "", url); }
  return route(false);
}

// Reads the address and shows what it names.
async function route(fromHistory) {
  const p = new URLSearchParams(location.search);
  const scroll = fromHistory && history.state && typeof history.state.scroll === "number" ? history.state.scroll : null;
  const view = p.get("view");
  if (p.has("page")) {
    let anchor = "";
    try { anchor = decodeURIComponent(location.hash.slice(1)); } catch (_) { anchor = location.hash.slice(1); }
    return openPage(p.get("page"), anchor, scroll);
  }
  if (view === "browse") return browse();
  if (view === "editions" || view === "integrations") return show(view);
  $("#q").value = p.get("q") || "";
  setFilter($("#f-project"), p.get("project"));
  fillVersions();
  setFilter($("#f-version"), p.get("version"));
  setFilter($("#f-locale"), p.get("locale"));
  state.lastSearch = here();
  show("search");
  document.title = $("#q").value ? `${$("#q").value} · Lectern` : "Lectern";
  await runSearch();
  if (scroll !== null) window.scrollTo(0, scroll);
}

// A value named by the address is kept even before the editions are known.
function setFilter(select, value) {
  value = value || "";
  if (value && ![...select.options].some((o) => o.value === value)) select.append(el("option", { value, text: value }));
  select.value = value;
}

function showLogin() {
  if (!$("#login-needed").hidden) return;
  $("#login-needed").hidden = false;
  for (const v of document.querySelectorAll(".view")) v.hidden = true;
  // The tab that `lectern open` logs in lands on `/`: it goes on to this link.
  if (location.search || location.hash) {
    try { localStorage.setItem("lectern.resume", JSON.stringify({ url: here(), at: Date.now() })); } catch (_) { /* ignore */ }
  }
}

function show(view) {
  for (const v of document.querySelectorAll(".view")) v.hidden = v.id !== `view-${view}`;
  const tab = view === "reader" ? "browse" : view;
  for (const t of document.querySelectorAll(".tab")) {
    const on = t.dataset.view === tab;
    t.classList.toggle("active", on);
    if (on) t.setAttribute("aria-current", "page"); else t.removeAttribute("aria-current");
  }
  document.querySelector("main").classList.toggle("wide", view === "reader");
  if (view === "editions") { document.title = "Editions · Lectern"; loadEditions(); }
  if (view === "integrations") { document.title = "Integrations · Lectern"; loadIntegrations(); }
  if (view === "search") $("#q").focus();
}

// --- editions and filters ---------------------------------------------------

async function refreshEditions() {
  const list = await api(`/v1/editions?${qs({ all: true })}`);
  state.editions = list.editions;
  state.defaults = list.defaults || {};
  $("#generation").textContent = `generation ${list.generation}`;
  const enabled = list.editions.filter((e) => e.enabled);
  const dp = state.defaults.project;
  fillFilter($("#f-project"), uniq(enabled.map((e) => e.project)), (p) => p, dp ? `default project (${dp})` : "every project");
  fillVersions();
  fillFilter($("#f-locale"), uniq(enabled.map((e) => e.locale)), (l) => `language ${l}`);
  return list;
}

function fillFilter(select, values, label, first) {
  const keep = select.value;
  if (first) select.options[0].textContent = first;
  while (select.options.length > 2) select.remove(2);
  for (const v of values) select.append(el("option", { value: v, text: label(v) }));
  select.value = [...select.options].some((o) => o.value === keep) ? keep : "";
}

// The version list is the chosen project's (the default project's when none is chosen).
function fillVersions() {
  const chosen = $("#f-project").value;
  const project = chosen === "*" ? null : chosen || state.defaults.project || null;
  const versions = uniq(state.editions.filter((e) => e.enabled && (!project || e.project === project)).map((e) => e.version)).reverse();
  fillFilter($("#f-version"), versions, (v) => `version ${v}`);
}

// --- search -----------------------------------------------------------------

let debounce = null;
function scheduleSearch() {
  clearTimeout(debounce);
  debounce = setTimeout(searchChanged, 120);
}

// Typing replaces the search's address; a new search after a page is a new entry.
function searchChanged() {
  const url = searchUrl();
  if (new URLSearchParams(location.search).has("page") || new URLSearchParams(location.search).has("view")) history.pushState({}, "", url);
  else history.replaceState({}, "", url);
  state.lastSearch = url;
  document.title = $("#q").value ? `${$("#q").value} · Lectern` : "Lectern";
  return runSearch();
}

async function runSearch() {
  const text = $("#q").value;
  const seq = ++state.seq;
  if (!text.trim()) {
    state.hits = [];
    renderHits();
    renderHint(null);
    setStatus("#search-status", "");
    return;
  }
  const params = { text, prefix: true, limit: 20 };
  for (const [key, id] of [["project", "#f-project"], ["version", "#f-version"], ["locale", "#f-locale"]]) {
    if ($(id).value) params[key] = $(id).value;
  }
  // Several projects and none the default: search them all rather than fail.
  if (!params.project && !state.defaults.project) params.project = "*";
  try {
    const r = await api("/v1/search", params);
    if (seq !== state.seq) return; // a newer search is on its way
    state.hits = r.hits;
    state.selected = r.hits.length ? 0 : -1;
    renderHits();
    renderHint(r);
    const s = r.scope || {};
    let note = `${r.total} result${r.total === 1 ? "" : "s"}`;
    if (s.project) note += ` in ${[s.project, s.version, s.locale].map((x) => (x === "*" ? "all" : x)).join(" · ")}`;
    if (r.timed_out || r.cancelled || r.candidate_truncated) note += " (incomplete: the search was cut short)";
    setStatus("#search-status", note);
  } catch (e) {
    if (seq !== state.seq) return;
    state.hits = [];
    renderHits();
    renderHint(null);
    setStatus("#search-status", e.message, true);
  }
}

// No hits here: say why, or where there are some, with a button that searches there.
function renderHint(r) {
  const box = $("#search-hint");
  box.replaceChildren();
  const elsewhere = (r && r.total === 0 && r.elsewhere) || [];
  box.hidden = elsewhere.length === 0 && !(r && r.total === 0 && r.hint);
  if (box.hidden) return;
  if (elsewhere.length === 0) {
    box.append(el("p", { class: "hint-text", text: r.hint }));
    return;
  }
  const first = elsewhere[0];
  const scope = r.scope || {};
  const where = (e) => [e.project, e.version, e.locale].filter(Boolean).join("/");
  const hereName = first.locale ? scope.locale : first.version ? scope.version : scope.project;
  const sentence = r.hint || `0 in ${hereName}; ${elsewhere.map((e) => `${e.total} in ${where(e)}`).join("; ")}`;
  box.append(el("p", { class: "hint-text", text: sentence }));
  const buttons = el("div", { class: "buttons" });
  for (const e of elsewhere) {
    const kind = e.project ? "project" : e.version ? "version" : "language";
    const b = el("button", { type: "button", class: "elsewhere", "data-where": where(e), text: `Search ${kind} ${where(e)} (${e.total})` });
    b.addEventListener("click", () => searchElsewhere(e));
    buttons.append(b);
  }
  box.append(buttons);
}

function searchElsewhere(e) {
  if (e.project) { setFilter($("#f-project"), e.project); fillVersions(); $("#f-version").value = ""; }
  if (e.version) setFilter($("#f-version"), e.version);
  if (e.locale) setFilter($("#f-locale"), e.locale);
  return navigate(searchUrl());
}

// Highlights are [start, end) in Unicode scalar values; JS strings are UTF-16,
// so index an array of code points, not the string.
function highlighted(snippet, ranges) {
  const chars = Array.from(snippet);
  const out = document.createDocumentFragment();
  let pos = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < pos || end > chars.length) continue;
    out.append(chars.slice(pos, start).join(""));
    out.append(el("mark", { text: chars.slice(start, end).join("") }));
    pos = end;
  }
  out.append(chars.slice(pos).join(""));
  return out;
}

function editionLabel(id) {
  const e = state.editions.find((x) => x.id === id);
  return e ? e.label : id;
}

function renderHits() {
  const list = $("#results");
  list.replaceChildren();
  state.hits.forEach((h, i) => {
    const li = el("li", { class: "hit", id: `hit-${i}`, role: "option", "data-index": String(i), "aria-selected": String(i === state.selected), lang: h.locale },
      el("div", { class: "title", text: h.title }),
      el("div", { class: "crumbs", text: h.breadcrumb.join(" › ") }),
      el("div", { class: "snippet" }, highlighted(h.snippet, h.highlights)),
      el("div", { class: "meta", text: `${editionLabel(h.edition)} · ${h.path}` }));
    li.addEventListener("click", () => openHit(i));
    list.append(li);
  });
  const q = $("#q");
  q.setAttribute("aria-expanded", String(state.hits.length > 0));
  if (state.selected >= 0) q.setAttribute("aria-activedescendant", `hit-${state.selected}`); else q.removeAttribute("aria-activedescendant");
}

function select(i) {
  if (!state.hits.length) return;
  state.selected = Math.max(0, Math.min(state.hits.length - 1, i));
  for (const li of document.querySelectorAll("#results .hit")) {
    const on = Number(li.dataset.index) === state.selected;
    li.setAttribute("aria-selected", String(on));
    if (on) li.scrollIntoView({ block: "nearest" });
  }
  $("#q").setAttribute("aria-activedescendant", `hit-${state.selected}`);
}

function openHit(i) {
  const h = state.hits[i];
  if (!h) return;
  state.fromSearch = true;
  navigate(pageUrl(h.path, h.entry || h.anchor));
}

// --- reading ----------------------------------------------------------------

async function toc(edition) {
  const key = `${edition}\n${state.generation || ""}`;
  if (!state.tocs.has(key)) state.tocs.set(key, await api(`/v1/toc?${qs({ edition })}`));
  return state.tocs.get(key);
}

async function openPage(path, anchor, scroll) {
  show("reader");
  $("#back").hidden = !state.lastSearch || state.lastSearch === "/";
  if (state.page && (state.page.path === path || state.page.path === path.replace(/\/+$/, ""))) {
    scrollToSection(anchor, scroll);
    return;
  }
  setStatus("#reader-status", "Loading…");
  try {
    const page = await api(`/v1/page?${qs({ path, format: "html", limit: 50000 })}`);
    state.page = page;
    state.generation = page.generation;
    renderPage(page, false);
    setStatus("#reader-status", "");
    if (page.path !== path) history.replaceState(history.state, "", pageUrl(page.path, anchor));
    scrollToSection(anchor, scroll);
    await showToc(page);
  } catch (e) {
    if (e.status === 401) return;
    state.page = null;
    $("#content").replaceChildren();
    setStatus("#reader-status", e.message, true);
  }
}

function renderPage(page, append) {
  const content = $("#content");
  content.lang = page.locale;
  if (!append) content.replaceChildren();
  const holder = document.createElement("div");
  holder.innerHTML = page.content; // rendered server-side: raw HTML escaped, links filtered
  content.append(...holder.childNodes);
  // Code blocks and wide tables scroll on their own: reachable by keyboard.
  for (const wide of content.querySelectorAll("pre, table")) wide.tabIndex = 0;
  $("#reader-crumbs").textContent = page.path;
  $("#reader-edition").textContent = page.label;
  document.title = `${page.title} · ${page.label} · Lectern`;
  // Give headings the section anchors so a result scrolls to its section.
  const headings = [...content.querySelectorAll("h1,h2,h3,h4,h5,h6")];
  for (const s of page.sections) {
    const h = headings.find((x) => !x.id && x.textContent.trim() === s.title.trim());
    if (h && s.anchor) h.id = s.anchor;
  }
  $("#more").hidden = page.next_offset === null || page.next_offset === undefined;
  fillReaderSwitches(page);
}

function scrollToSection(anchor, scroll) {
  for (const f of document.querySelectorAll("#content .focus")) f.classList.remove("focus");
  const target = anchor && document.getElementById(anchor);
  if (target) target.classList.add("focus");
  if (scroll !== null && scroll !== undefined) window.scrollTo(0, scroll);
  else if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
}

async function showToc(page) {
  try {
    const t = await toc(page.edition);
    if (state.page !== page) return;
    if (state.toc !== t) { state.toc = t; renderToc(t); }
    markCurrent(page.path);
  } catch (e) {
    $("#toc").replaceChildren(el("p", { class: "error", text: e.message }));
  }
}

let groupSeq = 0;
function tocList(entries) {
  const ul = el("ul");
  for (const e of entries) {
    const li = el("li");
    const link = e.path ? el("a", { href: pageUrl(e.path), "data-path": e.path, text: e.title }) : null;
    if (e.children && e.children.length) {
      const sub = tocList(e.children);
      sub.id = `toc-group-${++groupSeq}`;
      sub.hidden = true;
      const toggle = el("button", { type: "button", class: "twisty", "aria-expanded": "false", "aria-controls": sub.id },
        link ? el("span", { class: "visually-hidden", text: e.title }) : e.title);
      toggle.addEventListener("click", () => expand(toggle, sub.hidden));
      li.className = "group";
      li.append(...[toggle, link, sub].filter(Boolean));
    } else li.append(link);
    ul.append(li);
  }
  return ul;
}

function expand(toggle, open) {
  toggle.setAttribute("aria-expanded", String(open));
  document.getElementById(toggle.getAttribute("aria-controls")).hidden = !open;
}

function renderToc(t) {
  const nav = $("#toc");
  const filter = el("input", { type: "search", id: "toc-filter", class: "toc-filter", placeholder: "Filter the contents", "aria-label": "Filter the contents", autocomplete: "off", spellcheck: "false" });
  const list = tocList(t.entries);
  filter.addEventListener("input", () => filterToc(list, filter.value.trim().toLocaleLowerCase()));
  // Enter opens the first page the filter matched.
  filter.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    ev.preventDefault();
    const first = list.querySelector("a.match[data-path]");
    if (first) first.click();
  });
  nav.replaceChildren(el("p", { class: "toc-title", text: t.label }), filter, list);
  nav.lang = t.locale;
}

// Keeps the entries whose title holds `term`, with the folders around them
// open; an empty term shows the whole tree again, open at the current page.
function filterToc(list, term) {
  const walk = (ul) => {
    let any = false;
    for (const li of ul.children) {
      const own = li.querySelector(":scope > a") || li.querySelector(":scope > .twisty");
      const sub = li.querySelector(":scope > ul");
      const inside = sub ? walk(sub) : false;
      const match = !!term && own.textContent.toLocaleLowerCase().includes(term);
      const hit = !term || match || inside;
      own.classList.toggle("match", match);
      li.hidden = !hit;
      if (sub) expand(li.querySelector(":scope > .twisty"), !!term && inside);
      any = any || hit;
    }
    return any;
  };
  walk(list);
  if (!term && state.page) markCurrent(state.page.path);
}

function markCurrent(path) {
  const nav = $("#toc");
  for (const a of nav.querySelectorAll("a[aria-current]")) a.removeAttribute("aria-current");
  const link = [...nav.querySelectorAll("a[data-path]")].find((a) => a.dataset.path === path);
  if (!link) return;
  link.setAttribute("aria-current", "page");
  for (let li = link.closest("li"); li; li = li.parentElement.closest("li")) {
    const toggle = li.querySelector(":scope > .twisty");
    if (toggle && li !== link.parentElement) expand(toggle, true);
  }
  const top = link.offsetTop - nav.offsetTop;
  if (top < nav.scrollTop || top > nav.scrollTop + nav.clientHeight - 24) nav.scrollTop = Math.max(0, top - nav.clientHeight / 3);
}

// The shelf a page is on: same project, domain and collection.
const shelfKey = (e) => `${e.project}\n${e.domain}\n${e.collection || ""}`;
const shelfName = (e) => (e.domain === "manual" ? e.project : `${e.project} · ${e.collection || e.domain}`);

function siblings(page) {
  return state.editions.filter((e) => e.enabled && shelfKey(e) === shelfKey(page));
}

function fillReaderSwitches(page) {
  const sib = siblings(page);
  const shelves = new Map();
  for (const e of state.editions.filter((x) => x.enabled)) if (!shelves.has(shelfKey(e))) shelves.set(shelfKey(e), shelfName(e));
  const ps = $("#r-project"), vs = $("#r-version"), ls = $("#r-locale");
  ps.replaceChildren(...[...shelves].sort((a, b) => byNumber(a[1], b[1])).map(([k, n]) => el("option", { value: k, text: n })));
  vs.replaceChildren(...uniq(sib.map((e) => e.version)).reverse().map((v) => el("option", { value: v, text: v })));
  ls.replaceChildren(...uniq(sib.map((e) => e.locale)).map((l) => el("option", { value: l, text: l })));
  ps.value = shelfKey(page);
  vs.value = page.version;
  ls.value = page.locale;
}

function relativePath(page) {
  const prefix = page.prefix === "/" ? "" : page.prefix;
  return page.path.startsWith(prefix) ? page.path.slice(prefix.length) || "/" : page.path;
}

function joinPath(prefix, rel) {
  if (prefix === "/") return rel === "/" ? "/" : rel;
  return rel === "/" ? prefix : prefix + rel;
}

// The same page in another version or language; that edition's first page
// when it has no such page.
async function switchEdition(version, locale) {
  const page = state.page;
  if (!page) return;
  const sib = siblings(page);
  const target = sib.find((e) => e.version === version && e.locale === locale)
    || sib.find((e) => e.version === version) || sib.find((e) => e.locale === locale);
  if (target) await openIn(target, relativePath(page));
}

async function openIn(edition, rel) {
  const path = rel ? joinPath(edition.prefix, rel) : null;
  try {
    if (path) {
      await api(`/v1/page?${qs({ path, limit: 1 })}`);
      return navigate(pageUrl(path));
    }
  } catch (e) {
    if (e.code !== "not_found") { setStatus("#reader-status", e.message, true); return; }
  }
  try {
    const t = await toc(edition.id);
    if (!t.first_page) { setStatus("#reader-status", `${edition.label} has no pages.`, true); return; }
    await navigate(pageUrl(t.first_page));
    if (path) setStatus("#reader-status", `${edition.label} has no page at ${path}; this is its first page.`);
  } catch (e) { setStatus("#reader-status", e.message, true); }
}

// The edition to browse: the search filters' project, version and language
// where set, else the library's defaults; a manual before a wiki.
function browseEdition(shelf) {
  const pick = (id, fallback) => { const v = $(id).value; return v && v !== "*" ? v : fallback; };
  const project = shelf ? shelf.split("\n")[0] : pick("#f-project", state.defaults.project);
  const enabled = state.editions.filter((e) => e.enabled && (!shelf || shelfKey(e) === shelf));
  const mine = enabled.filter((e) => !project || e.project === project);
  const pool = mine.length ? mine : enabled;
  const version = pick("#f-version", project === state.defaults.project ? state.defaults.version : null);
  const locale = pick("#f-locale", state.defaults.locale);
  const score = (e) => [e.domain !== "manual", version ? e.version !== version : 0, locale ? e.locale !== locale : 0, !e.default];
  const newest = [...pool].sort((a, b) => byNumber(b.version, a.version));
  return newest.sort((a, b) => { const x = score(a), y = score(b); for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] ? 1 : -1; return 0; })[0];
}

async function browse(shelf) {
  if (!shelf && state.page) return navigate(pageUrl(state.page.path), { replace: new URLSearchParams(location.search).get("view") === "browse" });
  const edition = browseEdition(shelf);
  show("reader");
  if (!edition) { setStatus("#reader-status", "No edition is enabled: add one with `lectern add`, or enable one under Editions.", true); return; }
  state.fromSearch = false;
  const t = await toc(edition.id).catch((e) => { setStatus("#reader-status", e.message, true); return null; });
  if (t && t.first_page) return navigate(pageUrl(t.first_page), { replace: new URLSearchParams(location.search).get("view") === "browse" });
  if (t) setStatus("#reader-status", `${edition.label} has no pages.`, true);
}

async function openPageMore(p) {
  try {
    const next = await api(`/v1/page?${qs({ path: p.path, format: "html", limit: 50000, offset: p.next_offset })}`);
    state.page = next;
    renderPage(next, true);
  } catch (e) { setStatus("#reader-status", e.message, true); }
}

// --- editions view ----------------------------------------------------------

async function loadEditions() {
  try {
    await refreshEditions();
    renderEditions();
  } catch (e) { setStatus("#editions-status", e.message, true); }
}

function renderEditions() {
  const body = $("#editions tbody");
  body.replaceChildren();
  const cell = (label, text, cls) => el("td", { "data-label": label, text, ...(cls ? { class: cls } : {}) });
  for (const e of state.editions) {
    const button = el("button", { type: "button", "data-edition": e.id, text: e.enabled ? "Disable" : "Enable" });
    button.addEventListener("click", () => toggleEdition(e, button));
    body.append(el("tr", { "data-edition": e.id },
      cell("Edition", e.id), cell("Label", e.label), cell("Status", e.status),
      cell("Pages", String(e.pages)), cell("Enabled", e.enabled ? "yes" : "no", "enabled"), el("td", {}, button)));
  }
}

async function toggleEdition(e, button) {
  button.disabled = true;
  try {
    const r = await api(`/v1/editions/${e.enabled ? "disable" : "enable"}`, { edition: e.id });
    setStatus("#editions-status", `${e.id} ${r.state}; generation ${r.generation}`);
    state.generation = r.generation;
    await loadEditions();
  } catch (err) {
    setStatus("#editions-status", err.message, true);
    button.disabled = false;
  }
}

// --- integrations -----------------------------------------------------------

async function loadIntegrations() {
  try {
    if (!state.integrations) state.integrations = await api("/v1/integrations");
    renderIntegrations();
  } catch (e) { setStatus("#copy-status", e.message, true); }
}

// The clients come from the server, each with its snippets (the first is
// the usual way, e.g. Claude Code's `claude mcp add`; others follow).
function selectedClient() {
  const i = state.integrations;
  return i && (i.clients.find((c) => c.id === $("#client").value) || i.clients[0]);
}

function renderIntegrations() {
  const i = state.integrations;
  if (!i) return;
  const select = $("#client");
  if (select.options.length !== i.clients.length) {
    const keep = select.value;
    select.replaceChildren(...i.clients.map((c) => el("option", { value: c.id, text: c.name })));
    select.value = i.clients.some((c) => c.id === keep) ? keep : i.clients[0].id;
  }
  const notice = $("#demo-notice");
  notice.hidden = !i.notice;
  notice.textContent = i.notice || "";
  const client = selectedClient();
  const [first, ...others] = client.snippets;
  $("#mcp-target").textContent = first.target;
  $("#mcp-config").textContent = first.text;
  $("#mcp-config").dataset.format = first.format;
  const more = $("#mcp-more");
  more.replaceChildren();
  for (const s of others) {
    const button = el("button", { type: "button", class: "copy-snippet", text: "Copy" });
    button.addEventListener("click", () => copy(s.text));
    more.append(el("p", { class: "muted", text: `Or, in ${s.target}:` }),
      el("pre", { class: "code", tabindex: "0", "data-format": s.format, text: s.text }),
      el("div", { class: "buttons" }, button));
  }
  $("#mcp-command").textContent = i.command;
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (_) {
    const t = el("textarea", {});
    t.value = text;
    document.body.append(t);
    t.select();
    document.execCommand("copy");
    t.remove();
  }
  setStatus("#copy-status", "Copied");
}

// --- wiring -----------------------------------------------------------------

// A plain click on a link of ours moves within the page; others (new tab,
// another site) are the browser's.
function ownClick(ev) {
  const a = ev.target.closest("a");
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return null;
  const href = a.getAttribute("href") || "";
  return href.startsWith("/") || href.startsWith("#") ? href : null;
}

function wire() {
  for (const t of document.querySelectorAll(".tab")) {
    t.addEventListener("click", (ev) => {
      if (!ownClick(ev)) return;
      ev.preventDefault();
      if (t.dataset.view === "search") navigate(state.lastSearch || "/");
      else if (t.dataset.view === "browse") browse();
      else navigate(t.getAttribute("href"));
    });
  }
  $("#q").addEventListener("input", scheduleSearch);
  $("#f-project").addEventListener("change", () => { fillVersions(); searchChanged(); });
  $("#f-version").addEventListener("change", searchChanged);
  $("#f-locale").addEventListener("change", searchChanged);
  $("#q").addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown") { ev.preventDefault(); select(state.selected + 1); }
    else if (ev.key === "ArrowUp") { ev.preventDefault(); select(state.selected - 1); }
    else if (ev.key === "Enter") { ev.preventDefault(); clearTimeout(debounce); openHit(Math.max(0, state.selected)); }
  });
  document.addEventListener("keydown", (ev) => {
    const typing = ev.target.closest("input, select, textarea, button");
    if (ev.key === "/" && !typing && !$("#view-search").hidden) { ev.preventDefault(); $("#q").focus(); }
  });
  $("#back").addEventListener("click", () => {
    if (state.fromSearch) { state.fromSearch = false; history.back(); } else navigate(state.lastSearch || "/");
  });
  $("#toc-toggle").addEventListener("click", () => {
    const open = !$("#toc").classList.contains("open");
    $("#toc").classList.toggle("open", open);
    $("#toc-toggle").setAttribute("aria-expanded", String(open));
  });
  $("#r-project").addEventListener("change", () => browse($("#r-project").value));
  $("#r-version").addEventListener("change", () => switchEdition($("#r-version").value, state.page && state.page.locale));
  $("#r-locale").addEventListener("change", () => switchEdition(state.page && state.page.version, $("#r-locale").value));
  $("#more").addEventListener("click", () => {
    const p = state.page;
    if (p && p.next_offset != null) openPageMore(p);
  });
  $("#toc").addEventListener("click", (ev) => {
    const href = ownClick(ev);
    if (!href) return;
    ev.preventDefault();
    state.fromSearch = false;
    $("#toc").classList.remove("open");
    $("#toc-toggle").setAttribute("aria-expanded", "false");
    navigate(href);
  });
  $("#content").addEventListener("click", (ev) => {
    const href = ownClick(ev);
    if (!href) return;
    ev.preventDefault();
    const [path, anchor] = href.split("#");
    navigate(pageUrl(path || state.page.path, anchor ? decodeURIComponent(anchor) : ""));
  });
  $("#client").addEventListener("change", renderIntegrations);
  $("#copy-config").addEventListener("click", () => state.integrations && copy(selectedClient().snippets[0].text));
  $("#copy-command").addEventListener("click", () => state.integrations && copy(state.integrations.command));
  $("#retry").addEventListener("click", start);
  window.addEventListener("popstate", () => route(true));
  // Another tab logged in (`lectern open`): this one goes on where it was.
  window.addEventListener("storage", (ev) => { if (ev.key === "lectern.login" && !state.started) start(); });
}

// Right after logging in the address is `/`: go on to a link that was
// opened before, if it is recent.
function resume() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem("lectern.resume") || "null");
    localStorage.removeItem("lectern.resume");
  } catch (_) { /* ignore */ }
  if (saved && typeof saved.url === "string" && saved.url.startsWith("/?") && Date.now() - saved.at < RESUME_MS
    && location.pathname === "/" && !location.search && !location.hash) {
    history.replaceState({}, "", saved.url);
  }
}

async function start() {
  if (!state.wired) { wire(); state.wired = true; }
  try {
    const status = await api("/v1/status");
    state.generation = status.generation;
    state.started = true;
    $("#login-needed").hidden = true;
    try { localStorage.setItem("lectern.login", String(Date.now())); } catch (_) { /* ignore */ }
    resume();
    await refreshEditions();
    await route(false);
    document.body.dataset.ready = "true";
  } catch (e) {
    if (e.status !== 401) setStatus("#search-status", e.message, true);
  }
}

start();
