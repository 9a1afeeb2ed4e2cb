// Hand histories: the player's last hands (REST), each with its table, game, the player's own cards (also in the
// hands they folded) and result; one hand's log with every player named; the replayer; and the export of a hand or
// of the whole list as PokerStars-format text (what PokerTracker and Hold'em Manager import) or as PHH.

import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { describeEvent } from "./hand_log.js";
import { gameName, mixedName } from "./games.js";
import { renderCard } from "./cards.js";
import { plainError } from "./errors.js";

/** A minimal table model naming the seats of a stored hand (for describeEvent). */
export function handModel(full) {
  const seats = [];
  for (const s of full.seats || []) seats[s.seat] = { seat: s.seat, empty: false, alias: s.alias || `Player ${s.player}` };
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
    el("button", { class: "btn btn-small", "data-testid": "export-pokerstars", onclick: () => api.download(q("pokerstars")) }, "PokerStars text"),
    el("button", { class: "btn btn-small", "data-testid": "export-phh", onclick: () => api.download(q("phh")) }, "PHH"));
}

export async function renderHistory(root, ctx) {
  const data = await api.hands(50);
  const hands = Array.isArray(data) ? data : data.hands || [];
  const me = ctx.session.me || {};
  const resultOf = (h) => {
    if (typeof h.result === "number") return h.result;
    const mine = (h.changes || {})[String(me.player_id)];
    return typeof mine === "number" ? mine : null;
  };
  const detail = el("div", { class: "box wide", "data-testid": "hand-detail" }, el("p", { class: "muted" }, "Pick a hand to see its history."));
  const show = async (hand) => {
    const id = hand.hand_id ?? hand.id;
    const table = hand.table_id ?? hand.table;
    mount(detail, el("p", { class: "muted" }, "Loading…"));
    try {
      const full = await api.hand(table, id);
      const lines = handLines(full);
      mount(detail,
        el("h2", {}, `Hand #${id}`, " ",
          el("a", { class: "btn btn-small btn-primary", "data-testid": "open-replay", href: `#/replay/${encodeURIComponent(table)}/${encodeURIComponent(id)}` }, "Replay"),
          " ", exportLinks(table, id)),
        el("p", { class: "muted" }, `${full.table_name || table} · ${full.game ? mixedName(full.mixed, gameName(full.game)) : ""}`),
        lines.length ? el("ol", { class: "hand-log" }, lines.map((l) => el("li", {}, l))) : null);
    } catch (err) {
      mount(detail, el("p", { class: "form-error" }, plainError(err)));
    }
  };
  mount(root, el("div", { class: "page", "data-testid": "history" },
    el("div", { class: "box wide" },
      el("h2", {}, "Your last hands ", hands.length ? el("span", { class: "export-links" },
        el("button", { class: "btn btn-small", "data-testid": "export-all-pokerstars", onclick: () => api.download(api.exportUrl("pokerstars")) }, "Export all (PokerStars)"),
        el("button", { class: "btn btn-small", "data-testid": "export-all-phh", onclick: () => api.download(api.exportUrl("phh")) }, "Export all (PHH)")) : null),
      hands.length ? el("table", { class: "list", "data-testid": "hands" },
        el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Table"), el("th", {}, "Game"), el("th", {}, "Your cards"),
          el("th", { class: "hide-narrow" }, "Time"), el("th", { class: "num" }, "Result"))),
        el("tbody", {}, hands.map((h) => el("tr", { style: { cursor: "pointer" }, onclick: () => show(h), "data-hand": h.hand_id },
          el("td", {}, el("button", { class: "btn btn-small", type: "button" }, `#${h.hand_id ?? h.id}`)),
          el("td", { "data-testid": "hand-table" }, h.table_name ?? h.table ?? h.table_id ?? ""),
          el("td", { "data-testid": "hand-game" }, h.game ? mixedName(h.mixed, gameName(h.game)) : ""),
          el("td", { "data-testid": "hand-cards" }, cardsCell(h.my_cards)),
          el("td", { class: "hide-narrow" }, String(h.time ?? h.started_at ?? h.created_at ?? "").replace("T", " ").slice(0, 19)),
          el("td", { class: "num", "data-testid": "hand-result" }, resultOf(h) === null ? "" : formatMoney(resultOf(h), h.currency || "PLAY"))))))
        : el("p", { class: "muted" }, "You have not played any hands yet.")),
    detail));
  return null;
}
