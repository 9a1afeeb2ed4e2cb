// The lobby's Twister section (R-TWIST-11): choose a type, then a buy-in; the prize table of that buy-in is shown
// (R-TWIST-1) and "Play" registers (the room seats you when three are in). Input: riverboat.twister.lobby.offer().

import { el, formatMoney, mount } from "/js/util.js";
import { formatNumber, t as tr } from "/js/i18n.js";

const KINDS = new Set(["twister", "aog", "wild"]);

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
    const typeButtons = offer.types.map((t) => el("button", {  // the type's title in the player's language
      class: `tab twister-type${t.kind === state.kind ? " active" : ""}`, role: "tab",
      "aria-selected": t.kind === state.kind ? "true" : "false", "data-testid": `twister-type-${t.kind}`,
      onclick: () => { state.kind = t.kind; state.buyIn = null; state.status = ""; redraw(); } }, KINDS.has(t.kind) ? tr(`tkind.kind_${t.kind}`) : t.title));
    const buyIns = type ? type.buy_ins.map((b) => el("button", {
      class: `btn btn-small twister-buyin${b.buy_in === state.buyIn ? " active" : ""}`, "data-testid": `twister-buyin-${b.buy_in}`,
      "aria-pressed": b.buy_in === state.buyIn ? "true" : "false",
      onclick: () => { state.buyIn = b.buy_in; state.status = ""; redraw(); } }, formatMoney(b.buy_in, currency))) : [];
    const chosen = type?.buy_ins.find((b) => b.buy_in === state.buyIn);
    const details = chosen ? el("div", { class: "twister-details" },
      el("table", { class: "list twister-prizes", "data-testid": "twister-prizes" },
        el("thead", {}, el("tr", {}, el("th", { class: "num" }, tr("twister.multiplier")), el("th", { class: "num" }, type.ticket_prizes ? tr("twister.ticket") : tr("tournament.prize")),
          el("th", { class: "num" }, tr("twister.chance")))),
        el("tbody", {}, chosen.prizes.map((p) => el("tr", {},
          el("td", { class: "num" }, `${p.multiplier}x`),
          el("td", { class: "num" }, formatMoney(p.prize, currency),
            p.split.length ? el("span", { class: "muted" }, ` (${p.split.map((a) => formatMoney(a, currency)).join(" / ")})`) : ""),
          el("td", { class: "num" }, `${p.probability_percent}%`))))),
      el("div", { class: "twister-play-row" },
        el("button", { class: "btn btn-primary", "data-testid": "twister-play",
          onclick: () => { state.status = tr("twister.registering"); redraw(); Promise.resolve(play(state.kind, state.buyIn)); } },
          tr("twister.play", { amount: formatMoney(chosen.buy_in, currency) })),
        el("span", { class: "muted" }, tr("twister.format", { chips: formatNumber(type.starting_chips), count: type.starting_chips })),
        el("span", { class: "twister-status", "data-testid": "twister-status", role: "status" }, state.status)))
      : el("p", { class: "muted twister-hint" }, tr("twister.choose_buyin"));
    mount(root, el("section", { class: "twister-lobby", "data-testid": "twister-lobby" },
      el("div", { class: "tabs twister-types", role: "tablist" }, typeButtons),
      el("div", { class: "twister-buyins" }, buyIns), details));
  };
  redraw();
  return { setStatus: (text) => { state.status = text; redraw(); } };
}
