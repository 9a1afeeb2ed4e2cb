// Hand histories: the player's last hands (REST), each with its table, game, the player's own cards (also in the
// hands they folded) and result; one hand's log with every player named; the replayer; and the export of a hand or
// of the whole list as PokerStars-format text (what PokerTracker and Hold'em Manager import) or as PHH.
// Also the tournament history (GET /api/tournaments/history, one row per tournament of every kind), shown on the
// account page and, for the Twister family, on the Twister page: the same rows drawn by the same table.

import { el, mount, formatMoney, localTime } from "./util.js";
import { api } from "./api.js";
import { describeEvent } from "./hand_log.js";
import { gameName, mixedName } from "./games.js";
import { renderCard } from "./cards.js";
import { plainError } from "./errors.js";
import { t } from "./i18n.js";

/** A minimal table model naming the seats of a stored hand (for describeEvent). */
export function handModel(full) {
  const seats = [];
  for (const s of full.seats || []) seats[s.seat] = { seat: s.seat, empty: false, alias: s.alias || t("log.player_n", { n: s.player }) };
  for (let i = 0; i < seats.length; i += 1) if (!seats[i]) seats[i] = { seat: i, empty: true };
  return { seats, currency: full.currency || "PLAY" };
}

export function handLines(full) {
  const model = handModel(full);
  return (full.events || []).map((e) => describeEvent(e, model)).filter(Boolean);
}

function cardsCell(cards) {
  return el("span", { class: "mini-cards" }, (cards || []).map((c) => renderCard(c, { small: true })));
}

function exportLinks(tableId, handId) {
  const q = (fmt) => api.exportUrl(fmt, tableId, handId);
  return el("span", { class: "export-links" },
    el("button", { class: "btn btn-small", "data-testid": "export-pokerstars", onclick: () => api.download(q("pokerstars")) }, t("history.export_pokerstars")),
    el("button", { class: "btn btn-small", "data-testid": "export-phh", onclick: () => api.download(q("phh")) }, t("history.export_phh")));
}

const PAGE = 50;
const FILTER_GAMES = ["holdem", "omaha", "omaha_hl", "omaha5", "omaha5_hl", "six_plus", "stud", "stud_hl", "razz", "soko",
  "americana", "draw5", "triple_draw_27", "draw32"];

/** The search form (issue #31): game, stakes (big blind or small bet), dates, result, cash / tournament and one
 * of the player's tournaments (`tournaments`: their tournament history's rows, when they have any). */
function filterBar(current, apply, tournaments = []) {
  const select = (name, options) => el("select", { name, "data-testid": `filter-${name}` },
    options.map(([value, label]) => el("option", { value, selected: current.get(name) === value ? "" : null }, label)));
  const input = (name, type, label) => el("label", { class: "field-inline" }, `${label} `,
    el("input", { name, type, value: current.get(name) || "", "data-testid": `filter-${name}`, min: type === "number" ? "0" : null }));
  const form = el("form", { class: "history-filters", "data-testid": "history-filters", onsubmit: (ev) => {
    ev.preventDefault();
    const query = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (String(v).trim()) query.set(k, String(v).trim());
    apply(query);
  } },
  select("game", [["", t("lobby.all_games")], ...FILTER_GAMES.map((g) => [g, gameName(g)])]),
  input("stakes", "number", t("history.filter_stakes")),
  input("since", "date", t("history.filter_since")),
  input("until", "date", t("history.filter_until")),
  select("result", [["", t("history.filter_any_result")], ["won", t("history.filter_won")], ["lost", t("history.filter_lost")], ["even", t("history.filter_even")]]),
  select("kind", [["", t("history.filter_cash_and_tournaments")], ["cash", t("history.filter_cash")], ["tournament", t("history.filter_tournaments")]]),
  tournaments.length ? select("tournament", [["", t("history.filter_any_tournament")],
    ...tournaments.map((r) => [String(r.tournament), `${r.name || r.tournament} · ${localTime(r.date)}`])]) : null,
  el("button", { class: "btn btn-small btn-primary", type: "submit", "data-testid": "filter-apply" }, t("history.filter_apply")));
  return form;
}

export async function renderHistory(root, ctx, query = new URLSearchParams()) {
  const offset = Number(query.get("offset") || 0);
  query.set("limit", String(PAGE));
  const [data, played] = await Promise.all([api.searchHands(query.toString()),
    api.tournamentHistory().then((d) => d.history || [], () => [])]);
  const hands = Array.isArray(data) ? data : data.hands || [];
  const total = data.total ?? hands.length;
  const filters = new URLSearchParams(query);
  filters.delete("offset");
  filters.delete("limit");
  const reload = (q) => renderHistory(root, ctx, q);
  const page = (to) => { const q = new URLSearchParams(filters); q.set("offset", String(to)); reload(q); };
  const me = ctx.session.me || {};
  const resultOf = (h) => {
    if (typeof h.result === "number") return h.result;
    const mine = (h.changes || {})[String(me.player_id)];
    return typeof mine === "number" ? mine : null;
  };
  const detail = el("div", { class: "box wide", "data-testid": "hand-detail" }, el("p", { class: "muted" }, t("history.pick")));
  const show = async (hand) => {
    const id = hand.hand_id ?? hand.id;
    const table = hand.table_id ?? hand.table;
    mount(detail, el("p", { class: "muted" }, t("common.loading")));
    try {
      const full = await api.hand(table, id);
      const lines = handLines(full);
      mount(detail,
        el("h2", {}, t("table.hand_no", { id }), " ",
          el("a", { class: "btn btn-small btn-primary", "data-testid": "open-replay", href: `#/replay/${encodeURIComponent(table)}/${encodeURIComponent(id)}` }, t("history.replay")),
          " ", exportLinks(table, id)),
        el("p", { class: "muted" }, el("span", { translate: "no" }, full.table_name || table), ` · ${full.game ? mixedName(full.mixed, gameName(full.game)) : ""}`),
        lines.length ? el("ol", { class: "hand-log" }, lines.map((l) => el("li", {}, l))) : null);
    } catch (err) {
      mount(detail, el("p", { class: "form-error" }, plainError(err)));
    }
  };
  mount(root, el("div", { class: "page", "data-testid": "history" },
    el("div", { class: "box wide" },
      el("h2", { class: "history-title" }, `${t("history.last_hands")} `, hands.length ? el("span", { class: "export-links" },
        el("button", { class: "btn btn-small", "data-testid": "export-all-pokerstars", onclick: () => api.download(api.searchExportUrl("pokerstars", filters.toString())) }, t("history.export_all_pokerstars")),
        el("button", { class: "btn btn-small", "data-testid": "export-all-phh", onclick: () => api.download(api.searchExportUrl("phh", filters.toString())) }, t("history.export_all_phh"))) : null),
      filterBar(filters, (q) => reload(q), played.filter((r) => r.tournament)),
      el("p", { class: "muted", "data-testid": "history-count" }, t("history.showing", { from: hands.length ? offset + 1 : 0, to: offset + hands.length, total })),
      el("div", { class: "history-pager" },
        offset > 0 ? el("button", { class: "btn btn-small", "data-testid": "page-newer", onclick: () => page(Math.max(0, offset - PAGE)) }, t("history.newer")) : null,
        offset + hands.length < total ? el("button", { class: "btn btn-small", "data-testid": "page-older", onclick: () => page(offset + PAGE) }, t("history.older")) : null),
      hands.length ? el("table", { class: "list history-hands", "data-testid": "hands" },
        el("thead", {}, el("tr", {}, el("th", {}, t("history.hand")), el("th", { class: "hide-narrow" }, t("lobby.col_table")), el("th", {}, t("lobby.col_game")), el("th", {}, t("history.your_cards")),
          el("th", { class: "hide-narrow" }, t("cashier.time")), el("th", { class: "num" }, t("history.result")))),
        el("tbody", {}, hands.map((h) => el("tr", { style: { cursor: "pointer" }, onclick: () => show(h), "data-hand": h.hand_id },
          el("td", {}, el("button", { class: "btn btn-small", type: "button" }, `#${h.hand_id ?? h.id}`),
            el("span", { class: "show-narrow hand-table-narrow", translate: "no" }, h.table_name ?? h.table ?? h.table_id ?? "")),
          el("td", { class: "hide-narrow", "data-testid": "hand-table", translate: "no" }, h.table_name ?? h.table ?? h.table_id ?? ""),
          el("td", { "data-testid": "hand-game" }, h.game ? mixedName(h.mixed, gameName(h.game)) : ""),
          el("td", { "data-testid": "hand-cards" }, cardsCell(h.my_cards)),
          el("td", { class: "hide-narrow" }, localTime(h.time ?? h.started_at ?? h.created_at ?? "")),
          el("td", { class: "num", "data-testid": "hand-result" }, resultOf(h) === null ? "" : formatMoney(resultOf(h), h.currency || "PLAY"))))))
        : el("p", { class: "muted" }, t("history.no_hands"))),
    detail));
  return null;
}

// ---------------------------------------------------------------- tournament history (R-TWIST-11, issue #11 item 8)

// the kinds' names as the server writes them (tournament names start with them) and in the player's language
export const TOURNAMENT_KINDS = { sng: "Sit & Go", mtt: "Tournament", twister: "Twister",
  aog: "Age of the Gods Twister", wild: "Wild Twister" };
const kindName = (kind) => (TOURNAMENT_KINDS[kind] ? t(`tkind.kind_${kind}`) : kind || "");  // i18n-dynamic: tkind.kind_*
const FEATURES = new Set(["knockout", "progressive", "bounty", "satellite", "freeroll", "rebuy", "private", "flight", "guaranteed"]);
const TIERS = new Set(["power", "extra_power", "super_power", "ultimate_power"]);

/** Buy-in + fee as paid, or the ticket used (R-FEE-1, R-TOURN-GEN-2); re-buys and add-ons with what they cost. */
function buyInCell(r) {
  const money = (v) => formatMoney(v, r.currency);
  const lines = [];
  if (r.ticket_used !== null && r.ticket_used !== undefined) lines.push(el("span", { "data-testid": "th-ticket-used" }, t("history.ticket_value", { amount: money(r.ticket_used) })));
  else if (!r.buy_in && !r.fee) lines.push(t("history.free"));
  else lines.push(r.fee ? `${money(r.buy_in)} + ${money(r.fee)}` : money(r.buy_in));
  if (r.rebuys || r.addons) {
    const parts = [r.rebuys ? t("history.n_rebuys", { count: r.rebuys }) : null, r.addons ? t("history.n_addons", { count: r.addons }) : null];
    lines.push(el("span", { class: "muted" }, `${parts.filter(Boolean).join(", ")} · ${t("history.paid", { amount: money((r.paid_buy_in || 0) + (r.paid_fee || 0)) })}`));
  }
  return el("td", { class: "num th-lines", "data-testid": "th-buy-in" }, lines.map((l) => el("div", {}, l)));
}

/** Place of field, a shared range (R-TOURN-GEN-6), or what became of the entry. */
function placeText(r) {
  if (r.place) return t("history.place_of", { place: r.place_to && r.place_to !== r.place ? `${r.place}–${r.place_to}` : r.place, field: r.field });
  if (r.status === "cancelled" || r.entry === "refunded") return t("history.cancelled_refunded");
  if (r.entry === "disqualified") return t("history.disqualified");
  if (r.status === "running") return t("history.playing");
  if (r.status === "registering") return t("history.registered");
  return r.entry || r.status || "";
}

/** What the player won: the cash prize, knockout bounties, tickets at their face value, and jackpots apart. */
function wonCell(r) {
  const money = (v) => formatMoney(v, r.currency);
  const lines = [];
  if (r.prize) lines.push(el("div", { "data-testid": "th-prize" }, money(r.prize)));
  if (r.bounties) lines.push(el("div", { "data-testid": "th-bounties" }, t("history.bounties", { amount: money(r.bounties) })));
  for (const tk of r.tickets_won || []) {
    const where = tk.valid_for === "twister:*" ? t("nav.twister") : tk.valid_for ? t("history.ticket_for", { what: tk.valid_for }) : t("history.any_tournament");
    lines.push(el("div", { "data-testid": "th-ticket" }, `${t("history.ticket_value", { amount: money(tk.value) })} (${where})`));
  }
  for (const j of r.jackpots || []) {
    lines.push(el("div", { class: "th-jackpot", "data-testid": "th-jackpot" }, t("history.jackpot", { tier: TIERS.has(j.tier) ? t(`twister.tier_${j.tier}`) : j.tier, amount: money(j.amount) })));  // i18n-dynamic: twister.tier_*
  }
  return el("td", { class: "num th-lines", "data-testid": "th-won" }, lines.length ? lines : el("span", { class: "muted" }, "–"));
}

/** The tournament's name after its kind ("Wild Twister PLAY 0.50" -> " PLAY 0.50", "Sunday 500" -> " · Sunday 500"). */
function nameAfterKind(name, kind) {
  if (!name || name === kind) return "";
  return name.startsWith(kind) ? name.slice(kind.length) : ` · ${name}`;
}

function nameCell(r) {
  const kind = TOURNAMENT_KINDS[r.kind] || r.kind || "";
  const extra = [r.multiplier ? `${r.multiplier}x` : null, ...(r.features || []).map((f) => (FEATURES.has(f) ? t(`feature.${f}`) : f))].filter(Boolean);  // i18n-dynamic: feature.*
  return el("td", { "data-testid": "th-name" },
    el("div", {}, el("strong", {}, kindName(r.kind)), el("span", { translate: "no" }, nameAfterKind(r.name || "", kind))),
    extra.length ? el("div", { class: "muted" }, extra.join(" · ")) : null,
    el("div", { class: "muted th-date-narrow" }, localTime(r.date)));  // the date column is hidden on a phone
}

/** The table of history rows (one per tournament), newest first; `empty` is said when there is none. */
export function tournamentHistoryTable(rows, empty = t("history.no_tournaments")) {
  if (!rows.length) return el("p", { class: "muted", "data-testid": "tournament-history-empty" }, empty);
  return el("table", { class: "list tournament-history", "data-testid": "tournament-history" },
    el("thead", {}, el("tr", {}, el("th", { class: "hide-narrow" }, t("history.date")), el("th", {}, t("tournament.tournament")),
      el("th", { class: "num" }, t("lobby.col_buy_in")), el("th", { class: "num" }, t("tournament.place")), el("th", { class: "num" }, t("history.won")))),
    el("tbody", {}, rows.map((r) => el("tr", { "data-testid": "tournament-history-row", "data-tournament": r.tournament, "data-kind": r.kind },
      el("td", { class: "hide-narrow", title: r.date || "" }, localTime(r.date)),
      nameCell(r), buyInCell(r),
      el("td", { class: "num", "data-testid": "th-place" }, placeText(r)),
      wonCell(r)))));
}

/** Fill `box` with the account's tournament history (every kind). */
export async function renderTournamentHistory(box) {
  const title = el("h2", {}, t("history.tournaments"));
  try {
    const data = await api.tournamentHistory();
    mount(box, title, tournamentHistoryTable(data.history || []));
  } catch (err) {
    mount(box, title, el("p", { class: "form-error" }, plainError(err)));
  }
}
