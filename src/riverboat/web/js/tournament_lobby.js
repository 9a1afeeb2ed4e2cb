// The lobby's Sit & Go and Tournament tabs (issue #11), replacing the placeholders of lobby_view.js: every
// tournament of GET /api/lobby (`sit_and_go`, `tournaments`) with its game, the "i" breakdown of buy-in and entry
// fee (R-FEE-1), entrants, prize pool, start time and status; filters by game, buy-in, status and kind; the name
// opens the tournament's detail (tournament_detail.js). Register / Unregister send the `tournament_register` /
// `tournament_unregister` frames; a private tournament asks for its promo code and password in a dialog
// (R-TOURN-PRIV-1). A running tournament the player is in offers "Open table" (tournament_table.js).

import { el, formatMoney } from "./util.js";
import { registerLobbyTab } from "./views.js";
import { gameName, structureLabel } from "./games.js";
import { plainError } from "./errors.js";
import { followStarts } from "./tournament_table.js";
import { formatDateTime, formatNumber, formatOrdinal, t as tr } from "./i18n.js";

const news = { text: "" };
const STATUS = new Set(["scheduled", "registering", "running", "final_table", "finished", "cancelled", "interrupted"]);

export function statusName(status) { return STATUS.has(status) ? tr(`status.${status}`) : String(status || ""); }  // i18n-dynamic: status.*

/** The kinds a tournament belongs to (the lobby's "kind" filter). */
export function tournamentKinds(t) {
  const kinds = [];
  if (!t.buy_in && !t.fee) kinds.push(tr("tkind.freeroll"));
  if (t.guarantee) kinds.push(tr("tkind.guaranteed"));
  if (t.knockout) kinds.push(tr("tkind.knockout"));
  if (t.rebuys) kinds.push(tr("tkind.rebuy"));
  if (t.satellite) kinds.push(tr("tkind.satellite"));
  if (t.private) kinds.push(tr("tkind.private"));
  if (!kinds.length) kinds.push(tr("tkind.regular"));
  return kinds;
}

/** A knockout's bounty in the lobby row (R-TOURN-KO-1, R-TOURN-PKO-1): fixed, or where progressive ones start. */
export function knockoutLine(t) {
  if (!t.knockout) return null;
  const amount = formatMoney(t.bounty ?? 0, t.currency);
  return el("div", { class: "muted", "data-testid": `bounty-${t.id}` },
    t.progressive ? tr("tourney.pko_bounty", { amount }) : tr("tourney.ko_bounty", { amount }));
}

export function buyInText(t) {
  const total = (t.buy_in ?? 0) + (t.fee ?? 0);
  return total ? formatMoney(total, t.currency) : tr("tkind.freeroll");
}

/** The R-FEE-1 "i": the buy-in goes to the prize pool, the entry fee to the house. */
export function feeInfo(t) {
  const total = (t.buy_in ?? 0) + (t.fee ?? 0);
  const details = el("div", { class: "fee-breakdown hidden", "data-testid": "fee-breakdown" },
    tr("lobby.fee_breakdown", { buy_in: formatMoney(t.buy_in ?? 0, t.currency), fee: formatMoney(t.fee ?? 0, t.currency), total: formatMoney(total, t.currency) }));
  return [el("button", { class: "info-i", title: tr("lobby.fee_title"), "aria-label": tr("lobby.fee_label"),
    "data-testid": "fee-info", onclick: () => details.classList.toggle("hidden") }, tr("lobby.info_i")), details];
}

function startsAt(t) {
  if (!t.starts_at) return t.kind === "sng" ? tr("tournament.when_full") : "";
  return formatDateTime(t.starts_at * 1000);
}

/** R-TOURN-PRIV-1: the promo code AND the password of a private tournament; null when cancelled. */
export function privateDialog(name) {
  return new Promise((resolve) => {
    const code = el("input", { type: "text", "data-testid": "promo-code", autocomplete: "off", required: true });
    const password = el("input", { type: "password", "data-testid": "private-password", autocomplete: "off", required: true });
    const dialog = el("dialog", { "data-testid": "private-dialog", "data-keep-open": "1" },
      el("form", { method: "dialog" },
        el("h3", {}, tr("tournament.enter_private", { name })),
        el("p", { class: "muted" }, tr("tournament.private_needs")),
        el("label", { class: "field" }, tr("tournament.promo_code"), code),
        el("label", { class: "field" }, tr("account.password"), password),
        el("div", { style: { display: "flex", gap: "0.5rem", justifyContent: "flex-end" } },
          el("button", { class: "btn", value: "cancel", formnovalidate: true, "data-testid": "private-cancel" }, tr("common.cancel")),
          el("button", { class: "btn btn-primary", value: "ok", "data-testid": "private-ok" }, tr("tournament.register")))));
    dialog.addEventListener("close", () => {
      const ok = dialog.returnValue === "ok" && code.value.trim() && password.value;
      dialog.remove();
      resolve(ok ? { promo_code: code.value.trim(), password: password.value } : null);
    });
    document.body.append(dialog);
    dialog.showModal();
    code.focus();
  });
}

/** Register (on) or unregister for `t`; returns the line to show the player. */
export async function registerFor(t, ctx, on) {
  // the connection numbers the frame (its id makes the money frame idempotent): no id of our own here, or its
  // reply would not be matched to the command
  const fields = { tournament: t.id };
  if (on && t.private) {
    const secret = await privateDialog(t.name);
    if (!secret) return "";
    Object.assign(fields, secret);
  }
  try {
    await ctx.connection.send(on ? "tournament_register" : "tournament_unregister", fields);
    ctx.session.refresh().catch(() => {});
    // a freeroll refunds nothing (issue #31 item 9: "buy-in and fee refunded" on a freeroll)
    const free = !(t.buy_in ?? 0) && !(t.fee ?? 0);
    if (on) return tr("tournament.registered_for", { name: t.name });
    return tr(free ? "tournament.unregistered_from_free" : "tournament.unregistered_from", { name: t.name });
  } catch (err) {
    return `${t.name}: ${plainError(err)}`;
  }
}

export function ordinal(n) {
  return formatOrdinal(n);
}

export function isMine(t, ctx) {
  const me = ctx.session && ctx.session.me ? ctx.session.me.player_id : null;
  return me != null && (t.players || []).includes(me);
}

/** Whether the player still has a seat in `t`: the detail (GET /api/tournaments/<id>) lists the tables with their
 * players and the results; a player who busted is in the results and at no table (a busted player deciding on a
 * re-buy keeps the seat, R-TOURN-REBUY-3). A lobby row has neither list: every registered player counts. */
export function stillSeated(t, ctx) {
  const me = ctx.session && ctx.session.me ? ctx.session.me.player_id : null;
  if (me == null) return false;
  if (Array.isArray(t.tables) && t.tables.length) {
    return t.tables.some((table) => (table.players || []).some((p) => p.player === me));
  }
  if (Array.isArray(t.results) && t.results.some((r) => r.player === me)) return false;
  return isMine(t, ctx);
}

/** The row's action: Register / Unregister while registering (late registration too), Open table when playing
 * (only to a player still seated: a busted player has no table any more); `done(text)` gets the line to show
 * once the server answered. */
export function tournamentAction(t, ctx, done) {
  if (!ctx.session || !ctx.session.loggedIn) return null;
  const mine = isMine(t, ctx);
  const playing = t.status === "running" || t.status === "final_table";
  if (playing && mine) {
    if (!stillSeated(t, ctx)) {
      const me = ctx.session.me.player_id;
      const out = (t.results || []).find((r) => r.player === me);
      return out ? el("span", { class: "muted", "data-testid": `out-of-tourney-${t.id}` },
        tr("tournament.you_finished", { place: `${ordinal(out.place)}${out.place_to && out.place_to !== out.place ? `–${ordinal(out.place_to)}` : ""}` })) : null;
    }
    return el("button", { class: "btn btn-small btn-primary", "data-testid": `open-tourney-${t.id}`,
      onclick: () => ctx.navigate(`#/tourney/${encodeURIComponent(t.id)}`) }, tr("tournament.open_table"));
  }
  if (t.status !== "registering" && !(playing && t.late_registration)) return null;
  return el("button", { class: `btn btn-small${mine ? "" : " btn-primary"}`, "data-testid": `register-${t.id}`,
    onclick: async () => done(await registerFor(t, ctx, !mine)) }, mine ? tr("tournament.unregister") : tr("tournament.register"));
}

/** A Sit & Go of a series reopens under the same name (R-TOURN-SNG-1): when several rows share it, each says its
 * number in the series ("Demo Sit & Go 6 #3"; the id "sng1.3" numbers it), so a finished one is not taken for its
 * successor (issue #31 item 9). */
export function seriesName(t, rows) {
  if (rows.filter((r) => r.name === t.name).length < 2) return t.name;
  const m = /\.(\d+)$/.exec(String(t.id));
  return `${t.name} #${m ? m[1] : 1}`;
}

function tournamentRows(rows, ctx, reload) {
  followStarts(ctx);
  if (!rows.length) return el("p", { class: "empty-note" }, tr("lobby.nothing_scheduled"));
  return el("div", {},
    el("p", { class: "muted", "data-testid": "tournament-news" }, news.text),
    el("table", { class: "list", "data-testid": "tournaments" },
      el("thead", {}, el("tr", {}, el("th", {}, tr("lobby.col_name")), el("th", { class: "hide-narrow" }, tr("lobby.col_game")), el("th", {}, tr("lobby.col_buy_in")),
        el("th", { class: "num" }, tr("lobby.col_players")), el("th", { class: "num hide-narrow" }, tr("tournament.prize_pool")), el("th", { class: "hide-narrow" }, tr("tournament.starts")),
        el("th", { class: "hide-narrow" }, tr("lobby.col_status")), el("th", {}, ""))),
      el("tbody", {}, rows.map((t) => { const game = `${t.mixed ? gameName(t.mixed) : gameName(t.game)} ${structureLabel(t.structure)}`;
        const name = seriesName(t, rows);
        return el("tr", { "data-tournament": t.id },
        // on a phone the game and the status go under the name (their columns are hidden: the list fits 390 px)
        el("td", {}, el("a", { href: `#/tournament/${encodeURIComponent(t.id)}`, "data-testid": `detail-${t.id}`, translate: "no" }, name),
          el("div", { class: "muted" }, tournamentKinds(t).join(" · ")),
          knockoutLine(t),
          el("div", { class: "muted show-narrow" }, `${game} · ${statusName(t.status)}`)),
        el("td", { class: "hide-narrow" }, game),
        el("td", {}, buyInText(t), " ", ...feeInfo(t),
          t.starting_stack ? el("div", { class: "muted", "data-testid": "starting-stack" },
            tr("tournament.starting_stack_of", { chips: formatNumber(t.starting_stack) })) : null),
        el("td", { class: "num" }, `${t.registered ?? 0}${t.max_players ? "/" + t.max_players : ""}`),
        el("td", { class: "num hide-narrow" }, formatMoney(t.prize_pool ?? 0, t.currency),
          t.guarantee ? el("div", { class: "muted" }, tr("tournament.guaranteed", { amount: formatMoney(t.guarantee, t.currency) })) : null),
        el("td", { class: "hide-narrow" }, startsAt(t)),
        el("td", { class: "hide-narrow" }, statusName(t.status)),
        el("td", { class: "lobby-actions" }, tournamentAction(t, ctx, (text) => { news.text = text; reload(); }))); }))));
}

/** Filters of both tabs: game, buy-in, status and kind. */
const FILTERS = [
  { name: "t_game", label: tr("lobby.filter_games"), all: tr("lobby.all_games"), value: (t) => t.mixed || t.game, fmt: gameName },
  { name: "t_buyin", label: tr("lobby.filter_buyins"), all: tr("lobby.all_buyins"), value: (t) => `${(t.buy_in ?? 0) + (t.fee ?? 0)}|${t.currency}`,
    fmt: (v) => { const [n, cur] = v.split("|"); return Number(n) ? formatMoney(Number(n), cur) : tr("tkind.freeroll"); },
    sort: (a, b) => parseInt(a, 10) - parseInt(b, 10) },
  { name: "t_status", label: tr("lobby.col_status"), all: tr("lobby.all_statuses"), value: (t) => t.status, fmt: statusName },
  { name: "t_kind", label: tr("lobby.filter_kinds"), all: tr("lobby.all_kinds"), value: tournamentKinds },
];

registerLobbyTab({ id: "sng", label: tr("lobby.tab_sng"), order: 30, filters: FILTERS,
  rows: (d) => d.sit_and_go || [], render: (rows, ctx, reload) => tournamentRows(rows, ctx, reload),
  empty: { title: tr("lobby.empty_sng"), holds: tr("lobby.holds_sng") } });
registerLobbyTab({ id: "tournaments", label: tr("lobby.tab_tournaments"), order: 40, filters: FILTERS,
  rows: (d) => d.tournaments || [], render: (rows, ctx, reload) => tournamentRows(rows, ctx, reload),
  empty: { title: tr("lobby.empty_tournaments"), holds: tr("lobby.holds_tournaments") } });
