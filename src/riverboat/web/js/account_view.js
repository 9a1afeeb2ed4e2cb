// Account screens: log in, register, account (alias change once, with the rules shown; four-colour deck),
// and the words of the cashier's movement kinds (the cashier itself: cashier_view.js).

import { el, mount, formatMoney, localTime } from "./util.js";
import { api } from "./api.js";
import { isFourColour, setFourColour } from "./cards.js";
import { settings } from "./settings.js";
import { gameName } from "./games.js";
import { plainError } from "./errors.js";
import { renderTournamentHistory } from "./history_view.js";
import { formatNumber, t } from "./i18n.js";
import { securityBox } from "./account_security.js";

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
  mount(root, el("div", { class: "page" }, form(t("topbar.login"), [
    field(t("account.username"), "username", "text", { autocomplete: "username", "data-testid": "login-username" }),
    field(t("account.password"), "password", "password", { autocomplete: "current-password", "data-testid": "login-password" }),
  ], t("topbar.login"), async (data) => {
    await ctx.session.login(String(data.get("username")), String(data.get("password")));
  }, el("p", {}, `${t("account.new_here")} `, el("a", { href: "#/register", "data-testid": "register-link" }, t("account.create")),
    " · ", el("a", { href: "#/reset", "data-testid": "reset-link" }, t("security.reset_link"))))));
  return null;
}

export function renderRegister(root, ctx) {
  mount(root, el("div", { class: "page" }, form(t("account.create"), [
    field(t("account.username"), "username", "text", { autocomplete: "username", "data-testid": "register-username" }),
    field(t("account.password"), "password", "password", { autocomplete: "new-password", "data-testid": "register-password" }),
    field(t("account.repeat_password"), "password2", "password", { autocomplete: "new-password", "data-testid": "register-password2" }),
  ], t("account.register"), async (data) => {
    const username = String(data.get("username")).trim();
    const password = String(data.get("password"));
    if (!username) throw new Error(t("account.choose_username"));
    if (!USERNAME_RE.test(username)) throw new Error(t("account.username_rule"));
    if (password.length < 8) throw new Error(t("account.password_rule"));
    if (password !== String(data.get("password2"))) throw new Error(t("account.passwords_differ"));
    await ctx.session.register(username, password);
    ctx.toast(t("account.welcome"), "ok");
  }, el("p", {}, `${t("account.already")} `, el("a", { href: "#/login" }, t("topbar.login"))))));
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
    message.textContent = aliasInput.value && !valid ? t("alias.invalid") : "";
  });
  const aliasForm = el("form", { class: "card-form", "data-testid": "alias-form" },
    el("h2", {}, t("alias.title")),
    el("p", {}, `${t("alias.current")} `, el("strong", { "data-testid": "current-alias", translate: me.alias ? "no" : null }, me.alias ?? t("alias.none"))),
    el("ul", { class: "rules", "data-testid": "alias-rules" },
      el("li", {}, t("alias.rule_once")),
      el("li", {}, t("alias.rule_chars")),
      el("li", {}, t("alias.rule_one"))),
    canChange ? null : el("p", { class: "muted", "data-testid": "alias-locked" }, t("alias.locked")),
    el("label", { class: "field" }, t("alias.new"), aliasInput), message, ok,
    el("button", { class: "btn btn-primary", type: "submit", disabled: !canChange, "data-testid": "alias-submit" }, t("alias.submit")));
  aliasForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    message.textContent = ""; ok.textContent = "";
    const alias = aliasInput.value.trim();
    if (!ALIAS_RE.test(alias)) { message.textContent = t("alias.invalid"); return; }
    if (!confirm(t("alias.confirm", { alias }))) return;
    try {
      await api.changeAlias(alias);
      await ctx.session.refresh();
      ctx.toast(t("alias.done", { alias }), "ok");
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
    [2, 3, 5, 8, 12].map((n) => el("option", { value: n, selected: Number(settings.get("resultsSeconds")) === n }, t("settings.n_seconds", { count: n }))));
  const stats = el("div", { class: "box wide", "data-testid": "stats" }, el("h2", {}, t("stats.title")), el("p", { class: "muted" }, t("common.loading")));
  const tournaments = el("div", { class: "box wide", "data-testid": "account-tournaments" }, el("h2", {}, t("history.tournaments")), el("p", { class: "muted" }, t("common.loading")));
  mount(root, el("div", { class: "page" },
    el("div", { class: "box" }, el("h2", {}, t("nav.account")),
      el("p", {}, `${t("account.username")}: `, el("strong", { translate: "no" }, me.username ?? "")),
      el("p", {}, `${t("account.player_id")}: `, String(me.player_id ?? me.id ?? ""))),
    aliasForm,
    securityBox(),
    el("div", { class: "box" }, el("h2", {}, t("settings.title")),
      el("label", { class: "field-inline" }, four, ` ${t("settings.four_colour")}`),
      check("sounds", t("settings.sounds")),
      check("alerts", t("settings.alerts")),
      check("animations", t("settings.animations")),
      el("label", { class: "field-inline" }, `${t("settings.results_for")} `, seconds)),
    tournaments, stats));
  renderTournamentHistory(tournaments);
  renderStats(stats, ctx);
  return null;
}

/** Session statistics and a profit graph per game (GET /api/stats). */
async function renderStats(box, ctx) {
  let data;
  try { data = await api.stats(); } catch (err) {
    mount(box, el("h2", {}, t("stats.title")), el("p", { class: "form-error" }, plainError(err)));
    return;
  }
  const money = (v, c) => formatMoney(v, c);
  const s = data.session || {};
  const session = s.hands ? el("table", { class: "list", "data-testid": "session-stats" },
    el("tbody", {},
      el("tr", {}, el("th", {}, t("stats.hands_session")), el("td", { class: "num", "data-testid": "session-hands" }, formatNumber(s.hands))),
      el("tr", {}, el("th", {}, t("stats.won_lost")), el("td", { class: "num", "data-testid": "session-net" },
        Object.entries(s.net || {}).map(([cur, v]) => money(v, cur)).join(" · ") || "0")),
      el("tr", {}, el("th", {}, t("stats.hands_hour")), el("td", { class: "num", "data-testid": "session-hph" }, String(s.hands_per_hour ?? ""))),
      el("tr", {}, el("th", {}, t("stats.since")), el("td", { class: "num" }, localTime(s.since)))))
    : el("p", { class: "muted" }, t("stats.no_hands"));
  // issue #31: the tracker statistics of the player's hands (flop games)
  const play = data.play || {};
  const pct = (v) => (v === null || v === undefined ? "—" : `${v}%`);
  const playTable = play.hands ? el("table", { class: "list", "data-testid": "play-stats" },
    el("tbody", {}, [[t("stats.label_vpip"), play.vpip, "vpip"], [t("stats.label_pfr"), play.pfr, "pfr"],
      [t("stats.label_three_bet"), play.three_bet, "three_bet"], [t("stats.label_wtsd"), play.wtsd, "wtsd"], [t("stats.won_at_showdown"), play.wsd, "wsd"]].map(([label, v, key]) =>
      el("tr", {}, el("th", { title: t(`stats.title_${key}`) }, label), el("td", { class: "num", "data-stat": key }, pct(v)))))) : null;  // i18n-dynamic: stats.title_*
  const games = (data.games || []).map((g) => el("div", { class: "profit-game", "data-game": g.game },
    el("h3", {}, `${gameName(g.game)} · ${t("tournament.n_hands", { count: g.hands })} · ${money(g.net, g.currency)}`),
    profitGraph(g.series || [], g.currency)));
  mount(box, el("h2", {}, t("stats.title")), session, playTable,
    el("h2", {}, t("stats.profit_by_game")), games.length ? el("div", { class: "profit-graphs", "data-testid": "profit-graphs" }, games)
      : el("p", { class: "muted" }, t("stats.play_some")));
}

const MINUTE = 60e3; const HOUR = 60 * MINUTE; const DAY = 24 * HOUR;
const TIME_STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR];
const DAY_STEPS = [1, 2, 7, 14, 30, 91, 365];

/** The time axis's ticks between t0 and t1 (ms): at most four, on round local times (whole minutes or hours, or
 * local midnights for steps of days), each [time, label]; the labels are dates, with the time of day when the
 * step is shorter than a day. */
export function timeTicks(t0, t1) {
  const span = Math.max(t1 - t0, MINUTE);
  const date = (ms) => new Date(ms).toLocaleDateString(undefined, { month: "short", day: "numeric" });
  const clock = (ms) => new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  const ticks = [];
  const step = TIME_STEPS.find((s) => span / s <= 3);
  if (step) {
    const off = new Date(t0).getTimezoneOffset() * MINUTE;  // round in local time
    let lastDay = "";
    for (let ms = Math.ceil((t0 - off) / step) * step + off; ms <= t1; ms += step) {
      const day = date(ms);
      ticks.push([ms, day === lastDay ? clock(ms) : `${day} ${clock(ms)}`]);
      lastDay = day;
    }
    return ticks;
  }
  const days = DAY_STEPS.find((d) => span / (d * DAY) <= 3) || Math.ceil(span / DAY / 3);
  const at = new Date(t0);
  at.setHours(0, 0, 0, 0);
  if (at.getTime() < t0) at.setDate(at.getDate() + 1);
  for (; at.getTime() <= t1; at.setDate(at.getDate() + days)) ticks.push([at.getTime(), date(at.getTime())]);
  return ticks;
}

/** An SVG line of the running total over time (integer chips; the axis at zero). */
export function profitGraph(series, currency) {
  // issue #31: with axes -- the amount (highest, zero, lowest) on the left; under the line a time axis (each hand
  // placed at the time it ended, so a pause of days is a long flat stretch and a busy hour a steep one) with its
  // ticks on round dates or times, and the first and the last hand's date and time
  const W = 360; const H = 142; const left = 58; const right = 8; const top = 6; const bottom = 32;
  const times = series.map((p) => Date.parse(p[0]));
  const t0 = times.length ? times[0] : 0; const t1 = times.length ? times[times.length - 1] : 0;
  const values = [0, ...series.map((p) => p[1])];
  const at = [t0, ...times];  // the line starts at zero when the first hand was played
  const lo = Math.min(0, ...values); const hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x = (ms) => left + ((W - left - right) * (t1 > t0 ? (ms - t0) / (t1 - t0) : 1));
  const y = (v) => H - bottom - ((H - top - bottom) * (v - lo)) / span;
  const ns = "http://www.w3.org/2000/svg";
  const make = (tag, attrs, text = null) => {
    const node = document.createElementNS(ns, tag);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== null) node.textContent = text;
    return node;
  };
  const svg = make("svg", { viewBox: `0 0 ${W} ${H}`, class: "profit-graph", role: "img", "data-t0": String(t0), "data-t1": String(t1),
    "aria-label": t("stats.graph_label", { amount: formatMoney(values[values.length - 1], currency) }) });
  const axis = make("line", { x1: left, x2: W - right, y1: y(0), y2: y(0), class: "profit-axis" });
  const yAxis = make("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "profit-axis" });
  const xAxis = make("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "profit-axis", "data-testid": "time-axis" });
  // zero always; the highest and lowest amounts when they do not print over it
  const ticks = [...new Set([hi, 0, lo])].filter((v) => v === 0 || Math.abs(y(v) - y(0)) >= 10).map((v) => make("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end",
    class: "profit-tick", "data-tick": String(v) }, formatMoney(v, currency)));
  const timeMarks = (t1 > t0 ? timeTicks(t0, t1) : []).flatMap(([ms, label]) => [
    make("line", { x1: x(ms).toFixed(1), x2: x(ms).toFixed(1), y1: H - bottom, y2: H - bottom + 3, class: "profit-axis" }),
    make("text", { x: x(ms).toFixed(1), y: H - bottom + 12, "text-anchor": "middle", class: "profit-tick profit-time-tick", "data-time": String(ms) }, label)]);
  const when = (ms) => (times.length ? new Date(ms).toLocaleDateString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : "");
  const xTicks = [make("text", { x: left, y: H - 4, class: "profit-tick", "data-testid": "graph-from" }, when(t0)),
    make("text", { x: W - right, y: H - 4, "text-anchor": "end", class: "profit-tick", "data-testid": "graph-to" }, when(t1))];
  const line = make("polyline", { points: values.map((v, i) => `${x(at[i]).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
    class: values[values.length - 1] >= 0 ? "profit-line profit-up" : "profit-line profit-down" });
  line.dataset.points = String(values.length);
  line.dataset.times = at.join(",");
  svg.append(axis, yAxis, xAxis, ...ticks, ...timeMarks, ...xTicks, line);
  return svg;
}

/** A table's name from its id (the lobby knows open tables; a closed table's id still carries its name). */
export function tableName(id, names) {
  if (!id) return "";
  if (names[id]) return names[id];
  const m = /^[ts]\d+-([a-z0-9]+)-[0-9a-f]+$/.exec(String(id));
  return m ? m[1].charAt(0).toUpperCase() + m[1].slice(1) : String(id);
}

/** A ledger movement's kind in words (the store's kinds: store/ledger.py, store/tournaments.py, store/twister.py);
 * an unknown kind still reads as words, never as a code like "t_prize". */
const MOVEMENT_KINDS = new Set(["deposit", "withdraw", "withdraw_request", "withdraw_return", "adjust", "buy_in", "top_up", "cash_out", "t_register", "t_unregister",
  "t_refund", "t_cancel", "t_rebuy", "t_addon", "t_prize", "t_bounty", "t_pay", "t_int_cash", "t_int_refund",
  "ticket_issue", "jackpot_out", "settle_hand"]);

export function movementKind(kind) {
  const k = String(kind || "");
  if (MOVEMENT_KINDS.has(k)) return t(`movement.${k}`);  // i18n-dynamic: movement.*
  const words = k.replace(/^t_/, "tournament ").replace(/_/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "";
}

