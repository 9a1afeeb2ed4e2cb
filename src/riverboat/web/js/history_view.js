// Hand histories: the player's last hands (REST) and, for one hand, its events and PHH text.

import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { describeEvent } from "./table_model.js";
import { gameName } from "./games.js";

export async function renderHistory(root, ctx) {
  const data = await api.hands(20);
  const hands = Array.isArray(data) ? data : data.hands || [];
  const me = ctx.session.me || {};
  const resultOf = (h) => {
    if (typeof h.result === "number") return h.result;
    const changes = h.changes || {};
    const mine = changes[String(me.player_id)];
    return typeof mine === "number" ? mine : null;
  };
  const detail = el("div", { class: "box wide", "data-testid": "hand-detail" }, el("p", { class: "muted" }, "Pick a hand to see its history."));
  const show = async (hand) => {
    const id = hand.hand_id ?? hand.id;
    mount(detail, el("p", { class: "muted" }, "Loading…"));
    try {
      const full = await api.hand(hand.table_id ?? hand.table, id);
      const model = { seats: [], currency: hand.currency || full.currency || "EUR" };
      const lines = (full.events || []).map((e) => describeEvent(e, model)).filter(Boolean);
      mount(detail, el("h2", {}, `Hand #${id}`),
        lines.length ? el("ol", { class: "hand-log" }, lines.map((l) => el("li", {}, l))) : null,
        full.phh ? el("details", {}, el("summary", {}, "PHH text"), el("pre", { style: { whiteSpace: "pre-wrap" } }, full.phh)) : null);
    } catch (err) {
      mount(detail, el("p", { class: "form-error" }, err.message));
    }
  };
  mount(root, el("div", { class: "page", "data-testid": "history" },
    el("div", { class: "box wide" }, el("h2", {}, "Your last hands"),
      hands.length ? el("table", { class: "list", "data-testid": "hands" },
        el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Table"), el("th", {}, "Game"), el("th", {}, "Time"), el("th", { class: "num" }, "Result"))),
        el("tbody", {}, hands.map((h) => el("tr", { style: { cursor: "pointer" }, onclick: () => show(h) },
          el("td", {}, el("button", { class: "btn btn-small", type: "button" }, `#${h.hand_id ?? h.id}`)),
          el("td", {}, h.table_name ?? h.table ?? h.table_id ?? ""),
          el("td", {}, h.game ? gameName(h.game) : ""),
          el("td", {}, String(h.time ?? h.started_at ?? h.created_at ?? "").replace("T", " ").slice(0, 19)),
          el("td", { class: "num", "data-testid": "hand-result" }, resultOf(h) === null ? "" : formatMoney(resultOf(h), h.currency || "PLAY"))))))
        : el("p", { class: "muted" }, "You have not played any hands yet.")),
    detail));
  return null;
}
