// Account screens: log in, register, account (alias change once, with the rules shown; four-colour deck),
// and the cashier (balances and movements).

import { el, mount, formatMoney, localTime } from "./util.js";
import { api } from "./api.js";
import { isFourColour, setFourColour } from "./cards.js";
import { settings } from "./settings.js";
import { gameName } from "./games.js";
import { plainError } from "./errors.js";
import { renderTournamentHistory } from "./history_view.js";

/** R-ALIAS-5: 4 to 16 letters a-z / A-Z and digits. */
export const ALIAS_RE = /^[A-Za-z0-9]{4,16}$/;
/** What POST /api/register accepts (server/schemas.py Username). */
export const USERNAME_RE = /^[A-Za-z0-9_.-]{3,32}$/;

function form(title, fields, submitLabel, onSubmit, footer) {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "form-error" });
  const button = el("button", { class: "btn btn-primary", type: "submit" }, submitLabel);
  const node = el("form", { class: "card-form", novalidate: true },
    el("h2", {}, title), fields, error, button, footer || null);
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try { await onSubmit(new FormData(node)); } catch (err) { error.textContent = plainError(err); } finally { button.disabled = false; }
  });
  return node;
}

const field = (label, name, type = "text", extra = {}) =>
  el("label", { class: "field" }, label, el("input", { name, type, required: true, ...extra }));

export function renderLogin(root, ctx) {
  mount(root, el("div", { class: "page" }, form("Log in", [
    field("Username", "username", "text", { autocomplete: "username", "data-testid": "login-username" }),
    field("Password", "password", "password", { autocomplete: "current-password", "data-testid": "login-password" }),
  ], "Log in", async (data) => {
    await ctx.session.login(String(data.get("username")), String(data.get("password")));
  }, el("p", {}, "New here? ", el("a", { href: "#/register", "data-testid": "register-link" }, "Create an account")))));
  return null;
}

export function renderRegister(root, ctx) {
  mount(root, el("div", { class: "page" }, form("Create an account", [
    field("Username", "username", "text", { autocomplete: "username", "data-testid": "register-username" }),
    field("Password", "password", "password", { autocomplete: "new-password", "data-testid": "register-password" }),
    field("Repeat password", "password2", "password", { autocomplete: "new-password", "data-testid": "register-password2" }),
  ], "Register", async (data) => {
    const username = String(data.get("username")).trim();
    const password = String(data.get("password"));
    if (!username) throw new Error("Choose a username.");
    if (!USERNAME_RE.test(username)) throw new Error("A username is 3 to 32 letters, digits, '_', '.' or '-' (no spaces).");
    if (password.length < 8) throw new Error("A password has at least 8 characters.");
    if (password !== String(data.get("password2"))) throw new Error("The two passwords differ.");
    await ctx.session.register(username, password);
    ctx.toast("Welcome to Riverboat!", "ok");
  }, el("p", {}, "Already registered? ", el("a", { href: "#/login" }, "Log in")))));
  return null;
}

export async function renderAccount(root, ctx) {
  const me = await ctx.session.refresh();
  if (!me) { ctx.navigate("#/login"); return null; }
  const canChange = me.alias_changeable ?? me.can_change_alias ?? me.alias_change_allowed ?? true;
  const aliasInput = el("input", { name: "alias", type: "text", maxlength: 16, "data-testid": "alias-input", disabled: !canChange });
  const message = el("p", { class: "form-error", role: "alert", "data-testid": "alias-error" });
  const ok = el("p", { class: "form-ok", "data-testid": "alias-ok" });
  aliasInput.addEventListener("input", () => {
    const valid = ALIAS_RE.test(aliasInput.value);
    aliasInput.classList.toggle("invalid", aliasInput.value !== "" && !valid);
    message.textContent = aliasInput.value && !valid ? "4 to 16 letters (a-z, A-Z) and digits only." : "";
  });
  const aliasForm = el("form", { class: "card-form", "data-testid": "alias-form" },
    el("h2", {}, "Alias"),
    el("p", {}, "Your alias at the tables: ", el("strong", { "data-testid": "current-alias" }, me.alias ?? "(none yet)")),
    el("ul", { class: "rules", "data-testid": "alias-rules" },
      el("li", {}, "You may change your alias once. After that it cannot be changed again."),
      el("li", {}, "4 to 16 characters: letters a-z, A-Z and digits 0-9."),
      el("li", {}, "One alias per player; offensive aliases are refused by the operator.")),
    canChange ? null : el("p", { class: "muted", "data-testid": "alias-locked" }, "You have already used your one alias change."),
    el("label", { class: "field" }, "New alias", aliasInput), message, ok,
    el("button", { class: "btn btn-primary", type: "submit", disabled: !canChange, "data-testid": "alias-submit" }, "Change alias once"));
  aliasForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    message.textContent = ""; ok.textContent = "";
    const alias = aliasInput.value.trim();
    if (!ALIAS_RE.test(alias)) { message.textContent = "4 to 16 letters (a-z, A-Z) and digits only."; return; }
    if (!confirm(`Change your alias to "${alias}"? You cannot change it again.`)) return;
    try {
      await api.changeAlias(alias);
      await ctx.session.refresh();
      ctx.toast(`Your alias is now ${alias}.`, "ok");
      await renderAccount(root, ctx);
    } catch (err) {
      message.textContent = plainError(err);
    }
  });
  const four = el("input", { type: "checkbox", "data-testid": "four-colour", checked: isFourColour(),
    onchange: (ev) => setFourColour(ev.target.checked) });
  const check = (name, label) => el("label", { class: "field-inline" }, el("input", { type: "checkbox", "data-setting": name,
    checked: Boolean(settings.get(name)), onchange: (ev) => settings.set(name, ev.target.checked) }), ` ${label}`);
  const seconds = el("select", { "data-setting": "resultsSeconds", onchange: (ev) => settings.set("resultsSeconds", Number(ev.target.value)) },
    [2, 3, 5, 8, 12].map((n) => el("option", { value: n, selected: Number(settings.get("resultsSeconds")) === n }, `${n} seconds`)));
  const stats = el("div", { class: "box wide", "data-testid": "stats" }, el("h2", {}, "Your statistics"), el("p", { class: "muted" }, "Loading…"));
  const tournaments = el("div", { class: "box wide", "data-testid": "account-tournaments" }, el("h2", {}, "Tournament history"), el("p", { class: "muted" }, "Loading…"));
  mount(root, el("div", { class: "page" },
    el("div", { class: "box" }, el("h2", {}, "Account"),
      el("p", {}, "Username: ", el("strong", {}, me.username ?? "")),
      el("p", {}, "Player id: ", String(me.player_id ?? me.id ?? ""))),
    aliasForm,
    el("div", { class: "box" }, el("h2", {}, "Table settings"),
      el("label", { class: "field-inline" }, four, " Four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green)"),
      check("sounds", "Sounds (your turn, time running out)"),
      check("alerts", "Alerts when it is your turn at another table (tab title, table switcher)"),
      check("animations", "Card and chip animations"),
      el("label", { class: "field-inline" }, "Show the result of a hand for ", seconds)),
    tournaments, stats));
  renderTournamentHistory(tournaments);
  renderStats(stats, ctx);
  return null;
}

/** Session statistics and a profit graph per game (GET /api/stats). */
async function renderStats(box, ctx) {
  let data;
  try { data = await api.stats(); } catch (err) {
    mount(box, el("h2", {}, "Your statistics"), el("p", { class: "form-error" }, plainError(err)));
    return;
  }
  const money = (v, c) => formatMoney(v, c);
  const s = data.session || {};
  const session = s.hands ? el("table", { class: "list", "data-testid": "session-stats" },
    el("tbody", {},
      el("tr", {}, el("th", {}, "Hands this session"), el("td", { class: "num", "data-testid": "session-hands" }, String(s.hands))),
      el("tr", {}, el("th", {}, "Won / lost"), el("td", { class: "num", "data-testid": "session-net" },
        Object.entries(s.net || {}).map(([cur, v]) => money(v, cur)).join(" · ") || "0")),
      el("tr", {}, el("th", {}, "Hands per hour"), el("td", { class: "num", "data-testid": "session-hph" }, String(s.hands_per_hour ?? ""))),
      el("tr", {}, el("th", {}, "Since"), el("td", { class: "num" }, String(s.since || "").replace("T", " ").slice(0, 16)))))
    : el("p", { class: "muted" }, "No hands played in this session yet.");
  const games = (data.games || []).map((g) => el("div", { class: "profit-game", "data-game": g.game },
    el("h3", {}, `${gameName(g.game)} · ${g.hands} hands · ${money(g.net, g.currency)}`),
    profitGraph(g.series || [], g.currency)));
  mount(box, el("h2", {}, "Your statistics"), session,
    el("h2", {}, "Profit by game"), games.length ? el("div", { class: "profit-graphs", "data-testid": "profit-graphs" }, games)
      : el("p", { class: "muted" }, "Play a few hands to see your results per game."));
}

/** An SVG line of the running total after each hand (integer chips; the axis at zero). */
export function profitGraph(series, currency) {
  const W = 320; const H = 90; const pad = 4;
  const values = [0, ...series.map((p) => p[1])];
  const lo = Math.min(0, ...values); const hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x = (i) => pad + ((W - 2 * pad) * i) / Math.max(1, values.length - 1);
  const y = (v) => H - pad - ((H - 2 * pad) * (v - lo)) / span;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "profit-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Profit after each hand, ending at ${formatMoney(values[values.length - 1], currency)}`);
  const axis = document.createElementNS(ns, "line");
  Object.entries({ x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "profit-axis" }).forEach(([k, v]) => axis.setAttribute(k, v));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("class", values[values.length - 1] >= 0 ? "profit-line profit-up" : "profit-line profit-down");
  line.dataset.points = String(values.length);
  svg.append(axis, line);
  return svg;
}

const CASHIER_PAGE = 25;

/** A table's name from its id (the lobby knows open tables; a closed table's id still carries its name). */
function tableName(id, names) {
  if (!id) return "";
  if (names[id]) return names[id];
  const m = /^[ts]\d+-([a-z0-9]+)-[0-9a-f]+$/.exec(String(id));
  return m ? m[1].charAt(0).toUpperCase() + m[1].slice(1) : String(id);
}

/** A ledger movement's kind in words (the store's kinds: store/ledger.py, store/tournaments.py, store/twister.py);
 * an unknown kind still reads as words, never as a code like "t_prize". */
const MOVEMENT_KINDS = {
  deposit: "Deposit", withdraw: "Withdrawal", buy_in: "Buy-in", top_up: "Top-up", cash_out: "Cash-out",
  t_register: "Tournament buy-in", t_unregister: "Tournament unregistered: refund", t_refund: "Tournament refund",
  t_cancel: "Tournament cancelled: refund", t_rebuy: "Re-buy", t_addon: "Add-on", t_prize: "Tournament prize",
  t_bounty: "Bounty", t_pay: "Tournament payment", t_int_cash: "Interrupted tournament: compensation",
  t_int_refund: "Interrupted tournament: refund", ticket_issue: "Tournament ticket", jackpot_out: "Jackpot prize",
  settle_hand: "Hand",
};

export function movementKind(kind) {
  const k = String(kind || "");
  if (MOVEMENT_KINDS[k]) return MOVEMENT_KINDS[k];
  const words = k.replace(/^t_/, "tournament ").replace(/_/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "";
}

function movementRow(m, names = {}) {
  const currency = m.currency || "EUR";
  const amount = m.amount ?? m.delta ?? 0;
  const at = m.time || m.created_at || m.at || "";
  return el("tr", { "data-txn": m.txn ?? "" },
    el("td", { title: at }, localTime(at)),
    el("td", { "data-testid": "movement-kind" }, m.kind || m.type ? movementKind(m.kind || m.type) : String(m.description || "")),
    el("td", { "data-testid": "movement-table" }, m.table_name || tableName(m.table || m.table_id, names) || m.reference || ""),
    el("td", { class: "num" }, formatMoney(amount, currency)));
}

export async function renderCashier(root, ctx) {
  const [data, lobby] = await Promise.all([api.cashier(CASHIER_PAGE), api.lobby().catch(() => ({}))]);
  await ctx.session.refresh();
  const names = Object.fromEntries([...(lobby.tables || []), ...(lobby.pools || [])].map((t) => [t.id, t.name]));
  const balances = data.balances || {};
  const history = data.history || data.movements || [];
  const body = el("tbody", {}, history.map((m) => movementRow(m, names)));
  // Older movements page by page (GET /api/cashier?before=<txn>), newest first.
  const more = el("div", { class: "more-row" });
  const showMore = (next) => {
    if (next === null || next === undefined) { more.replaceChildren(); return; }
    const button = el("button", { class: "btn btn-small", "data-testid": "older-movements", onclick: async () => {
      button.disabled = true;
      try {
        const page = await api.cashier(CASHIER_PAGE, next);
        body.append(...(page.history || []).map((m) => movementRow(m, names)));
        showMore(page.next_before);
      } catch (err) {
        button.disabled = false;
        ctx.toast(`Older movements cannot be loaded: ${err.message}`);
      }
    } }, "Show older movements");
    more.replaceChildren(button);
  };
  showMore(data.next_before);
  mount(root, el("div", { class: "page", "data-testid": "cashier" },
    el("div", { class: "box wide" }, el("h2", {}, "Cashier"),
      el("table", { class: "list", "data-testid": "balances" },
        el("thead", {}, el("tr", {}, el("th", {}, "Account"), el("th", { class: "num" }, "Balance"))),
        el("tbody", {}, Object.entries(balances).map(([currency, amount]) => el("tr", { "data-currency": currency },
          el("td", {}, currency === "PLAY" ? "Play money" : currency),
          el("td", { class: "num", "data-testid": `balance-${currency}` }, formatMoney(amount, currency))))))),
    el("div", { class: "box wide" }, el("h2", {}, "Movements"),
      history.length ? el("table", { class: "list", "data-testid": "movements" },
        el("thead", {}, el("tr", {}, el("th", {}, "Time"), el("th", {}, "What"), el("th", {}, "Table"), el("th", { class: "num" }, "Amount"))),
        body) : el("p", { class: "muted" }, "No movements yet."),
      more)));
  return null;
}
