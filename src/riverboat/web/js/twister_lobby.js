// The lobby's Twister section (R-TWIST-11): choose a type, then a buy-in; the prize table of that buy-in is shown
// (R-TWIST-1) and "Play" registers (the room seats you when three are in). Input: riverboat.twister.lobby.offer().

import { el, formatMoney, mount } from "/js/util.js";

/**
 * Render into `root`. `play(kind, buyIn)` is called on "Play" and may return a promise; while it is pending and
 * after it resolves the section shows `status` text set with the returned `setStatus(text)`.
 */
export function renderTwisterLobby(root, offer, { currency = "EUR", play = () => {} } = {}) {
  const state = { kind: offer.types[0]?.kind, buyIn: null, status: "" };
  const redraw = () => {
    const type = offer.types.find((t) => t.kind === state.kind);
    const typeButtons = offer.types.map((t) => el("button", {
      class: `twister-type${t.kind === state.kind ? " active" : ""}`, "data-testid": `twister-type-${t.kind}`,
      onclick: () => { state.kind = t.kind; state.buyIn = null; state.status = ""; redraw(); } }, t.title));
    const buyIns = type ? type.buy_ins.map((b) => el("button", {
      class: `twister-buyin${b.buy_in === state.buyIn ? " active" : ""}`, "data-testid": `twister-buyin-${b.buy_in}`,
      onclick: () => { state.buyIn = b.buy_in; state.status = ""; redraw(); } }, formatMoney(b.buy_in, currency))) : [];
    const chosen = type?.buy_ins.find((b) => b.buy_in === state.buyIn);
    const details = chosen ? el("div", { class: "twister-details" },
      el("table", { class: "twister-prizes", "data-testid": "twister-prizes" },
        el("thead", {}, el("tr", {}, el("th", {}, "Multiplier"), el("th", {}, type.ticket_prizes ? "Ticket" : "Prize"),
          el("th", {}, "Chance"))),
        el("tbody", {}, chosen.prizes.map((p) => el("tr", {},
          el("td", {}, `${p.multiplier}x`),
          el("td", {}, formatMoney(p.prize, currency),
            p.split.length ? el("span", { class: "muted" }, ` (${p.split.map((a) => formatMoney(a, currency)).join(" / ")})`) : ""),
          el("td", {}, `${p.probability_percent}%`))))),
      el("p", { class: "muted" }, `${type.starting_chips} chips · 3 players · No-Limit Hold'em turbo`),
      el("button", { class: "btn-primary", "data-testid": "twister-play",
        onclick: () => { state.status = "Registering…"; redraw(); Promise.resolve(play(state.kind, state.buyIn)); } },
        `Play ${formatMoney(chosen.buy_in, currency)}`),
      el("span", { class: "twister-status", "data-testid": "twister-status" }, state.status)) : null;
    mount(root, el("section", { class: "twister-lobby", "data-testid": "twister-lobby" },
      el("div", { class: "twister-types" }, typeButtons),
      el("div", { class: "twister-buyins" }, buyIns), details));
  };
  redraw();
  return { setStatus: (text) => { state.status = text; redraw(); } };
}
