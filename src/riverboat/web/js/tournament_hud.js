// The tournament table's HUD (issue #11 item 8), drawn above the shared table client (table_view.js): level,
// blinds and ante, the time to the next level or break counted down on the client from the server's seconds
// (`seconds_left`, `next_break_in` of the `state` frame, docs/protocol.md), the break, the player's place by chips
// / players left, the average stack, hand-for-hand on the bubble, the balancing message when the player is moved
// (R-TOURN-BAL-3), the re-buy / add-on buttons in their windows and the re-buy decision after a bust
// (R-TOURN-REBUY-3), and the finished player's place and prize (R-TOURN-GEN-5). No DOM outside its own box.

import { el, mount, formatMoney } from "./util.js";

export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] || s[v] || s[0]}`;
}

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
    if (this.over) return "Your tournament is over";
    const left = this.left("seconds_left");
    const toBreak = this.left("next_break_in");
    let clock = "";
    if (d.on_break) clock = left !== null ? `Break: play resumes in ${clockText(left)}` : "Break";
    else if (left !== null) clock = `Next level in ${clockText(left)}`;
    if (!d.on_break && toBreak !== null && toBreak > 0 && (left === null || toBreak > left + 1)) clock += ` · break in ${clockText(toBreak)}`;
    return clock || "—";
  }

  draw() {
    const d = this.data;
    if (!d) return;
    const blinds = `${d.small_blind}/${d.big_blind}${d.ante ? ` ante ${d.ante}` : ""}`;
    const cell = (id, label, value) => el("div", { class: "hud-cell", "data-hud": id }, el("span", { class: "hud-label" }, label), el("b", {}, value));
    const buttons = [];
    if (d.rebuy && !this.offer && !this.over) {
      buttons.push(el("button", { class: "btn btn-small btn-primary", "data-testid": "hud-rebuy", onclick: () => this.actions.rebuy() }, "Re-buy"));
    }
    if (d.addon && !this.over) {
      buttons.push(el("button", { class: "btn btn-small btn-primary", "data-testid": "hud-addon", onclick: () => this.actions.addon() }, "Add-on"));
    }
    mount(this.box,
      cell("level", "Level", d.on_break ? `${d.level} · break` : String(d.level)),
      cell("blinds", "Blinds", blinds),
      el("div", { class: `hud-cell hud-clock${d.on_break ? " on-break" : ""}`, "data-hud": "clock", "data-testid": "hud-clock" }, this.clockLine()),
      cell("place", this.over ? "Finished" : "Place", this.over ? this.place
        : d.rank ? `${d.rank} / ${d.players_left}` : `${d.players_left} left`),
      cell("players", "Players left", `${d.players_left} of ${d.entrants}`),
      cell("average", "Average stack", String(d.average_stack)),
      d.hand_for_hand ? el("div", { class: "hud-cell hud-h4h", "data-testid": "hud-h4h" }, "Hand-for-hand: every table plays one hand at a time") : null,
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
      el("p", {}, `You are out of chips. Re-buy ${o.chips} chips for ${formatMoney(o.price + (o.fee || 0), o.currency)}`
        + `${o.fee ? ` (${formatMoney(o.price, o.currency)} to the prize pool + ${formatMoney(o.fee, o.currency)} fee)` : ""}? `,
      el("b", { "data-testid": "rebuy-countdown" }, clockText(left)), " left to decide."),
      el("button", { class: "btn btn-primary", "data-testid": "rebuy-accept", onclick: busy(() => this.actions.rebuy()) }, "Re-buy"),
      " ",
      el("button", { class: "btn", "data-testid": "rebuy-decline", onclick: busy(() => this.actions.decline()) }, "Decline"));
  }

  /** R-TOURN-GEN-5: the player's place and prize, at once. */
  finished(data, currency) {
    this.offer = null;
    this.over = true;
    const place = data.place_to && data.place_to !== data.place ? `${ordinal(data.place)}-${ordinal(data.place_to)}` : ordinal(data.place);
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
    const won = data.prize ? `You won ${formatMoney(data.prize, currency)}: it is in your balance.` : "No prize this time.";
    mount(this.result, el("b", { "data-testid": "tourney-place" }, data.place === 1 ? "You won the tournament!" : `You finished ${place}.`), " ", won);
    this.result.classList.remove("hidden");
    this.draw();
  }
}
