// The lobby's Sit & Go and Tournament tabs (issue #11), replacing the placeholders of lobby_view.js: every
// tournament of GET /api/lobby (`sit_and_go`, `tournaments`) with its game, the "i" breakdown of buy-in and entry
// fee (R-FEE-1), entrants, prize pool, start time and status, and Register / Unregister buttons that send the
// `tournament_register` / `tournament_unregister` frames (a private tournament asks for its promo code and
// password, R-TOURN-PRIV-1). Tournament news (moved, level, finished with place and prize) arrive as `tournament`
// frames (docs/protocol.md) and are shown in the status line.

import { el, formatMoney } from "./util.js";
import { registerLobbyTab } from "./views.js";
import { gameName, structureName } from "./games.js";
import { plainError } from "./errors.js";

const news = { text: "" };

function startsAt(t) {
  if (!t.starts_at) return t.kind === "sng" ? "when full" : "";
  return new Date(t.starts_at * 1000).toLocaleString();
}

async function register(t, ctx, reload, on) {
  const fields = { tournament: t.id, id: `t-${t.id}-${Date.now()}` };
  if (on && t.private) {
    const code = window.prompt("Promo code of this private tournament");
    const password = window.prompt("Password");
    if (!code || !password) return;
    Object.assign(fields, { promo_code: code, password });
  }
  try {
    await ctx.connection.send(on ? "tournament_register" : "tournament_unregister", fields);
    news.text = on ? `Registered for ${t.name}.` : `Unregistered from ${t.name}: buy-in and fee refunded.`;
  } catch (err) {
    news.text = `${t.name}: ${plainError(err)}`;
  }
  reload();
}

function tournamentRows(rows, ctx, reload) {
  if (!rows.length) return el("p", { class: "empty-note" }, "Nothing scheduled here yet.");
  const me = ctx.session && ctx.session.me ? ctx.session.me.player_id : null;
  return el("div", {},
    el("p", { class: "muted", "data-testid": "tournament-news" }, news.text),
    el("table", { class: "list", "data-testid": "tournaments" },
      el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Game"), el("th", {}, "Buy-in"),
        el("th", { class: "num" }, "Players"), el("th", { class: "num" }, "Prize pool"), el("th", {}, "Starts"),
        el("th", {}, "Status"), el("th", {}, ""))),
      el("tbody", {}, rows.map((t) => {
        const total = (t.buy_in ?? 0) + (t.fee ?? 0);
        const details = el("div", { class: "fee-breakdown hidden", "data-testid": "fee-breakdown" },
          `Buy-in to the prize pool: ${formatMoney(t.buy_in ?? 0, t.currency)} · entry fee to the house: ${formatMoney(t.fee ?? 0, t.currency)} · total ${formatMoney(total, t.currency)}`);
        const mine = me != null && (t.players || []).includes(me);
        const open = t.status === "registering";
        const button = ctx.session && ctx.session.loggedIn && open ? el("button", {
          class: `btn btn-small${mine ? "" : " btn-primary"}`, "data-testid": `register-${t.id}`,
          onclick: () => register(t, ctx, reload, !mine) }, mine ? "Unregister" : "Register") : null;
        return el("tr", { "data-tournament": t.id },
          el("td", {}, t.name, t.private ? " 🔒" : ""),
          el("td", {}, `${t.mixed ? gameName(t.mixed) : gameName(t.game)} ${structureName(t.structure)}`),
          el("td", {}, total ? formatMoney(total, t.currency) : "Freeroll", " ",
            el("button", { class: "info-i", title: "Buy-in and fee", "aria-label": "Buy-in and fee breakdown",
              onclick: () => details.classList.toggle("hidden") }, "i"), details),
          el("td", { class: "num" }, `${t.registered ?? 0}${t.max_players ? "/" + t.max_players : ""}`),
          el("td", { class: "num" }, formatMoney(t.prize_pool ?? 0, t.currency)),
          el("td", {}, startsAt(t)),
          el("td", {}, String(t.status || "").replace("_", " ")),
          el("td", { class: "lobby-actions" }, button));
      }))));
}

registerLobbyTab({ id: "sng", label: "Sit & Go", order: 30, filters: true,
  rows: (d) => d.sit_and_go || [], render: (rows, ctx, reload) => tournamentRows(rows, ctx, reload),
  empty: { what: "Sit & Go tournaments", holds: "Sit & Go tournaments start as soon as their seats are filled" } });
registerLobbyTab({ id: "tournaments", label: "Tournaments", order: 40, filters: true,
  rows: (d) => d.tournaments || [], render: (rows, ctx, reload) => tournamentRows(rows, ctx, reload),
  empty: { what: "tournaments", holds: "Multi-table tournaments start at a scheduled time" } });
