// The tournament table's HUD (issue #11 item 8), drawn above the shared table client (table_view.js): level,
// blinds and ante, the time to the next level or break counted down on the client from the server's seconds
// (`seconds_left`, `next_break_in` of the `state` frame, docs/protocol.md), the break, the player's place by chips
// / players left, the average stack, hand-for-hand on the bubble, the balancing message when the player is moved
// (R-TOURN-BAL-3), the re-buy / add-on buttons in their windows and the re-buy decision after a bust
// (R-TOURN-REBUY-3), and the finished player's place and prize (R-TOURN-GEN-5). No DOM outside its own box.

import { el, mount, formatMoney } from "./util.js";
import { formatNumber, formatOrdinal, t as tr } from "./i18n.js";

export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

const ordinal = formatOrdinal;

export class TournamentHud {
  /** `actions`: {rebuy(), addon(), decline()} (each returns a promise). `now`: the clock (tests). */
  constructor(root, actions, { now = () => Date.now() } = {}) {
    this.actions = actions;
    this.now = now;
    this.data = null;
    this.at = 0;
    this.offer = null;
    this.box = el("div", { class: "tourney-hud", "data-testid": "tourney-hud" });
    this.message = el("div", { class: "tourney-message hidden", "data-testid": "tourney-message", role: "status" });
    this.decision = el("div", { class: "tourney-decision hidden", "data-testid": "rebuy-decision" });
    this.result = el("div", { class: "tourney-result hidden", "data-testid": "tourney-result", role: "status" });
    mount(root, this.result, this.box, this.message, this.decision);
    this.timer = setInterval(() => this.tick(), 500);
  }

  destroy() { clearInterval(this.timer); }

  /** A `state` (or `level` / `break`) frame's data: the HUD fields; counted down from now. */
  update(data) {
    this.data = { ...(this.data || {}), ...data };
    this.at = this.now();
    this.draw();
  }

  left(key) {
    const v = this.data && this.data[key];
    if (v === null || v === undefined) return null;
    return Math.max(0, v - (this.now() - this.at) / 1000);
  }

  /** The countdown line: to the next level, or to the end of the break, and to the next break. */
  clockLine() {
    const d = this.data;
    if (this.over) return tr("hud.over");
    const left = this.left("seconds_left");
    const toBreak = this.left("next_break_in");
    let clock = "";
    if (d.on_break) clock = left !== null ? tr("hud.break_resumes", { time: clockText(left) }) : tr("hud.break");
    else if (left !== null) clock = tr("hud.next_level", { time: clockText(left) });
    if (!d.on_break && toBreak !== null && toBreak > 0 && (left === null || toBreak > left + 1)) clock += ` · ${tr("hud.break_in", { time: clockText(toBreak) })}`;
    return clock || "—";
  }

  draw() {
    const d = this.data;
    if (!d) return;
    const blinds = `${formatNumber(d.small_blind)}/${formatNumber(d.big_blind)}${d.ante ? ` ${tr("stakes.ante", { amount: formatNumber(d.ante) })}` : ""}`;
    const cell = (id, label, value) => el("div", { class: "hud-cell", "data-hud": id }, el("span", { class: "hud-label" }, label), el("b", {}, value));
    const buttons = [];
    if (d.rebuy && !this.offer && !this.over) {
      buttons.push(el("button", { class: "btn btn-small btn-primary", "data-testid": "hud-rebuy", onclick: () => this.actions.rebuy() }, tr("hud.rebuy")));
    }
    if (d.addon && !this.over) {
      buttons.push(el("button", { class: "btn btn-small btn-primary", "data-testid": "hud-addon", onclick: () => this.actions.addon() }, tr("hud.addon")));
    }
    mount(this.box,
      cell("level", tr("tournament.level"), d.on_break ? `${d.level} · ${tr("hud.break_short")}` : String(d.level)),
      cell("blinds", tr("tournament.blinds"), blinds),
      el("div", { class: `hud-cell hud-clock${d.on_break ? " on-break" : ""}`, "data-hud": "clock", "data-testid": "hud-clock" }, this.clockLine()),
      cell("place", this.over ? tr("hud.finished") : tr("tournament.place"), this.over ? this.place
        : d.rank ? `${d.rank} / ${d.players_left}` : tr("hud.n_left", { count: d.players_left })),
      cell("players", tr("tournament.players_left"), tr("tournament.n_of_max", { n: d.players_left, max: d.entrants })),
      cell("average", tr("hud.average_stack"), formatNumber(d.average_stack)),
      d.hand_for_hand ? el("div", { class: "hud-cell hud-h4h", "data-testid": "hud-h4h" }, tr("hud.h4h")) : null,
      buttons.length ? el("div", { class: "hud-cell hud-buttons" }, buttons) : null);
    this.drawOffer();
  }

  /** Every half second: only the countdowns' text changes (the buttons stay the same buttons). */
  tick() {
    const clock = this.data && this.box.querySelector("[data-hud='clock']");
    if (clock) clock.textContent = this.clockLine();
    const countdown = this.offer && this.decision.querySelector("[data-testid='rebuy-countdown']");
    if (countdown) countdown.textContent = clockText(Math.max(0, (this.offer.until - this.now()) / 1000));
  }

  /** A moved / hand-for-hand / final-table line: the last three stay, newest last. */
  say(text) {
    if (!text) return;
    this.message.append(el("div", { class: "tourney-line" }, text));
    while (this.message.childElementCount > 3) this.message.firstElementChild.remove();
    this.message.classList.remove("hidden");
  }

  /** R-TOURN-REBUY-3: the busted player's decision, with its countdown. */
  rebuyOffer(data) {
    this.offer = { ...data, until: this.now() + 1000 * data.seconds };
    this.draw();
  }

  closeOffer() {
    this.offer = null;
    this.draw();
  }

  drawOffer() {
    const o = this.offer;
    this.decision.classList.toggle("hidden", !o);
    if (!o) { mount(this.decision); return; }
    const left = Math.max(0, (o.until - this.now()) / 1000);
    const busy = (fn) => async (ev) => { ev.target.disabled = true; try { await fn(); } finally { ev.target.disabled = false; } };
    mount(this.decision,
      el("p", {}, o.fee ? tr("hud.rebuy_offer_fee", { chips: formatNumber(o.chips), price: formatMoney(o.price + (o.fee || 0), o.currency), pool: formatMoney(o.price, o.currency), fee: formatMoney(o.fee, o.currency), count: o.chips })
        : tr("hud.rebuy_offer", { chips: formatNumber(o.chips), price: formatMoney(o.price, o.currency), count: o.chips }), " ",
      el("b", { "data-testid": "rebuy-countdown" }, clockText(left)), ` ${tr("hud.left_to_decide")}`),
      el("button", { class: "btn btn-primary", "data-testid": "rebuy-accept", onclick: busy(() => this.actions.rebuy()) }, tr("hud.rebuy")),
      " ",
      el("button", { class: "btn", "data-testid": "rebuy-decline", onclick: busy(() => this.actions.decline()) }, tr("hud.decline")));
  }

  /** R-TOURN-GEN-5: the player's place and prize, at once. */
  finished(data, currency) {
    this.offer = null;
    this.over = true;
    const place = data.place_to && data.place_to !== data.place ? `${ordinal(data.place)}–${ordinal(data.place_to)}` : ordinal(data.place);
    this.place = place;
    // The last state was sent before the player's last hand: as the player is out (or has won) the players left
    // are those placed above them, and the chips in play are shared among them (the winner holds them all).
    const d = this.data;
    if (d && Number.isInteger(data.place) && data.place >= 1) {
      const left = Math.max(1, data.place - 1);
      if (d.players_left && d.players_left > left) {
        if (d.average_stack) d.average_stack = Math.round((d.average_stack * d.players_left) / left);
        d.players_left = left;
        if (d.rank) d.rank = null;
      }
    }
    const won = data.prize ? tr("hud.you_won_prize", { amount: formatMoney(data.prize, currency) }) : tr("hud.no_prize");
    mount(this.result, el("b", { "data-testid": "tourney-place" }, data.place === 1 ? tr("hud.won_tournament") : tr("tournament.you_finished", { place })), " ", won);
    this.result.classList.remove("hidden");
    this.draw();
  }
}
