// Hand histories: the player's last hands (REST) and, for one hand, its events and PHH text.

import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { describeEvent } from "./table_model.js";
import { gameName } from "./games.js";

export async function renderHistory(root, ctx) {
  const data = await api.hands(20);
  const hands = Array.isArray(data) ? data : data.hands || [];
  const detail = el("div", { class: "box wide", "data-testid": "hand-detail" }, el("p", { class: "muted" }, "Pick a hand to see its history."));
  const show = async (hand) => {
    const id = hand.hand_id ?? hand.id;
    mount(detail, el("p", { class: "muted" }, "Loading…"));
    try {
      const full = await api.hand(id);
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
          el("td", {}, h.time ?? h.started_at ?? h.created_at ?? ""),
          el("td", { class: "num" }, h.result !== undefined && typeof h.result === "number" ? formatMoney(h.result, h.currency || "EUR") : String(h.result ?? "")))))))
        : el("p", { class: "muted" }, "You have not played any hands yet.")),
    detail));
  return null;
}
