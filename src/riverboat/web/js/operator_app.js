// The operator console (operator.html, issue #13): flags with their evidence, a hand viewer (every hole card for
// security staff only: the server decides, R-INTEG-8), player search, balances and movements, and the actions
// (warn, suspend, ban, reinstate, disqualify, force alias change, void a flag), each written to the audit log,
// which is shown here and cannot be edited (R-OPER-4).

import { OpError, opApi } from "./operator_api.js";
import { moneyView } from "./operator_money.js";
import {
  LOCALES, formatNumber, getLocale, languageSelect, localeForcedByUrl, setLocale, t, translateStatic,
} from "./i18n.js";
import {
  actionName, amountIn, auditReason, chips, consoleError, data, flagStatusName, movementName, patternName, roleName, score, standingName,
  statusName, when,
} from "./operator_text.js";

const STAFF = ["operator", "security", "admin"];
// issue #32: every word of the console comes from the catalog (op.*); data (names, ids, references, reasons typed by
// staff, PHH notation) is shown in translate="no" elements.
const ACTIONS = [
  ["warn", t("op.act.warn")], ["suspend", t("op.act.suspend")], ["ban", t("op.act.ban")],
  ["reinstate", t("op.act.reinstate")], ["force_alias", t("op.act.force_alias")], ["disqualify", t("op.act.disqualify")],
];
const app = document.getElementById("op-app");
translateStatic();
const state = { me: null, flag: null, localeOf: null };
// issue #32: the language is kept on this device and, once logged in, on the staff member's account (as for players,
// GET/PUT /api/locale), so the console speaks it in any browser they log in from.
document.getElementById("lang-box").append(languageSelect((locale) =>
  setLocale(locale, state.me ? (chosen) => opApi.setLocale(chosen) : null)));

/** After log in (or a page load with a session): the account's language wins over the device's, unless ?lang= asked
 * for one; an account without one is given the device's. */
async function syncStaffLocale() {
  if (!state.me || state.localeOf === state.me.player_id || !LOCALES.includes(getLocale())) return;  // not for qps
  state.localeOf = state.me.player_id;
  try {
    const { locale } = await opApi.locale();
    if (locale && locale !== getLocale() && !localeForcedByUrl()) await setLocale(locale);
    else if (!locale) await opApi.setLocale(getLocale());
  } catch { /* the device's choice stands */ }
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "testid") el.dataset.testid = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

function table(headers, rows) {
  return h("table", { class: "op-table" }, h("thead", {}, h("tr", {}, headers.map((text) => h("th", {}, text)))),
    h("tbody", {}, rows));
}

/** "username (alias)" as data (the words around it are the catalog's). */
const nameOf = (names, pid) => (names && names[pid]
  ? (names[pid].alias ? `${names[pid].username} (${names[pid].alias})` : t("op.name_no_alias", { name: names[pid].username }))
  : `#${pid}`);

function show(...nodes) { app.replaceChildren(...nodes); }

function errorBox(err) {
  return h("p", { class: "op-error", testid: "op-error" }, consoleError(err));
}

// ------------------------------------------------------------------------------------------------- login
function loginView(message = "") {
  const error = h("p", { class: "op-error", testid: "form-error" }, message);
  const form = h("form", { class: "op-form", onsubmit: async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      await opApi.login(form.username.value, form.password.value, form.code.value.trim());
      state.me = await opApi.me();
      renderUser();
      if (location.hash === "#/flags") route();
      else location.hash = "#/flags";
      syncStaffLocale();
    } catch (err) {
      if (err instanceof OpError && err.code === "enrolment_required") enrolView(form.username.value, form.password.value);
      else error.textContent = consoleError(err);
    }
  } },
  h("input", { name: "username", placeholder: t("op.login.username"), "aria-label": t("op.login.username"),
    autocomplete: "username", testid: "op-login-username" }),
  h("input", { name: "password", type: "password", placeholder: t("op.login.password"), "aria-label": t("op.login.password"),
    autocomplete: "current-password", testid: "op-login-password" }),
  h("input", { name: "code", placeholder: t("op.login.code"), "aria-label": t("op.login.code"), autocomplete: "one-time-code",
    inputmode: "text", testid: "op-login-code" }),
  h("button", { class: "btn btn-primary", type: "submit", testid: "op-login-submit" }, t("topbar.login")));
  show(h("section", { class: "op-panel", testid: "op-login" }, h("h2", {}, t("op.login.title")), form, error));
}

// Issue #35: a staff account without a second factor enrols here (scan the QR code, confirm with a code) and is
// shown its one-time recovery codes once.
async function enrolView(username, password) {
  const error = h("p", { class: "op-error", testid: "enrol-error" });
  let pending;
  try { pending = await opApi.enrol(username, password); } catch (err) { loginView(consoleError(err)); return; }
  const form = h("form", { class: "op-form", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      const done = await opApi.confirmEnrol(username, password, form.code.value.trim());
      show(h("section", { class: "op-panel", testid: "enrol-done" }, h("h2", {}, t("op.enrol.done")),
        h("p", {}, t("op.enrol.recovery_help")),
        h("ul", { class: "op-codes", testid: "recovery-codes", translate: "no" }, done.recovery_codes.map((c) => h("li", {}, c))),
        h("button", { class: "btn btn-primary", testid: "enrol-continue", onclick: () => loginView() }, t("op.enrol.continue"))));
    } catch (err) { error.textContent = consoleError(err); }
  } },
  h("input", { name: "code", placeholder: t("op.enrol.code"), "aria-label": t("op.enrol.code"), autocomplete: "one-time-code",
    testid: "enrol-code" }),
  h("button", { class: "btn btn-primary", type: "submit", testid: "enrol-submit" }, t("op.enrol.confirm")));
  show(h("section", { class: "op-panel", testid: "enrol" }, h("h2", {}, t("op.enrol.title")),
    h("p", {}, t("op.enrol.help")),
    h("img", { src: pending.qr, alt: t("op.enrol.qr_alt"), class: "op-qr", testid: "enrol-qr" }),
    h("p", {}, t("op.enrol.key"), " ", h("code", { testid: "enrol-secret", translate: "no" }, pending.secret)), form, error));
}

function renderUser() {
  const user = document.getElementById("op-user");
  const link = document.getElementById("op-logout");
  user.replaceChildren(...(state.me ? [data(state.me.username), " · ", roleName(state.me.role)] : []));
  link.textContent = state.me ? t("topbar.logout") : t("topbar.login");
}

// ------------------------------------------------------------------------------------------------- flags
async function flagsView(status = "open") {
  const select = h("select", { testid: "flag-status", onchange: () => flagsView(select.value) },
    ["open", "actioned", "void", "all"].map((s) => h("option", { value: s, selected: s === status }, flagStatusName(s))));
  const { flags } = await opApi.flags(status);
  const rows = flags.map((f) => h("tr", { class: "clickable", testid: "flag-row", "data-flag-id": f.id,
    onclick: () => { location.hash = `#/flag/${f.id}`; } },
  h("td", { class: "op-score" }, score(f.score, 4)), h("td", {}, patternName(f.pattern)),
  h("td", { translate: "no" }, f.players.map((p) => nameOf(f.names, p)).join(" → ")), h("td", {}, formatNumber(f.hands)),
  h("td", {}, flagStatusName(f.status)), h("td", {}, when(f.updated_at))));
  show(h("section", { class: "op-panel", testid: "flags" }, h("h2", {}, t("op.flags.title")),
    h("label", { class: "op-form" }, t("op.flags.status"), " ", select),
    flags.length ? table([t("op.col.score"), t("op.col.pattern"), t("op.col.players"), t("op.col.hands"), t("op.col.status"),
      t("op.col.updated")], rows)
      : h("p", { class: "muted", testid: "no-flags" }, t("op.flags.none"))));
}

async function flagView(id) {
  const f = await opApi.flag(id);
  state.flag = f;
  const players = f.players.map((p) => h("a", { href: `#/player/${p}`, testid: "flag-player", "data-player-id": p,
    translate: "no" }, nameOf(f.names, p)));
  // the detector's statistics by their own names (identifiers of docs/integrity.md, shown as data)
  const detail = Object.entries(f.detail || {}).map(([k, v]) => h("tr", {}, h("td", {}, h("code", { translate: "no" }, k)),
    h("td", {}, typeof v === "number" ? formatNumber(v) : data(v))));
  const hands = f.hands.map((hd) => h("tr", { class: "clickable", testid: "evidence-hand", "data-ref": hd.ref,
    onclick: () => { location.hash = `#/hand/${encodeURIComponent(hd.table_id)}/${encodeURIComponent(hd.hand_id)}`; } },
  h("td", { translate: "no" }, hd.ref), h("td", {}, statusName(hd.status)), h("td", {}, when(hd.ended_at || hd.started_at))));
  const result = h("p", { class: "op-ok", testid: "void-result" });
  const voidForm = h("form", { class: "op-form", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await opApi.voidFlag(f.id, voidForm.reason.value);
      result.textContent = t("op.flag.voided");
    } catch (err) { result.textContent = consoleError(err); }
  } }, h("input", { name: "reason", placeholder: t("op.flag.void_reason"), "aria-label": t("op.flag.void_reason"), testid: "void-reason" }),
  h("button", { class: "btn", type: "submit", testid: "void-submit", disabled: f.status !== "open" }, t("op.flag.void")));
  show(h("section", { class: "op-panel", testid: "flag-detail" },
    h("h2", {}, t("op.flag.title", { id: f.id }), " ", patternName(f.pattern)),
    h("p", {}, t("op.flag.score"), " ", h("span", { class: "op-score", testid: "flag-score" }, score(f.score, 6)),
      " · ", t("op.flag.hands_together", { count: f.hands }), " · ", t("op.flag.status"), " ", flagStatusName(f.status),
      " · ", t("op.flag.p_value", { p: Number(f.p_value).toExponential(2) })),
    h("p", {}, t("op.flag.players"), " ", players.flatMap((a, i) => (i ? [" → ", a] : [a]))),
    table([t("op.col.statistic"), t("op.col.value")], detail)),
  h("section", { class: "op-panel" }, h("h3", {}, t("op.flag.evidence")),
    hands.length ? table([t("op.col.hand"), t("op.col.status"), t("op.col.ended")], hands)
      : h("p", { class: "muted" }, t("op.flag.no_hands"))),
  h("section", { class: "op-panel" }, h("h3", {}, t("op.flag.void_title")), voidForm, result));
}

// ------------------------------------------------------------------------------------------------- hands
const cardsOf = (text) => (text.match(/../g) || []).map((c) => (c === "??" ? "🂠" : c)).join(" ");

/** The hand as a hand (issue #31 item 10): its PHH actions read into streets with the players' names -- forced
 * bets, cards dealt, every check, call ("calls N"), bet, raise ("raises to N"), fold, draw and show -- in the
 * console's language (the table's own log lines, log.*, where they say the same thing). */
export function handStreets(hd, name) {
  const n = (hd.players || []).length;
  const family = /F7S|FR|stud|razz|soko|americana/.test(hd.variant || "") ? "stud"
    : /2L3D|1D|FB|draw/.test(hd.variant || "") ? "draw" : "flop";
  const who = (p) => name(hd.players[Number(p.slice(1)) - 1]);
  const bets = new Array(n).fill(0);
  let top = 0;
  const streets = [];
  let cur = { title: t(family === "stud" ? "op.street.stud_3" : family === "draw" ? "op.street.deal" : "op.street.preflop"), lines: [] };
  let acted = false;
  let board = 0;
  let draws = 0;
  const next = (title) => { streets.push(cur); cur = { title, lines: [] }; bets.fill(0); top = 0; acted = false; };
  (hd.antes || []).forEach((a, i) => { if (a) cur.lines.push(t("log.posted_ante", { name: name(hd.players[i]), amount: chips(a) })); });
  (hd.blinds || []).forEach((b, i) => {
    if (!b) return;
    bets[i] = b;
    top = Math.max(top, b);
    cur.lines.push(t("log.posted", { name: name(hd.players[i]), amount: chips(b) }));
  });
  for (const action of hd.actions || []) {
    const [a, b, c, d] = action.split(" ");
    if (a === "d" && b === "db") {
      board += (c.length / 2);
      next(t(board <= 3 ? "op.street.flop" : board === 4 ? "op.street.turn" : "op.street.river", { cards: cardsOf(c) }));
      continue;
    }
    if (a === "d" && b === "dh") {
      if (family === "stud" && acted) next(studStreet(streets.length + 4));
      cur.lines.push(t("op.hand.dealt", { name: who(c), cards: cardsOf(d || "") }));
      continue;
    }
    const i = Number(a.slice(1)) - 1;
    if (b === "sd") {
      if (family === "draw" && acted) { draws += 1; next(t("op.street.draw", { n: draws })); }
      cur.lines.push(c ? t("op.hand.discards", { name: who(a), count: c.length / 2, cards: cardsOf(c) })
        : t("log.act_stand_pat", { name: who(a) }));
      continue;
    }
    acted = true;
    if (b === "cc" || b === "cbr") [top, bets[i]] = betLine(cur.lines, who(a), b, Number(c), top, bets[i]);
    else if (b === "f") cur.lines.push(t("log.act_fold", { name: who(a) }));
    else if (b === "pb") cur.lines.push(t("op.hand.brings_in", { name: who(a) }));
    else if (b === "sm") cur.lines.push(t("log.shows", { name: who(a), cards: cardsOf(c || "") }));
    else cur.lines.push(t("log.acted_other", { name: who(a), action: [b, c].filter(Boolean).join(" ") }));
  }
  streets.push(cur);
  return streets.filter((s) => s.lines.length);
}

const STUD_STREETS = { 4: "op.street.stud_4", 5: "op.street.stud_5", 6: "op.street.stud_6", 7: "op.street.stud_7" };
const studStreet = (k) => (STUD_STREETS[k] ? t(STUD_STREETS[k]) : t("op.street.stud_7"));

/** A check, call, bet or raise as a line; returns the street's new top bet and the player's bet. */
function betLine(lines, who, kind, to, top, mine) {
  if (kind === "cc") {
    if (top > mine) { lines.push(t("log.act_call", { name: who, amount: chips(top - mine) })); return [top, top]; }
    lines.push(t("log.act_check", { name: who }));
    return [top, mine];
  }
  lines.push(t(top ? "log.act_raise" : "log.act_bet", { name: who, to: chips(to) }));
  return [to, to];
}

async function handView(tableId, handId) {
  const hd = await opApi.hand(tableId, handId);
  const rows = hd.players.map((p, i) => h("tr", { testid: "hand-player" }, h("td", {}, hd.seats[i] ?? ""),
    h("td", {}, h("a", { href: `#/player/${p}`, translate: "no" }, nameOf(hd.names, p))),
    h("td", {}, chips(hd.starting_stacks[i])), h("td", {}, chips(hd.finishing_stacks[i])),
    h("td", { class: "op-cards", testid: "hole-cards" }, hd.hole_cards_shown ? data(hd.hole_cards[p] || "") : t("op.hand.hidden"))));
  const back = state.flag ? h("a", { href: `#/flag/${state.flag.id}`, testid: "back-to-flag" }, t("op.hand.back")) : null;
  show(h("section", { class: "op-panel", testid: "hand-view" },
    back, h("h2", {}, t("op.hand.title"), " ", data(`${hd.table_id}/${hd.hand_id}`)),
    h("p", { class: "muted", testid: "hole-card-note" }, t(hd.hole_cards_shown ? "op.hand.all_shown" : "op.hand.security_only")),
    table([t("op.col.seat"), t("op.col.player"), t("op.col.start"), t("op.col.end"), t("op.col.hole_cards")], rows)),
  h("section", { class: "op-panel", testid: "hand-streets" }, h("h3", {}, t("op.hand.streets"), " ", data(`(${hd.variant || ""})`)),
    handStreets(hd, (p) => nameOf(hd.names, p)).map((st) => h("div", { class: "op-street", testid: "hand-street" },
      h("h4", {}, st.title), h("ol", {}, st.lines.map((line) => h("li", {}, line)))))),
  h("details", { class: "op-panel" }, h("summary", {}, t("op.hand.phh")),
    h("pre", { class: "op-actions", testid: "hand-actions", translate: "no" }, hd.actions.join("\n"))));
}

// ------------------------------------------------------------------------------------------------- players
async function playersView(query = "") {
  const results = h("div", { testid: "player-results" });
  const form = h("form", { class: "op-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const { players } = await opApi.players(form.q.value);
    results.replaceChildren(players.length ? table([t("op.col.id"), t("op.col.username"), t("op.col.alias"), t("op.col.role"),
      t("op.col.status")], players.map((p) =>
      h("tr", { class: "clickable", testid: "player-row", onclick: () => { location.hash = `#/player/${p.player_id}`; } },
        h("td", {}, p.player_id), h("td", { translate: "no" }, p.username), h("td", { translate: "no" }, p.alias || ""),
        h("td", {}, roleName(p.role)), h("td", { class: `op-status-${p.status}` }, standingName(p.status)))))
      : h("p", { class: "muted" }, t("op.players.none")));
  } }, h("input", { name: "q", value: query, placeholder: t("op.players.search_hint"), "aria-label": t("op.players.search_hint"),
    testid: "player-search" }),
  h("button", { class: "btn", type: "submit", testid: "player-search-submit" }, t("op.players.search")));
  show(h("section", { class: "op-panel", testid: "players" }, h("h2", {}, t("op.players.title")), form, results));
}

function actionForm(pid, onDone, message = "") {
  const flagIds = state.flag && state.flag.players.includes(String(pid)) && state.flag.status === "open" ? state.flag.id : "";
  const result = h("p", { class: "op-ok", testid: "action-result" }, message);
  const form = h("form", { class: "op-form", testid: "action-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const body = { reason: form.reason.value };
    if (form.flag_id.value) body.flag_id = Number(form.flag_id.value);
    if (form.action.value === "disqualify") body.tournament_id = form.tournament_id.value;
    try {
      const entry = await opApi.act(pid, form.action.value, body);
      if (body.flag_id && state.flag) state.flag.status = "actioned";
      onDone(t("op.player.done", { action: textOf(actionName(entry.action)), id: entry.id }));
    } catch (err) {
      result.className = "op-error";
      result.textContent = consoleError(err);
    }
  } },
  h("select", { name: "action", testid: "action-select", "aria-label": t("op.col.action") },
    ACTIONS.map(([value, label]) => h("option", { value }, label))),
  h("input", { name: "reason", placeholder: t("op.reason_audit"), "aria-label": t("op.reason_audit"), testid: "action-reason" }),
  h("input", { name: "tournament_id", placeholder: t("op.player.tournament_id"), "aria-label": t("op.player.tournament_id"),
    testid: "action-tournament" }),
  h("input", { name: "flag_id", placeholder: t("op.player.flag_id"), "aria-label": t("op.player.flag_id"), value: flagIds, size: 5,
    testid: "action-flag" }),
  h("button", { class: "btn btn-primary", type: "submit", testid: "action-submit" }, t("op.player.apply")));
  return h("div", {}, form, result);
}

const textOf = (node) => (typeof node === "string" ? node : node.textContent);

function auditTable(entries) {
  return table([t("op.col.when"), t("op.col.operator"), t("op.col.action"), t("op.col.player"), t("op.col.target"),
    t("op.col.reason")], entries.map((e) =>
    h("tr", { testid: "audit-row", "data-action": e.action }, h("td", {}, when(e.at)), h("td", { translate: "no" }, e.operator),
      h("td", {}, actionName(e.action)), h("td", {}, e.player_id ?? ""), h("td", { translate: "no" }, e.target || ""),
      h("td", { testid: "audit-reason", "data-code": e.reason_code || null }, auditReason(e)))));
}

function playerTables(d) {
  const balances = Object.entries(d.balances).map(([c, v]) => h("tr", {}, h("td", { translate: "no" }, c),
    h("td", { testid: `balance-${c}` }, amountIn(v, c))));
  const moves = d.movements.map((m) => h("tr", {}, h("td", {}, when(m.at)), h("td", {}, movementName(m.kind)),
    h("td", { translate: "no" }, m.currency), h("td", {}, amountIn(m.amount, m.currency)), h("td", { translate: "no" }, m.table || "")));
  const hands = d.hands.map((hd) => h("tr", { class: "clickable", onclick: () => {
    location.hash = `#/hand/${encodeURIComponent(hd.table_id)}/${encodeURIComponent(hd.hand_id)}`; } },
  h("td", { translate: "no" }, `${hd.table_id}/${hd.hand_id}`), h("td", {}, hd.currency ? data(hd.currency) : t("op.player.chips")),
  h("td", {}, when(hd.ended_at))));
  const flags = d.flags.map((f) => h("tr", { class: "clickable", onclick: () => { location.hash = `#/flag/${f.id}`; } },
    h("td", {}, `#${f.id}`), h("td", {}, patternName(f.pattern)), h("td", { class: "op-score" }, score(f.score, 4)),
    h("td", {}, flagStatusName(f.status))));
  return [h("div", { class: "op-grid" },
    h("section", { class: "op-panel" }, h("h3", {}, t("op.player.balances")), table([t("op.col.currency"), t("op.col.balance")], balances)),
    h("section", { class: "op-panel" }, h("h3", {}, t("op.player.flags")),
      flags.length ? table([t("op.col.flag"), t("op.col.pattern"), t("op.col.score"), t("op.col.status")], flags)
        : h("p", { class: "muted" }, t("op.none")))),
  h("section", { class: "op-panel", testid: "player-movements" }, h("h3", {}, t("op.player.movements")),
    table([t("op.col.when"), t("op.col.kind"), t("op.col.currency"), t("op.col.amount"), t("op.col.table")], moves)),
  h("section", { class: "op-panel" }, h("h3", {}, t("op.player.recent_hands")),
    table([t("op.col.hand"), t("op.col.money"), t("op.col.ended")], hands))];
}

async function playerView(pid, message = "") {
  const d = await opApi.player(pid);
  const p = d.player;
  show(h("section", { class: "op-panel", testid: "player-detail" },
    h("h2", {}, h("span", { translate: "no" }, nameOf({ [p.player_id]: p }, p.player_id)), ` · #${p.player_id} · `, roleName(p.role)),
    h("p", {}, h("a", { href: `#/money/player/${p.player_id}`, testid: "player-money-link" }, t("op.player.money_link"))),
    h("p", {}, t("op.player.standing"), " ", h("span", { class: `op-status-${d.standing.status}`, testid: "player-status" },
      standingName(d.standing.status)), " · ", t("op.player.warnings", { count: d.standing.warnings })),
    actionForm(p.player_id, (done) => playerView(pid, done), message)),
  ...playerTables(d),
  await securityPanel(p.player_id),
  h("section", { class: "op-panel", testid: "player-audit" }, h("h3", {}, t("op.nav.audit")), auditTable(d.audit)));
}

// Issue #35: the account-security powers (a reset code, releasing a lock-out, resetting a staff second factor).
async function securityPanel(pid) {
  const st = await opApi.security(pid);
  const result = h("p", { class: "op-ok", testid: "security-result" });
  const reason = h("input", { name: "reason", placeholder: t("op.reason_audit"), "aria-label": t("op.reason_audit"),
    testid: "security-reason" });
  const act = (what) => async (ev) => {
    ev.preventDefault();
    try {
      const out = await opApi.securityAct(pid, what, reason.value);
      result.className = "op-ok";
      if (what === "reset_code") {
        result.replaceChildren(t("op.security.code_issued", { until: when(out.expires_at) }), " ",
          h("code", { translate: "no", testid: "security-code" }, out.code));
      } else result.textContent = t(what === "unlock" ? "op.security.unlocked" : "op.security.reset_2fa_done");
    } catch (err) { result.className = "op-error"; result.textContent = consoleError(err); }
  };
  return h("section", { class: "op-panel", testid: "player-security" }, h("h3", {}, t("op.security.title")),
    h("p", { testid: "security-status" }, st.locked_until ? t("op.security.locked_until", { until: when(st.locked_until) })
      : t("op.security.not_locked"), " · ", t(st.second_factor ? "op.security.second_factor_yes" : "op.security.second_factor_no")),
    h("div", { class: "op-form" }, reason,
      h("button", { class: "btn", testid: "security-reset-code", onclick: act("reset_code") }, t("op.security.reset_code")),
      h("button", { class: "btn", testid: "security-unlock", onclick: act("unlock") }, t("op.security.unlock")),
      state.me && state.me.role === "admin"
        ? h("button", { class: "btn", testid: "security-reset-2fa", onclick: act("reset_2fa") }, t("op.security.reset_2fa")) : null),
    result);
}

async function auditView() {
  const { audit } = await opApi.audit();
  show(h("section", { class: "op-panel", testid: "audit" }, h("h2", {}, t("op.audit.title")), auditTable(audit)));
}

// ------------------------------------------------------------------------------------------------- routing
async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  for (const a of document.querySelectorAll(".topnav a")) a.classList.toggle("active", a.dataset.nav === parts[0]);
  const marked = document.cookie.split(";").some((c) => c.trim() === "rb_staff_in=1");  // HttpOnly session beside it
  if (parts[0] === "login" || (!state.me && !marked)) { state.me = null; renderUser(); loginView(); return; }
  try {
    if (!state.me) {
      state.me = await opApi.me();
      renderUser();
      if (!STAFF.includes(state.me.role)) throw new OpError(403, "not_staff", t("error.not_staff"));
      syncStaffLocale();
    }
    if (parts[0] === "flag" && parts[1]) await flagView(parts[1]);
    else if (parts[0] === "hand" && parts[2]) await handView(parts[1], parts[2]);
    else if (parts[0] === "players") await playersView();
    else if (parts[0] === "player" && parts[1]) await playerView(parts[1]);
    else if (parts[0] === "audit") await auditView();
    else if (parts[0] === "money") await moneyView(parts, { h, table, show, app: () => app });  // issue #30
    else await flagsView();
  } catch (err) {
    if (err instanceof OpError && (err.status === 401 || err.status === 403)) {
      state.me = null;
      renderUser();
      loginView(consoleError(err));
      return;
    }
    show(errorBox(err));
  }
}

document.getElementById("op-logout").addEventListener("click", async (ev) => {
  if (!state.me) return;
  ev.preventDefault();
  try { await opApi.logout(); } catch { /* the page forgets the session either way */ }
  state.me = null;
  location.hash = "#/login";
  route();
});
window.addEventListener("hashchange", route);
route();
