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
import { formatNumber, t as tr } from "./i18n.js";
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
  return m ? `${m} min${s ? ` ${s} s` : ""}` : `${s} s`;
}

function placeText(p) { return p.place_to && p.place_to !== p.place ? `${ordinal(p.place)}-${ordinal(p.place_to)}` : ordinal(p.place); }

function who(p) { return p.alias || `Player ${p.player}`; }

function facts(t) {
  const rows = [
    ["Game", `${t.mixed ? gameName(t.mixed) : gameName(t.game)} ${structureName(t.limit || "")}`],
    ["Kind", `${t.kind === "sng" ? "Sit & Go" : "Tournament"} · ${tournamentKinds(t).join(" · ")}`],
    ["Buy-in", el("span", {}, buyInText(t), " ", ...feeInfo(t))],
    [tr("tournament.starting_stack"), t.starting_stack ? formatNumber(t.starting_stack) : ""],
    ["Status", statusName(t.status)],
    ["Starts", t.starts_at ? new Date(t.starts_at * 1000).toLocaleString() : (t.kind === "sng" ? "when all seats are taken" : "")],
    ["Entrants", `${t.entrants ?? 0}${t.max_players ? ` of ${t.max_players}` : ""}`],
    ["Players left", t.status === "running" || t.status === "final_table" ? String(t.players_left) : ""],
    ["Prize pool", formatMoney(t.prize_pool ?? 0, t.currency)],
    ["Guarantee", t.guarantee ? `${formatMoney(t.guarantee, t.currency)} (the house adds ${formatMoney(t.overlay ?? 0, t.currency)} overlay)` : ""],
    ["Satellite to", t.satellite || ""],
  ];
  return el("dl", { class: "tourney-facts", "data-testid": "tourney-facts" },
    rows.filter(([, v]) => v !== "" && v !== null && v !== undefined).flatMap(([k, v]) => [el("dt", {}, k), el("dd", { "data-fact": k }, v)]));
}

function payouts(t) {
  const list = t.payouts || [];
  if (!list.length) return el("p", { class: "muted" }, "No places are paid yet.");
  return el("table", { class: "list compact", "data-testid": "tourney-payouts" },
    el("thead", {}, el("tr", {}, el("th", {}, "Place"), el("th", { class: "num" }, "Prize"))),
    el("tbody", {}, list.map((amount, i) => el("tr", {}, el("td", {}, ordinal(i + 1)),
      el("td", { class: "num" }, formatMoney(amount, t.currency), (t.tickets || [])[i] ? " ticket" : "")))));
}

function structure(t) {
  const s = t.structure || {};
  const levels = s.levels || [];
  const rows = [];
  levels.forEach((lv, i) => {
    rows.push(el("tr", { "data-level": i + 1 }, el("td", {}, String(i + 1)),
      el("td", {}, `${lv.small_blind}/${lv.big_blind}`), el("td", {}, lv.ante ? String(lv.ante) : "—"),
      el("td", {}, s.level_hands ? `${s.level_hands} hands` : (i === levels.length - 1 ? "to the end" : duration(s.level_seconds)))));
    if (s.break_every_levels && (i + 1) % s.break_every_levels === 0 && i < levels.length - 1) {
      rows.push(el("tr", { class: "break-row", "data-testid": "structure-break" },
        el("td", { colspan: 4 }, `Break: ${duration(s.break_seconds)}`)));
    }
  });
  const notes = [];
  if (s.late_registration_levels) notes.push(`Late registration during the first ${s.late_registration_levels} level${s.late_registration_levels > 1 ? "s" : ""}.`);
  if (t.rebuy) {
    const r = t.rebuy;
    notes.push(`Re-buys during the first ${r.period_levels} level${r.period_levels > 1 ? "s" : ""}: ${formatMoney(r.price + (r.fee || 0), t.currency)} for ${r.chips} chips`
      + `${r.max_rebuys ? `, at most ${r.max_rebuys}` : ""}; a busted player has ${r.decision_seconds} s to decide.`);
    if (r.addon_price) notes.push(`Add-on after the period: ${formatMoney(r.addon_price + (r.addon_fee || 0), t.currency)} for ${r.addon_chips} chips.`);
  }
  return el("div", { "data-testid": "tourney-structure" },
    el("table", { class: "list compact" },
      el("thead", {}, el("tr", {}, el("th", {}, "Level"), el("th", {}, "Blinds"), el("th", {}, "Ante"), el("th", {}, "Length"))),
      el("tbody", {}, rows)),
    notes.map((n) => el("p", { class: "muted" }, n)));
}

function tables(t) {
  const list = t.tables || [];
  if (!list.length) {
    const entrants = t.entrant_list || [];
    return entrants.length
      ? el("p", { "data-testid": "tourney-entrants" }, `Registered: ${entrants.map(who).join(", ")}`)
      : el("p", { class: "muted" }, "Nobody has registered yet.");
  }
  return el("div", { class: "tourney-tables", "data-testid": "tourney-tables" }, list.map((table) =>
    el("table", { class: "list compact", "data-table": table.id },
      el("caption", {}, `Table ${tableNumber(table.id)}`),
      el("tbody", {}, table.players.map((p) => el("tr", {}, el("td", {}, `Seat ${p.seat + 1}`), el("td", {}, who(p)),
        el("td", { class: "num" }, String(p.chips))))))));
}

function results(t) {
  const list = t.results || [];
  if (!list.length) return null;
  return el("div", {}, el("h3", {}, "Results"),
    el("table", { class: "list compact", "data-testid": "tourney-results" },
      el("tbody", {}, list.map((r) => el("tr", {}, el("td", {}, placeText(r)), el("td", {}, who(r)),
        el("td", { class: "num" }, formatMoney(r.prize, t.currency)))))));
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
      el("p", {}, el("a", { href: "#/lobby" }, "← Lobby")),
      el("h1", {}, data.name, data.private ? el("span", { class: "muted" }, " (private)") : null),
      news,
      el("div", { class: "tourney-actions" }, tournamentAction(data, ctx, (text) => { news.textContent = text; load(); })),
      el("div", { class: "tourney-grid" },
        el("section", {}, el("h3", {}, "Tournament"), facts(data)),
        el("section", {}, el("h3", {}, "Payouts"), payouts(data)),
        el("section", {}, el("h3", {}, "Structure"), structure(data)),
        el("section", {}, el("h3", {}, "Tables and players"), tables(data), results(data))));
  };
  async function load() {
    try {
      data = await getJson(`/api/tournaments/${encodeURIComponent(id)}`);
      draw();
    } catch (err) {
      mount(page, el("p", { class: "form-error" }, plainError(err)), el("a", { href: "#/lobby" }, "Back to the lobby"));
    }
  }
  const off = ctx.connection.on("tournament", (frame) => {
    if (frame.tournament !== id) return;
    if (frame.event === "registered") news.textContent = `Registered for ${data ? data.name : id}.`;
    if (frame.event === "started") news.textContent = "The tournament has started: open your table.";
    load();
  });
  load();
  const timer = setInterval(() => { if (page.isConnected && !document.querySelector("[data-testid='private-dialog']")) load(); }, 5000);
  return { destroy: () => { clearInterval(timer); off(); } };
}

registerView("tournament", { login: false, render: (root, ctx, args) => renderTournamentDetail(root, ctx, args.join("/")) });
