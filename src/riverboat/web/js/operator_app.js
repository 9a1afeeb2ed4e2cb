// The operator console (operator.html, issue #13): flags with their evidence, a hand viewer (every hole card for
// security staff only: the server decides, R-INTEG-8), player search, balances and movements, and the actions
// (warn, suspend, ban, reinstate, disqualify, force alias change, void a flag), each written to the audit log,
// which is shown here and cannot be edited (R-OPER-4).

import { OpError, opApi } from "./operator_api.js";
import { moneyView } from "./operator_money.js";
import { languageSelect, setLocale, translateStatic } from "./i18n.js";

const STAFF = ["operator", "security", "admin"];
const ACTIONS = [
  ["warn", "Warn"], ["suspend", "Suspend"], ["ban", "Ban"], ["reinstate", "Reinstate"],
  ["force_alias", "Force alias change"], ["disqualify", "Disqualify from tournament (forfeit)"],
];
const app = document.getElementById("op-app");
// issue #32: the console's shell (title, navigation, language selector) comes from the catalog; the views below
// are still written in English (staff-facing; see docs/i18n.md "What is not translated yet").
translateStatic();
document.getElementById("lang-box").append(languageSelect((locale) => setLocale(locale)));
const state = { me: null, flag: null };

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
  return h("table", { class: "op-table" }, h("thead", {}, h("tr", {}, headers.map((t) => h("th", {}, t)))),
    h("tbody", {}, rows));
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "");
const nameOf = (names, pid) => (names && names[pid] ? `${names[pid].username} (${names[pid].alias || "no alias"})` : `#${pid}`);
const chips = (n) => Number(n || 0).toLocaleString("en-US");

function show(...nodes) { app.replaceChildren(...nodes); }

function errorBox(err) {
  return h("p", { class: "op-error", testid: "op-error" }, err instanceof OpError ? err.message : String(err));
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
    } catch (err) {
      if (err instanceof OpError && err.code === "enrolment_required") enrolView(form.username.value, form.password.value);
      else error.textContent = err.message;
    }
  } },
  h("input", { name: "username", placeholder: "username", autocomplete: "username", testid: "op-login-username" }),
  h("input", { name: "password", type: "password", placeholder: "password", autocomplete: "current-password",
    testid: "op-login-password" }),
  h("input", { name: "code", placeholder: "6-digit code or recovery code", autocomplete: "one-time-code",
    inputmode: "text", testid: "op-login-code" }),
  h("button", { class: "btn btn-primary", type: "submit", testid: "op-login-submit" }, "Log in"));
  show(h("section", { class: "op-panel", testid: "op-login" }, h("h2", {}, "Operator log in"), form, error));
}

// Issue #35: a staff account without a second factor enrols here (scan the QR code, confirm with a code) and is
// shown its one-time recovery codes once.
async function enrolView(username, password) {
  const error = h("p", { class: "op-error", testid: "enrol-error" });
  let pending;
  try { pending = await opApi.enrol(username, password); } catch (err) { loginView(err.message); return; }
  const form = h("form", { class: "op-form", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      const done = await opApi.confirmEnrol(username, password, form.code.value.trim());
      show(h("section", { class: "op-panel", testid: "enrol-done" }, h("h2", {}, "Second factor enrolled"),
        h("p", {}, "Recovery codes: each logs in once without the app. Keep them offline; they are not shown again."),
        h("ul", { class: "op-codes", testid: "recovery-codes" }, done.recovery_codes.map((c) => h("li", {}, c))),
        h("button", { class: "btn btn-primary", testid: "enrol-continue", onclick: () => loginView() }, "Continue to log in")));
    } catch (err) { error.textContent = err.message; }
  } },
  h("input", { name: "code", placeholder: "6-digit code from the app", autocomplete: "one-time-code", testid: "enrol-code" }),
  h("button", { class: "btn btn-primary", type: "submit", testid: "enrol-submit" }, "Confirm"));
  show(h("section", { class: "op-panel", testid: "enrol" }, h("h2", {}, "Enrol the second factor"),
    h("p", {}, "Scan this QR code with an authenticator app (or type the key), then enter the code it shows."),
    h("img", { src: pending.qr, alt: "QR code of the authenticator key", class: "op-qr", testid: "enrol-qr" }),
    h("p", {}, "Key: ", h("code", { testid: "enrol-secret" }, pending.secret)), form, error));
}

function renderUser() {
  const user = document.getElementById("op-user");
  const link = document.getElementById("op-logout");
  user.textContent = state.me ? `${state.me.username} · ${state.me.role}` : "";
  link.textContent = state.me ? "Log out" : "Log in";
}

// ------------------------------------------------------------------------------------------------- flags
async function flagsView(status = "open") {
  const select = h("select", { testid: "flag-status", onchange: () => flagsView(select.value) },
    ["open", "actioned", "void", "all"].map((s) => h("option", { value: s, selected: s === status }, s)));
  const { flags } = await opApi.flags(status);
  const rows = flags.map((f) => h("tr", { class: "clickable", testid: "flag-row", "data-flag-id": f.id,
    onclick: () => { location.hash = `#/flag/${f.id}`; } },
  h("td", { class: "op-score" }, f.score.toFixed(4)), h("td", {}, f.pattern),
  h("td", {}, f.players.map((p) => nameOf(f.names, p)).join(" → ")), h("td", {}, f.hands), h("td", {}, f.status),
  h("td", {}, when(f.updated_at))));
  show(h("section", { class: "op-panel", testid: "flags" }, h("h2", {}, "Integrity flags"),
    h("p", { class: "op-form" }, "Status ", select),
    flags.length ? table(["score", "pattern", "players", "hands", "status", "updated"], rows)
      : h("p", { class: "muted", testid: "no-flags" }, "No flags.")));
}

async function flagView(id) {
  const f = await opApi.flag(id);
  state.flag = f;
  const players = f.players.map((p) => h("a", { href: `#/player/${p}`, testid: "flag-player", "data-player-id": p },
    nameOf(f.names, p)));
  const detail = Object.entries(f.detail || {}).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {}, String(v))));
  const hands = f.hands.map((hd) => h("tr", { class: "clickable", testid: "evidence-hand", "data-ref": hd.ref,
    onclick: () => { location.hash = `#/hand/${encodeURIComponent(hd.table_id)}/${encodeURIComponent(hd.hand_id)}`; } },
  h("td", {}, hd.ref), h("td", {}, hd.status), h("td", {}, when(hd.ended_at || hd.started_at))));
  const result = h("p", { class: "op-ok", testid: "void-result" });
  const voidForm = h("form", { class: "op-form", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await opApi.voidFlag(f.id, voidForm.reason.value);
      result.textContent = "Flag voided (recorded in the audit log).";
    } catch (err) { result.textContent = err.message; }
  } }, h("input", { name: "reason", placeholder: "why the flag is void", testid: "void-reason" }),
  h("button", { class: "btn", type: "submit", testid: "void-submit", disabled: f.status !== "open" }, "Void flag"));
  show(h("section", { class: "op-panel", testid: "flag-detail" },
    h("h2", {}, `Flag #${f.id}: ${f.pattern}`),
    h("p", {}, "Score ", h("span", { class: "op-score", testid: "flag-score" }, f.score.toFixed(6)),
      ` · ${f.hands} hands together · status ${f.status} · p = ${Number(f.p_value).toExponential(2)}`),
    h("p", {}, "Players: ", players.flatMap((a, i) => (i ? [" → ", a] : [a]))),
    table(["statistic", "value"], detail)),
  h("section", { class: "op-panel" }, h("h3", {}, "Evidence hands"),
    hands.length ? table(["hand", "status", "ended"], hands) : h("p", { class: "muted" }, "No stored hands.")),
  h("section", { class: "op-panel" }, h("h3", {}, "Void"), voidForm, result));
}

// ------------------------------------------------------------------------------------------------- hands
const cardsOf = (text) => (text.match(/../g) || []).map((c) => (c === "??" ? "🂠" : c)).join(" ");

/** The hand as a hand (issue #31 item 10): its PHH actions read into streets with the players' names -- forced
 * bets, cards dealt, every check, call ("calls N"), bet, raise ("raises to N"), fold, draw and show. */
export function handStreets(hd, name) {
  const n = (hd.players || []).length;
  const family = /F7S|FR|stud|razz|soko|americana/.test(hd.variant || "") ? "stud"
    : /2L3D|1D|FB|draw/.test(hd.variant || "") ? "draw" : "flop";
  const who = (p) => name(hd.players[Number(p.slice(1)) - 1]);
  const bets = new Array(n).fill(0);
  let top = 0;
  const streets = [];
  let cur = { title: family === "stud" ? "3rd street" : family === "draw" ? "Deal" : "Pre-flop", lines: [] };
  let acted = false;
  let board = 0;
  let draws = 0;
  const next = (title) => { streets.push(cur); cur = { title, lines: [] }; bets.fill(0); top = 0; acted = false; };
  (hd.antes || []).forEach((a, i) => { if (a) cur.lines.push(`${name(hd.players[i])} posts the ante ${chips(a)}`); });
  (hd.blinds || []).forEach((b, i) => {
    if (!b) return;
    bets[i] = b;
    top = Math.max(top, b);
    cur.lines.push(`${name(hd.players[i])} posts ${chips(b)}`);
  });
  for (const action of hd.actions || []) {
    const [a, b, c, d] = action.split(" ");
    if (a === "d" && b === "db") {
      board += (c.length / 2);
      next(`${board <= 3 ? "Flop" : board === 4 ? "Turn" : "River"}: ${cardsOf(c)}`);
      continue;
    }
    if (a === "d" && b === "dh") {
      if (family === "stud" && acted) next(`${streets.length + 4}th street`.replace("7th", "7th (river)"));
      cur.lines.push(`Dealt to ${who(c)}: ${cardsOf(d || "")}`);
      continue;
    }
    const i = Number(a.slice(1)) - 1;
    if (b === "sd") {
      if (family === "draw" && acted) { draws += 1; next(`Draw ${draws}`); }
      cur.lines.push(c ? `${who(a)} discards ${c.length / 2}: ${cardsOf(c)}` : `${who(a)} stands pat`);
      continue;
    }
    acted = true;
    if (b === "f") cur.lines.push(`${who(a)} folds`);
    else if (b === "cc") {
      if (top > bets[i]) { cur.lines.push(`${who(a)} calls ${chips(top - bets[i])}`); bets[i] = top; }
      else cur.lines.push(`${who(a)} checks`);
    } else if (b === "cbr") {
      const to = Number(c);
      cur.lines.push(top ? `${who(a)} raises to ${chips(to)}` : `${who(a)} bets ${chips(to)}`);
      bets[i] = to;
      top = to;
    } else if (b === "pb") cur.lines.push(`${who(a)} brings in`);
    else if (b === "sm") cur.lines.push(`${who(a)} shows ${cardsOf(c || "")}`);
    else cur.lines.push(`${who(a)} ${[b, c].filter(Boolean).join(" ")}`);
  }
  streets.push(cur);
  return streets.filter((s) => s.lines.length);
}

async function handView(tableId, handId) {
  const hd = await opApi.hand(tableId, handId);
  const rows = hd.players.map((p, i) => h("tr", { testid: "hand-player" }, h("td", {}, hd.seats[i] ?? ""),
    h("td", {}, h("a", { href: `#/player/${p}` }, nameOf(hd.names, p))),
    h("td", {}, chips(hd.starting_stacks[i])), h("td", {}, chips(hd.finishing_stacks[i])),
    h("td", { class: "op-cards", testid: "hole-cards" }, hd.hole_cards_shown ? hd.hole_cards[p] || "" : "hidden")));
  const back = state.flag ? h("a", { href: `#/flag/${state.flag.id}`, testid: "back-to-flag" }, "← back to the flag") : null;
  show(h("section", { class: "op-panel", testid: "hand-view" },
    back, h("h2", {}, `Hand ${hd.table_id}/${hd.hand_id}`),
    h("p", { class: "muted", testid: "hole-card-note" }, hd.hole_cards_shown
      ? "Every hole card is shown: security staff only (R-INTEG-8). This view is in the audit log."
      : "Hole cards are shown to security staff only."),
    table(["seat", "player", "start", "end", "hole cards"], rows)),
  h("section", { class: "op-panel", testid: "hand-streets" }, h("h3", {}, `The hand (${hd.variant || ""})`),
    handStreets(hd, (p) => nameOf(hd.names, p)).map((st) => h("div", { class: "op-street", testid: "hand-street" },
      h("h4", {}, st.title), h("ol", {}, st.lines.map((line) => h("li", {}, line)))))),
  h("details", { class: "op-panel" }, h("summary", {}, "PHH actions"),
    h("pre", { class: "op-actions", testid: "hand-actions" }, hd.actions.join("\n"))));
}

// ------------------------------------------------------------------------------------------------- players
async function playersView(query = "") {
  const results = h("div", { testid: "player-results" });
  const form = h("form", { class: "op-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const { players } = await opApi.players(form.q.value);
    results.replaceChildren(players.length ? table(["id", "username", "alias", "role", "status"], players.map((p) =>
      h("tr", { class: "clickable", testid: "player-row", onclick: () => { location.hash = `#/player/${p.player_id}`; } },
        h("td", {}, p.player_id), h("td", {}, p.username), h("td", {}, p.alias || ""), h("td", {}, p.role),
        h("td", { class: `op-status-${p.status}` }, p.status)))) : h("p", { class: "muted" }, "Nobody found."));
  } }, h("input", { name: "q", value: query, placeholder: "username or alias", testid: "player-search" }),
  h("button", { class: "btn", type: "submit", testid: "player-search-submit" }, "Search"));
  show(h("section", { class: "op-panel", testid: "players" }, h("h2", {}, "Players"), form, results));
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
      onDone(`Done: ${entry.action} (audit entry #${entry.id}).`);
    } catch (err) {
      result.className = "op-error";
      result.textContent = err.message;
    }
  } },
  h("select", { name: "action", testid: "action-select" }, ACTIONS.map(([v, t]) => h("option", { value: v }, t))),
  h("input", { name: "reason", placeholder: "reason (goes into the audit log)", testid: "action-reason" }),
  h("input", { name: "tournament_id", placeholder: "tournament id (disqualify)", testid: "action-tournament" }),
  h("input", { name: "flag_id", placeholder: "flag #", value: flagIds, size: 5, testid: "action-flag" }),
  h("button", { class: "btn btn-primary", type: "submit", testid: "action-submit" }, "Apply"));
  return h("div", {}, form, result);
}

function auditTable(entries) {
  return table(["when", "operator", "action", "player", "target", "reason"], entries.map((e) =>
    h("tr", { testid: "audit-row", "data-action": e.action }, h("td", {}, when(e.at)), h("td", {}, e.operator),
      h("td", {}, e.action), h("td", {}, e.player_id ?? ""), h("td", {}, e.target || ""), h("td", {}, e.reason))));
}

async function playerView(pid, message = "") {
  const d = await opApi.player(pid);
  const p = d.player;
  const balances = Object.entries(d.balances).map(([c, v]) => h("tr", {}, h("td", {}, c),
    h("td", { testid: `balance-${c}` }, chips(v))));
  const moves = d.movements.map((m) => h("tr", {}, h("td", {}, when(m.at)), h("td", {}, m.kind),
    h("td", {}, m.currency), h("td", {}, chips(m.amount)), h("td", {}, m.table || "")));
  const hands = d.hands.map((hd) => h("tr", { class: "clickable", onclick: () => {
    location.hash = `#/hand/${encodeURIComponent(hd.table_id)}/${encodeURIComponent(hd.hand_id)}`; } },
  h("td", {}, `${hd.table_id}/${hd.hand_id}`), h("td", {}, hd.currency || "chips"), h("td", {}, when(hd.ended_at))));
  const flags = d.flags.map((f) => h("tr", { class: "clickable", onclick: () => { location.hash = `#/flag/${f.id}`; } },
    h("td", {}, `#${f.id}`), h("td", {}, f.pattern), h("td", { class: "op-score" }, f.score.toFixed(4)), h("td", {}, f.status)));
  show(h("section", { class: "op-panel", testid: "player-detail" },
    h("h2", {}, `${p.username} (${p.alias || "no alias"}) · #${p.player_id} · ${p.role}`),
    h("p", {}, h("a", { href: `#/money/player/${p.player_id}`, testid: "player-money-link" }, "Money, verification and protections →")),
    h("p", {}, "Standing: ", h("span", { class: `op-status-${d.standing.status}`, testid: "player-status" },
      d.standing.status), ` · warnings ${d.standing.warnings}`),
    actionForm(p.player_id, (done) => playerView(pid, done), message)),
  h("div", { class: "op-grid" },
    h("section", { class: "op-panel" }, h("h3", {}, "Balances"), table(["currency", "balance"], balances)),
    h("section", { class: "op-panel" }, h("h3", {}, "Flags"), flags.length ? table(["flag", "pattern", "score", "status"], flags)
      : h("p", { class: "muted" }, "None."))),
  h("section", { class: "op-panel", testid: "player-movements" }, h("h3", {}, "Movements"),
    table(["when", "kind", "currency", "amount", "table"], moves)),
  h("section", { class: "op-panel" }, h("h3", {}, "Recent hands"), table(["hand", "money", "ended"], hands)),
  await securityPanel(p.player_id),
  h("section", { class: "op-panel", testid: "player-audit" }, h("h3", {}, "Audit log"), auditTable(d.audit)));
}

// Issue #35: the account-security powers (a reset code, releasing a lock-out, resetting a staff second factor).
async function securityPanel(pid) {
  const st = await opApi.security(pid);
  const result = h("p", { class: "op-ok", testid: "security-result" });
  const reason = h("input", { name: "reason", placeholder: "reason (goes into the audit log)", testid: "security-reason" });
  const act = (what) => async (ev) => {
    ev.preventDefault();
    try {
      const out = await opApi.securityAct(pid, what, reason.value);
      result.className = "op-ok";
      result.textContent = what === "reset_code"
        ? `One-time reset code: ${out.code} (valid until ${when(out.expires_at)}; give it to the player only)`
        : what === "unlock" ? "Lock-out released." : "Second factor reset: the account enrols again at its next log in.";
    } catch (err) { result.className = "op-error"; result.textContent = err.message; }
  };
  return h("section", { class: "op-panel", testid: "player-security" }, h("h3", {}, "Account security"),
    h("p", { testid: "security-status" }, st.locked_until ? `Locked until ${when(st.locked_until)}` : "Not locked",
      ` · second factor: ${st.second_factor ? "yes" : "no"}`),
    h("div", { class: "op-form" }, reason,
      h("button", { class: "btn", testid: "security-reset-code", onclick: act("reset_code") }, "Issue reset code"),
      h("button", { class: "btn", testid: "security-unlock", onclick: act("unlock") }, "Release lock-out"),
      state.me && state.me.role === "admin"
        ? h("button", { class: "btn", testid: "security-reset-2fa", onclick: act("reset_2fa") }, "Reset second factor") : null),
    result);
}

async function auditView() {
  const { audit } = await opApi.audit();
  show(h("section", { class: "op-panel", testid: "audit" }, h("h2", {}, "Audit log (append-only)"), auditTable(audit)));
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
      if (!STAFF.includes(state.me.role)) throw new OpError(403, "forbidden", "This account is not operator or security staff.");
    }
    if (parts[0] === "flag" && parts[1]) await flagView(parts[1]);
    else if (parts[0] === "hand" && parts[2]) await handView(parts[1], parts[2]);
    else if (parts[0] === "players") await playersView();
    else if (parts[0] === "player" && parts[1]) await playerView(parts[1]);
    else if (parts[0] === "audit") await auditView();
    else if (parts[0] === "money") await moneyView(parts, { h, table, show, when, app: () => app });  // issue #30
    else await flagsView();
  } catch (err) {
    if (err instanceof OpError && (err.status === 401 || err.status === 403)) {
      state.me = null;
      renderUser();
      loginView(err.message);
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
