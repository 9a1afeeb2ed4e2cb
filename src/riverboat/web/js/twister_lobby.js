// The lobby's Twister section (R-TWIST-11): choose a type, then a buy-in; the prize table of that buy-in is shown
// (R-TWIST-1) and "Play" registers (the room seats you when three are in). Input: riverboat.twister.lobby.offer().

import { el, formatMoney, mount } from "/js/util.js";

/**
 * Render into `root`. `play(kind, buyIn)` is called on "Play" and may return a promise; while it is pending and
 * after it resolves the section shows `status` text set with the returned `setStatus(text)`. `kind` and `buyIn`
 * preselect a choice (ignored if the offer has no such type or buy-in).
 */
export function renderTwisterLobby(root, offer, { currency = "EUR", play = () => {}, kind = null, buyIn = null } = {}) {
  const chosen0 = offer.types.find((t) => t.kind === kind);
  const state = { kind: chosen0 ? kind : offer.types[0]?.kind, status: "",
    buyIn: chosen0 && chosen0.buy_ins.some((b) => b.buy_in === buyIn) ? buyIn : null };
  const redraw = () => {
    const type = offer.types.find((t) => t.kind === state.kind);
    const typeButtons = offer.types.map((t) => el("button", {
      class: `tab twister-type${t.kind === state.kind ? " active" : ""}`, role: "tab",
      "aria-selected": t.kind === state.kind ? "true" : "false", "data-testid": `twister-type-${t.kind}`,
      onclick: () => { state.kind = t.kind; state.buyIn = null; state.status = ""; redraw(); } }, t.title));
    const buyIns = type ? type.buy_ins.map((b) => el("button", {
      class: `btn btn-small twister-buyin${b.buy_in === state.buyIn ? " active" : ""}`, "data-testid": `twister-buyin-${b.buy_in}`,
      "aria-pressed": b.buy_in === state.buyIn ? "true" : "false",
      onclick: () => { state.buyIn = b.buy_in; state.status = ""; redraw(); } }, formatMoney(b.buy_in, currency))) : [];
    const chosen = type?.buy_ins.find((b) => b.buy_in === state.buyIn);
    const details = chosen ? el("div", { class: "twister-details" },
      el("table", { class: "list twister-prizes", "data-testid": "twister-prizes" },
        el("thead", {}, el("tr", {}, el("th", { class: "num" }, "Multiplier"), el("th", { class: "num" }, type.ticket_prizes ? "Ticket" : "Prize"),
          el("th", { class: "num" }, "Chance"))),
        el("tbody", {}, chosen.prizes.map((p) => el("tr", {},
          el("td", { class: "num" }, `${p.multiplier}x`),
          el("td", { class: "num" }, formatMoney(p.prize, currency),
            p.split.length ? el("span", { class: "muted" }, ` (${p.split.map((a) => formatMoney(a, currency)).join(" / ")})`) : ""),
          el("td", { class: "num" }, `${p.probability_percent}%`))))),
      el("div", { class: "twister-play-row" },
        el("button", { class: "btn btn-primary", "data-testid": "twister-play",
          onclick: () => { state.status = "Registering…"; redraw(); Promise.resolve(play(state.kind, state.buyIn)); } },
          `Play ${formatMoney(chosen.buy_in, currency)}`),
        el("span", { class: "muted" }, `${type.starting_chips} chips · 3 players · No-Limit Hold'em turbo`),
        el("span", { class: "twister-status", "data-testid": "twister-status", role: "status" }, state.status)))
      : el("p", { class: "muted twister-hint" }, "Choose a buy-in to see its prizes and their chances.");
    mount(root, el("section", { class: "twister-lobby", "data-testid": "twister-lobby" },
      el("div", { class: "tabs twister-types", role: "tablist" }, typeButtons),
      el("div", { class: "twister-buyins" }, buyIns), details));
  };
  redraw();
  return { setStatus: (text) => { state.status = text; redraw(); } };
}
