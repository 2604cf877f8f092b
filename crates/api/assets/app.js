// Lectern's web page: search as you type, a reading view that switches
// version and language, editions with enable/disable, and the MCP
// integration configs. Talks only to this server's /v1/ API with the
// HttpOnly session cookie; loads nothing from elsewhere.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = { editions: [], hits: [], selected: -1, seq: 0, page: null, integrations: null, lastView: "search" };

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

function showLogin() {
  $("#login-needed").hidden = false;
  for (const v of document.querySelectorAll(".view")) v.hidden = true;
}

function show(view) {
  for (const v of document.querySelectorAll(".view")) v.hidden = v.id !== `view-${view}`;
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.view === view || (view === "reader" && t.dataset.view === "search"));
  if (view !== "reader") state.lastView = view;
  if (view === "editions") loadEditions();
  if (view === "integrations") loadIntegrations();
  if (view === "search") $("#q").focus();
}

function setStatus(id, text, isError) {
  const s = $(id);
  s.textContent = text || "";
  s.classList.toggle("error", !!isError);
}

// --- editions and filters ---------------------------------------------------

async function refreshEditions() {
  const list = await api(`/v1/editions?${qs({ all: true })}`);
  state.editions = list.editions;
  $("#generation").textContent = `generation ${list.generation}`;
  fillFilter($("#f-version"), uniq(list.editions.filter((e) => e.enabled).map((e) => e.version)), "version");
  fillFilter($("#f-locale"), uniq(list.editions.filter((e) => e.enabled).map((e) => e.locale)), "locale");
  return list;
}

function uniq(values) { return [...new Set(values)].sort(); }

function fillFilter(select, values, what) {
  const keep = select.value;
  while (select.options.length > 2) select.remove(2);
  for (const v of values) select.append(el("option", { value: v, text: `${what} ${v}` }));
  select.value = [...select.options].some((o) => o.value === keep) ? keep : "";
}

// --- search -----------------------------------------------------------------

let debounce = null;
function scheduleSearch() {
  clearTimeout(debounce);
  debounce = setTimeout(runSearch, 120);
}

async function runSearch() {
  const text = $("#q").value;
  const seq = ++state.seq;
  if (!text.trim()) {
    state.hits = [];
    renderHits();
    setStatus("#search-status", "");
    return;
  }
  const params = { text, prefix: true, limit: 20 };
  if ($("#f-version").value) params.version = $("#f-version").value;
  if ($("#f-locale").value) params.locale = $("#f-locale").value;
  try {
    const r = await api("/v1/search", params);
    if (seq !== state.seq) return; // a newer search is on its way
    state.hits = r.hits;
    state.selected = r.hits.length ? 0 : -1;
    renderHits();
    let note = `${r.total} result${r.total === 1 ? "" : "s"}`;
    if (r.timed_out || r.cancelled || r.candidate_truncated) note += " (incomplete: the search was cut short)";
    setStatus("#search-status", note);
  } catch (e) {
    if (seq !== state.seq) return;
    state.hits = [];
    renderHits();
    setStatus("#search-status", e.message, true);
  }
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
    const li = el("li", { class: "hit", role: "option", "data-index": String(i), "aria-selected": String(i === state.selected), lang: h.locale },
      el("div", { class: "title", text: h.title }),
      el("div", { class: "crumbs", text: h.breadcrumb.join(" › ") }),
      el("div", { class: "snippet" }, highlighted(h.snippet, h.highlights)),
      el("div", { class: "meta", text: `${editionLabel(h.edition)} · ${h.path}` }));
    li.addEventListener("click", () => openHit(i));
    list.append(li);
  });
}

function select(i) {
  if (!state.hits.length) return;
  state.selected = Math.max(0, Math.min(state.hits.length - 1, i));
  for (const li of document.querySelectorAll("#results .hit")) {
    const on = Number(li.dataset.index) === state.selected;
    li.setAttribute("aria-selected", String(on));
    if (on) li.scrollIntoView({ block: "nearest" });
  }
}

function openHit(i) {
  const h = state.hits[i];
  if (h) openPage({ path: h.path, anchor: h.anchor, title: h.title });
}

// --- reading ----------------------------------------------------------------

async function openPage(where) {
  show("reader");
  setStatus("#reader-status", "Loading…");
  const params = { format: "html", limit: 50000 };
  if (where.edition) { params.edition = where.edition; params.path = where.path || "/"; } else params.path = where.path;
  if (where.offset) params.offset = where.offset;
  try {
    const page = await api(`/v1/page?${qs(params)}`);
    state.page = page;
    renderPage(page, where, !!where.offset);
    setStatus("#reader-status", "");
  } catch (e) {
    setStatus("#reader-status", e.code === "not_found" && where.edition
      ? `This page is not in ${editionLabel(where.edition)}. ${e.message}` : e.message, true);
  }
}

function renderPage(page, where, append) {
  const content = $("#content");
  content.lang = page.locale;
  if (!append) content.replaceChildren();
  const holder = document.createElement("div");
  holder.innerHTML = page.content; // rendered server-side: raw HTML escaped, links filtered
  content.append(...holder.childNodes);
  $("#reader-crumbs").textContent = page.path;
  $("#reader-edition").textContent = page.label;
  // Give headings the section anchors so a result scrolls to its section.
  const headings = [...content.querySelectorAll("h1,h2,h3,h4,h5,h6")];
  for (const s of page.sections) {
    const h = headings.find((x) => !x.id && x.textContent.trim() === s.title.trim());
    if (h && s.anchor) h.id = s.anchor;
  }
  $("#more").hidden = page.next_offset === null || page.next_offset === undefined;
  fillReaderSwitches(page);
  if (!append) {
    const target = where.anchor && document.getElementById(where.anchor);
    if (target) { target.classList.add("focus"); target.scrollIntoView(); } else window.scrollTo(0, 0);
  }
}

function siblings(page) {
  return state.editions.filter((e) => e.enabled && e.project === page.project && e.domain === page.domain && (e.collection || null) === (page.collection || null));
}

function fillReaderSwitches(page) {
  const sib = siblings(page);
  const vs = $("#r-version"), ls = $("#r-locale");
  vs.replaceChildren(...uniq(sib.map((e) => e.version)).map((v) => el("option", { value: v, text: v })));
  ls.replaceChildren(...uniq(sib.map((e) => e.locale)).map((l) => el("option", { value: l, text: l })));
  vs.value = page.version;
  ls.value = page.locale;
}

function relativePath(page) {
  const prefix = page.prefix === "/" ? "" : page.prefix;
  return page.path.startsWith(prefix) ? page.path.slice(prefix.length) || "/" : page.path;
}

function switchEdition(version, locale) {
  const page = state.page;
  if (!page) return;
  const sib = siblings(page);
  const target = sib.find((e) => e.version === version && e.locale === locale)
    || sib.find((e) => e.version === version) || sib.find((e) => e.locale === locale);
  if (!target) return;
  openPage({ edition: target.id, path: relativePath(page) });
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
  for (const e of state.editions) {
    const button = el("button", { type: "button", "data-edition": e.id, text: e.enabled ? "Disable" : "Enable" });
    button.addEventListener("click", () => toggleEdition(e, button));
    body.append(el("tr", { "data-edition": e.id },
      el("td", { text: e.id }), el("td", { text: e.label }), el("td", { text: e.status }),
      el("td", { text: String(e.pages) }), el("td", { class: "enabled", text: e.enabled ? "yes" : "no" }), el("td", {}, button)));
  }
}

async function toggleEdition(e, button) {
  button.disabled = true;
  try {
    const r = await api(`/v1/editions/${e.enabled ? "disable" : "enable"}`, { edition: e.id });
    setStatus("#editions-status", `${e.id} ${r.state}; generation ${r.generation}`);
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
      el("pre", { class: "code", "data-format": s.format, text: s.text }),
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

function wire() {
  for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => show(t.dataset.view));
  $("#q").addEventListener("input", scheduleSearch);
  $("#f-version").addEventListener("change", runSearch);
  $("#f-locale").addEventListener("change", runSearch);
  $("#q").addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown") { ev.preventDefault(); select(state.selected + 1); }
    else if (ev.key === "ArrowUp") { ev.preventDefault(); select(state.selected - 1); }
    else if (ev.key === "Enter") { ev.preventDefault(); openHit(Math.max(0, state.selected)); }
  });
  $("#back").addEventListener("click", () => show("search"));
  $("#r-version").addEventListener("change", () => switchEdition($("#r-version").value, state.page && state.page.locale));
  $("#r-locale").addEventListener("change", () => switchEdition(state.page && state.page.version, $("#r-locale").value));
  $("#more").addEventListener("click", () => {
    const p = state.page;
    if (p && p.next_offset != null) openPageMore(p);
  });
  $("#content").addEventListener("click", (ev) => {
    const a = ev.target.closest("a");
    if (!a) return;
    const href = a.getAttribute("href") || "";
    if (href.startsWith("/")) { ev.preventDefault(); const [path, anchor] = href.split("#"); openPage({ path, anchor }); }
  });
  $("#client").addEventListener("change", renderIntegrations);
  $("#copy-config").addEventListener("click", () => state.integrations && copy(selectedClient().snippets[0].text));
  $("#copy-command").addEventListener("click", () => state.integrations && copy(state.integrations.command));
}

async function openPageMore(p) {
  try {
    const next = await api(`/v1/page?${qs({ edition: p.edition, path: relativePath(p), format: "html", limit: 50000, offset: p.next_offset })}`);
    state.page = next;
    renderPage(next, {}, true);
  } catch (e) { setStatus("#reader-status", e.message, true); }
}

async function start() {
  wire();
  try {
    await api("/v1/status");
    await refreshEditions();
    document.body.dataset.ready = "true";
  } catch (e) {
    if (e.status !== 401) setStatus("#search-status", e.message, true);
  }
}

start();
