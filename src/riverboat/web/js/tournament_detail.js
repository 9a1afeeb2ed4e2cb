// A tournament's detail (#/tournament/<id>, issue #11 item 8): GET /api/tournaments/<id> shown as the lobby's
// "i" fee breakdown (R-FEE-1), entrants, prize pool with the guarantee and the house's overlay (R-TOURN-MTT-4),
// the payouts for the current field (R-TOURN-GEN-4), the structure (levels and breaks, R-TOURN-BREAK-1, late
// registration, re-buys and add-on, R-TOURN-REBUY-3), the tables with their players and chips, the results, and
// Register / Unregister (a private one asks for its promo code and password, R-TOURN-PRIV-1) or "Open table".
// Refreshed every 5 s while open.

import { el, mount, formatMoney } from "./util.js";
import { registerView } from "./views.js";
import { gameName, structureName } from "./games.js";
import { plainError } from "./errors.js";
import { followStarts, tableNumber } from "./tournament_table.js";
import { formatDateTime, formatNumber, t as tr } from "./i18n.js";
import { buyInText, feeInfo, ordinal, statusName, tournamentAction, tournamentKinds } from "./tournament_lobby.js";

async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.message || `${path}: ${response.status}`), { code: body.code });
  return body;
}

function duration(seconds) {
  if (!seconds) return "";
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m ? (s ? tr("time.min_s", { m, s }) : tr("time.min", { m })) : tr("time.seconds_short", { n: s });
}

function placeText(p) { return p.place_to && p.place_to !== p.place ? `${ordinal(p.place)}–${ordinal(p.place_to)}` : ordinal(p.place); }

function who(p) { return p.alias || tr("log.player_n", { n: p.player }); }

function facts(t) {
  const rows = [
    // [the fact's id (data-fact, stable for tests), its label in the player's language, its value]
    ["Game", tr("lobby.col_game"), `${t.mixed ? gameName(t.mixed) : gameName(t.game)} ${structureName(t.limit || "")}`],
    ["Kind", tr("tournament.kind"), `${t.kind === "sng" ? tr("lobby.tab_sng") : tr("tournament.tournament")} · ${tournamentKinds(t).join(" · ")}`],
    ["Buy-in", tr("lobby.col_buy_in"), el("span", {}, buyInText(t), " ", ...feeInfo(t))],
    ["Starting stack", tr("tournament.starting_stack"), t.starting_stack ? formatNumber(t.starting_stack) : ""],
    ["Status", tr("lobby.col_status"), statusName(t.status)],
    ["Starts", tr("tournament.starts"), t.starts_at ? formatDateTime(t.starts_at * 1000) : (t.kind === "sng" ? tr("tournament.when_all_seats") : "")],
    ["Entrants", tr("tournament.entrants"), t.max_players ? tr("tournament.n_of_max", { n: t.entrants ?? 0, max: t.max_players }) : String(t.entrants ?? 0)],
    ["Players left", tr("tournament.players_left"), t.status === "running" || t.status === "final_table" ? String(t.players_left) : ""],
    ["Prize pool", tr("tournament.prize_pool"), formatMoney(t.prize_pool ?? 0, t.currency)],
    ["Guarantee", tr("tournament.guarantee"), t.guarantee ? tr("tournament.guarantee_overlay", { amount: formatMoney(t.guarantee, t.currency), overlay: formatMoney(t.overlay ?? 0, t.currency) }) : ""],
    ["Satellite to", tr("tournament.satellite_to"), t.satellite || ""],
  ];
  return el("dl", { class: "tourney-facts", "data-testid": "tourney-facts" },
    rows.filter(([, , v]) => v !== "" && v !== null && v !== undefined).flatMap(([k, label, v]) => [el("dt", {}, label), el("dd", { "data-fact": k }, v)]));
}

function payouts(t) {
  const list = t.payouts || [];
  if (!list.length) return el("p", { class: "muted" }, tr("tournament.no_places_paid"));
  return el("table", { class: "list compact", "data-testid": "tourney-payouts" },
    el("thead", {}, el("tr", {}, el("th", {}, tr("tournament.place")), el("th", { class: "num" }, tr("tournament.prize")))),
    el("tbody", {}, list.map((amount, i) => el("tr", {}, el("td", {}, ordinal(i + 1)),
      el("td", { class: "num" }, formatMoney(amount, t.currency), (t.tickets || [])[i] ? ` ${tr("tournament.ticket")}` : "")))));
}

function structure(t) {
  const s = t.structure || {};
  const levels = s.levels || [];
  const rows = [];
  levels.forEach((lv, i) => {
    rows.push(el("tr", { "data-level": i + 1 }, el("td", {}, String(i + 1)),
      el("td", {}, `${formatNumber(lv.small_blind)}/${formatNumber(lv.big_blind)}`), el("td", {}, lv.ante ? formatNumber(lv.ante) : "—"),
      el("td", {}, s.level_hands ? tr("tournament.n_hands", { count: s.level_hands }) : (i === levels.length - 1 ? tr("tournament.to_the_end") : duration(s.level_seconds)))));
    if (s.break_every_levels && (i + 1) % s.break_every_levels === 0 && i < levels.length - 1) {
      rows.push(el("tr", { class: "break-row", "data-testid": "structure-break" },
        el("td", { colspan: 4 }, tr("tournament.break_for", { time: duration(s.break_seconds) }))));
    }
  });
  const notes = [];
  if (s.late_registration_levels) notes.push(tr("tournament.late_reg", { count: s.late_registration_levels }));
  if (t.rebuy) {
    const r = t.rebuy;
    notes.push([tr("tournament.rebuys", { count: r.period_levels, price: formatMoney(r.price + (r.fee || 0), t.currency), chips: formatNumber(r.chips) }),
      r.max_rebuys ? tr("tournament.rebuys_max", { max: r.max_rebuys }) : "", tr("tournament.rebuy_decide", { seconds: r.decision_seconds })].filter(Boolean).join(" "));
    if (r.addon_price) notes.push(tr("tournament.addon_after", { price: formatMoney(r.addon_price + (r.addon_fee || 0), t.currency), chips: formatNumber(r.addon_chips), count: r.addon_chips }));
  }
  return el("div", { "data-testid": "tourney-structure" },
    el("table", { class: "list compact" },
      el("thead", {}, el("tr", {}, el("th", {}, tr("tournament.level")), el("th", {}, tr("tournament.blinds")), el("th", {}, tr("tournament.ante")), el("th", {}, tr("tournament.length")))),
      el("tbody", {}, rows)),
    notes.map((n) => el("p", { class: "muted" }, n)));
}

function tables(t) {
  const list = t.tables || [];
  if (!list.length) {
    const entrants = t.entrant_list || [];
    return entrants.length
      ? el("p", { "data-testid": "tourney-entrants" }, `${tr("tournament.registered_list")} `, el("span", { translate: "no" }, entrants.map(who).join(", ")))
      : el("p", { class: "muted" }, tr("tournament.nobody_registered"));
  }
  return el("div", { class: "tourney-tables", "data-testid": "tourney-tables" }, list.map((table) =>
    el("table", { class: "list compact", "data-table": table.id },
      el("caption", {}, tr("tournament.table_caption", { n: tableNumber(table.id) })),
      el("tbody", {}, table.players.map((p) => el("tr", {}, el("td", {}, tr("log.seat_n", { n: p.seat + 1 })), el("td", { translate: "no" }, who(p)),
        el("td", { class: "num" }, formatNumber(p.chips)),
        // a knockout: the bounty on each player's head now and what they won so far (R-TOURN-KO-1, R-TOURN-PKO-2)
        p.bounty !== undefined ? el("td", { class: "num", "data-testid": `bounty-of-${p.player}` },
          tr("tourney.bounty", { amount: formatMoney(p.bounty, t.currency) }),
          p.bounties_won ? el("div", { class: "muted" }, tr("tourney.bounties_won", { amount: formatMoney(p.bounties_won, t.currency) })) : null)
          : null))))));
}

function results(t) {
  const list = t.results || [];
  if (!list.length) return null;
  return el("div", {}, el("h3", {}, tr("tournament.results")),
    el("table", { class: "list compact", "data-testid": "tourney-results" },
      el("tbody", {}, list.map((r) => el("tr", {}, el("td", {}, placeText(r)), el("td", { translate: "no" }, who(r)),
        el("td", { class: "num" }, formatMoney(r.prize, t.currency)),
        r.bounties ? el("td", { class: "num" }, tr("tourney.bounties_won", { amount: formatMoney(r.bounties, t.currency) })) : null)))));
}

export function renderTournamentDetail(root, ctx, id) {
  followStarts(ctx);
  const page = el("div", { class: "page tourney-detail", "data-testid": "tourney-detail" });
  const news = el("p", { class: "muted", "data-testid": "tournament-news" });
  mount(root, page);
  let data = null;
  const draw = () => {
    if (!data) return;
    mount(page,
      el("p", {}, el("a", { href: "#/lobby" }, `← ${tr("nav.lobby")}`)),
      el("h1", {}, el("span", { translate: "no" }, data.name), data.private ? el("span", { class: "muted" }, ` ${tr("tournament.private_mark")}`) : null),
      news,
      el("div", { class: "tourney-actions" }, tournamentAction(data, ctx, (text) => { news.textContent = text; load(); })),
      el("div", { class: "tourney-grid" },
        el("section", {}, el("h3", {}, tr("tournament.tournament")), facts(data)),
        el("section", {}, el("h3", {}, tr("tournament.payouts")), payouts(data)),
        el("section", {}, el("h3", {}, tr("tournament.structure")), structure(data)),
        el("section", {}, el("h3", {}, tr("tournament.tables_players")), tables(data), results(data))));
  };
  async function load() {
    try {
      data = await getJson(`/api/tournaments/${encodeURIComponent(id)}`);
      draw();
    } catch (err) {
      mount(page, el("p", { class: "form-error" }, plainError(err)), el("a", { href: "#/lobby" }, tr("common.back_to_lobby")));
    }
  }
  const off = ctx.connection.on("tournament", (frame) => {
    if (frame.tournament !== id) return;
    if (frame.event === "registered") news.textContent = tr("tournament.registered_for", { name: data ? data.name : id });
    if (frame.event === "started") news.textContent = tr("tournament.started_open");
    load();
  });
  load();
  const timer = setInterval(() => { if (page.isConnected && !document.querySelector("[data-testid='private-dialog']")) load(); }, 5000);
  return { destroy: () => { clearInterval(timer); off(); } };
}

registerView("tournament", { login: false, render: (root, ctx, args) => renderTournamentDetail(root, ctx, args.join("/")) });
