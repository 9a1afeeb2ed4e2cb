// Renders one table from the TableStore model: seats around an oval felt (the player's own seat always at the
// bottom), cards for every game family, bets, pots and side pots, the dealer button, the action timer and time
// bank, the showdown with hand labels and highlighted winners, the action bar and the hand-history panel.

import { el, mount, formatMoney, formatSeconds } from "./util.js";
import { renderCard } from "./cards.js";
import { renderActionBar, decisionKey, handleShortcut } from "./action_bar.js";
import { structureName } from "./games.js";

/** Seat positions (percent of the felt) around an ellipse, index 0 at the bottom centre, clockwise. */
export function seatPosition(index, count, narrow = false) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  const rx = narrow ? 35 : 44;
  const brx = narrow ? 22 : 28;
  const dAngle = angle + 0.3;
  return {
    x: 50 + rx * Math.cos(angle), y: 50 + 41 * Math.sin(angle),
    // the bet in front of the seat, and the dealer button a little clockwise of it
    bx: 50 + brx * Math.cos(angle), by: 50 + 21 * Math.sin(angle),
    dx: 50 + (brx - 6) * Math.cos(dAngle), dy: 50 + 16 * Math.sin(dAngle),
  };
}

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {object} handlers {act(kind, fields), sit(seat), sitOut(), sitIn(), leave(), topUp(), lobby(), history()}
   */
  constructor(root, handlers, options = {}) {
    this.root = root;
    this.handlers = handlers;
    this.speed = Boolean(options.speed);
    this.ui = { amount: undefined, selected: new Set(), selectionKey: null };
    this.lastDecision = null;
    this.model = null;
    this.timerHandle = setInterval(() => this.tick(), 250);
    this.onKey = (ev) => handleShortcut(ev, this.root);
    document.addEventListener("keydown", this.onKey);
    this.skeleton();
  }

  destroy() {
    clearInterval(this.timerHandle);
    document.removeEventListener("keydown", this.onKey);
  }

  skeleton() {
    this.header = el("header", { class: "table-header" });
    this.felt = el("div", { class: "felt", "data-testid": "felt" });
    this.actions = el("div", { class: "action-area", "data-testid": "action-area" });
    this.panel = el("aside", { class: "side-panel", "data-testid": "side-panel" });
    mount(this.root,
      el("section", { class: "table-page" },
        this.header,
        el("div", { class: "table-main" },
          el("div", { class: "felt-wrap" }, this.felt),
          this.panel),
        this.actions));
  }

  render(model) {
    this.model = model;
    if (!model) return;
    this.root.dataset.family = model.family;
    this.root.dataset.game = model.game;
    this.renderHeader(model);
    this.renderFelt(model);
    const key = decisionKey(model);
    if (key !== this.lastDecision) {
      const keepSelection = this.ui.selectionKey === `${model.handId}|${model.street}`;
      if (!keepSelection) this.ui.selected = new Set();
      this.ui.selectionKey = `${model.handId}|${model.street}`;
      this.ui.amount = undefined;
      this.ui.sent = false;  // a new decision (or none): the action bar is live again
      this.lastDecision = key;
      this.renderActions(model);
    }
    this.renderPanel(model);
    this.tick();
  }

  /** Before the first hand (Speed Poker: while waiting in the pool). */
  renderWaiting(text) {
    if (this.model) return;
    mount(this.header, el("div", { class: "table-title" }, el("strong", {}, text)),
      el("div", { class: "table-controls" },
        el("button", { class: "btn btn-small", onclick: () => this.handlers.lobby() }, "Lobby"),
        el("button", { class: "btn btn-small btn-leave", "data-testid": "leave-table", onclick: () => this.handlers.leave() }, "Leave")));
    mount(this.actions, el("div", { class: "action-bar" }, el("div", { class: "action-wait", "data-testid": "action-wait" }, text)));
  }

  renderActions(model) {
    mount(this.actions, renderActionBar(model, { state: this.ui, act: (kind, fields) => this.handlers.act(kind, fields) }));
  }

  renderHeader(model) {
    const s = model.stakes;
    const money = (v) => formatMoney(v, model.currency);
    let stakes = "";
    if (model.family === "stud") stakes = `${money(s.smallBet || s.smallBlind)}/${money(s.bigBet || s.bigBlind)}${s.ante ? ` · ante ${money(s.ante)}` : ""}`;
    else stakes = `${money(s.smallBlind)}/${money(s.bigBlind)}${s.ante ? ` · ante ${money(s.ante)}` : ""}`;
    const hero = model.hero;
    const controls = el("div", { class: "table-controls" },
      el("button", { class: "btn btn-small", "data-testid": "back-to-lobby", onclick: () => this.handlers.lobby() }, "Lobby"));
    if (hero && this.speed) {
      // R-SPEED-1: Speed Fold is offered as soon as the player is dealt in, whether or not it is their turn.
      const canFold = !model.handOver && !hero.folded && !hero.allIn && !model.fastFolded && hero.cards.length > 0;
      controls.append(
        el("button", { class: "btn btn-small btn-fold", "data-testid": "fast-fold", disabled: !canFold,
          onclick: () => this.handlers.fastFold() }, "Speed Fold"),
        el("button", { class: "btn btn-small btn-leave", "data-testid": "leave-table", onclick: () => this.handlers.leave() }, "Leave pool"));
    } else if (hero) {
      if (hero.sittingOut) controls.append(el("button", { class: "btn btn-small", "data-testid": "sit-in", onclick: () => this.handlers.sitIn() }, "Sit in"));
      else controls.append(el("button", { class: "btn btn-small", "data-testid": "sit-out", onclick: () => this.handlers.sitOut() }, "Sit out"));
      controls.append(
        el("button", { class: "btn btn-small", "data-testid": "top-up", onclick: () => this.handlers.topUp() }, "Top up"),
        el("button", { class: "btn btn-small btn-leave", "data-testid": "leave-table", onclick: () => this.handlers.leave() }, "Leave"));
    }
    mount(this.header,
      el("div", { class: "table-title" },
        el("strong", { "data-testid": "table-name" }, model.name),
        el("span", { class: "table-game", "data-testid": "table-game" }, ` ${model.gameName} · ${structureName(model.structure)} · ${stakes}`),
        model.handId !== null ? el("span", { class: "hand-id", "data-testid": "hand-id", "data-hand-id": model.handId }, ` · Hand #${model.handId}`) : null),
      controls);
  }

  renderFelt(model) {
    const n = model.seats.length;
    const offset = model.heroSeat !== null ? model.heroSeat : 0;
    const narrow = this.felt.clientWidth > 0 && this.felt.clientWidth < 600;
    const parts = [];
    parts.push(el("div", { class: "felt-logo" }, "Riverboat"));
    parts.push(this.renderCenter(model));
    model.seats.forEach((seat) => {
      const pos = seatPosition((seat.seat - offset + n) % n, n, narrow);
      parts.push(this.renderSeat(model, seat, pos));
      if (!seat.empty && seat.bet > 0) {
        parts.push(el("div", { class: "bet-chip", "data-testid": `bet-${seat.seat}`, style: { left: `${pos.bx}%`, top: `${pos.by}%` } },
          el("span", { class: "chip-icon", "aria-hidden": "true" }), formatMoney(seat.bet, model.currency)));
      }
      if (model.button !== null && Number(model.button) === seat.seat && model.family !== "stud") {
        parts.push(el("div", { class: "dealer-button", "data-testid": "dealer-button", title: "Dealer", style: { left: `${pos.dx}%`, top: `${pos.dy}%` } }, "D"));
      }
    });
    mount(this.felt, ...parts);
  }

  renderCenter(model) {
    const center = el("div", { class: "felt-center" });
    if (model.family === "flop") {
      const boards = model.runs && model.runs.length > 1 ? model.runs : [model.board];
      boards.forEach((board, i) => {
        const row = el("div", { class: "board", "data-testid": i === 0 ? "board" : `board-${i + 1}` });
        if (boards.length > 1) row.append(el("span", { class: "run-label" }, `Run ${i + 1}`));
        for (const code of board) row.append(renderCard(code));
        center.append(row);
      });
    }
    const pots = el("div", { class: "pots", "data-testid": "pots" });
    if (model.pots.length) {
      model.pots.forEach((pot, i) => pots.append(el("div", { class: "pot", "data-testid": `pot-${i}` },
        `${pot.label}: ${formatMoney(pot.amount, model.currency)}`)));
    }
    if (model.potTotal > 0) pots.append(el("div", { class: "pot-total", "data-testid": "pot-total" }, `Total pot: ${formatMoney(model.potTotal, model.currency)}`));
    center.append(pots);
    return center;
  }

  renderSeat(model, seat, pos) {
    const style = { left: `${pos.x}%`, top: `${pos.y}%` };
    if (seat.empty) {
      const canSit = model.heroSeat === null;
      return el("div", { class: "seat seat--empty", style, "data-seat": seat.seat },
        canSit ? el("button", { class: "btn btn-small btn-sit", "data-testid": `sit-${seat.seat}`, onclick: () => this.handlers.sit(seat.seat) }, "Sit here")
          : el("span", { class: "seat-empty-label" }, "Empty"));
    }
    const classes = ["seat"];
    if (seat.isHero) classes.push("seat--hero");
    if (seat.folded) classes.push("seat--folded");
    if (seat.acting) classes.push("seat--acting");
    if (seat.winner) classes.push("seat--winner");
    if (seat.sittingOut) classes.push("seat--out");
    const cards = el("div", { class: `seat-cards seat-cards--${model.family}`, "data-testid": `cards-${seat.seat}` });
    const selectable = seat.isHero && model.legal && model.legal.kinds.some((k) => k === "discard" || k === "draw");
    seat.cards.forEach((card) => {
      // R-GEN-5: in stud-type games the holder sees their own face-down cards greyed.
      const ownDown = seat.isHero && model.family === "stud" && !card.up && card.code;
      const selected = selectable && card.code && this.ui.selected.has(card.code);
      const node = renderCard(card.code, {
        greyed: ownDown || selected, selectable: selectable && Boolean(card.code), selected,
        small: !seat.isHero && seat.cards.length >= 4,
      });
      node.classList.add(card.up ? "card--up" : "card--down");
      if (selectable && card.code) node.addEventListener("click", () => this.toggleDiscard(card.code));
      cards.append(node);
    });
    const status = [];
    if (seat.allIn) status.push("All-in");
    if (seat.folded) status.push("Folded");
    if (seat.sittingOut) status.push("Sitting out");
    else if (seat.waiting && model.family !== "stud") status.push("Waiting for BB");
    if (seat.disconnected) status.push("Disconnected");
    if (seat.discarded !== null && seat.discarded !== undefined && model.family === "draw") {
      const n = Array.isArray(seat.discarded) ? seat.discarded.length : Number(seat.discarded);
      status.push(n ? `Drew ${n}` : "Stands pat");
    }
    const info = el("div", { class: "seat-info" },
      el("div", { class: "seat-name", "data-testid": `name-${seat.seat}` }, seat.alias),
      el("div", { class: "seat-stack", "data-testid": `stack-${seat.seat}` }, formatMoney(seat.stack, model.currency)),
      status.length ? el("div", { class: "seat-status" }, status.join(" · ")) : null,
      seat.acting && model.timer && Number(model.timer.seat) === seat.seat ? el("div", { class: "seat-timer", "data-testid": `timer-${seat.seat}` },
        el("div", { class: "seat-timer-bar" }), el("span", { class: "seat-timer-text" })) : null);
    const labels = [seat.label, ...seat.labels].filter(Boolean);
    return el("div", { class: classes.join(" "), style, "data-seat": seat.seat, "data-testid": `seat-${seat.seat}` },
      cards, info,
      labels.length ? el("div", { class: "hand-label", "data-testid": `label-${seat.seat}` }, labels.join(" / ")) : null,
      seat.winner && seat.won > 0 ? el("div", { class: "won", "data-testid": `won-${seat.seat}` }, `+${formatMoney(seat.won, model.currency)}`) : null);
  }

  toggleDiscard(code) {
    if (this.ui.selected.has(code)) this.ui.selected.delete(code);
    else this.ui.selected.add(code);
    this.renderFelt(this.model);
    this.renderActions(this.model);
  }

  renderPanel(model) {
    const log = el("ol", { class: "hand-log", "data-testid": "hand-log" }, model.log.slice(-40).map((line) => el("li", {}, line)));
    const hands = el("div", { class: "last-hands", "data-testid": "last-hands" },
      model.lastHands.length ? model.lastHands.map((h) => el("details", { class: "last-hand" },
        el("summary", {}, `Hand #${h.handId ?? "?"}`),
        el("ol", {}, h.lines.map((line) => el("li", {}, line)))))
        : el("p", { class: "muted" }, "No finished hands yet."));
    mount(this.panel,
      el("h3", {}, "This hand"), log,
      el("h3", {}, "Last hands ", el("button", { class: "btn btn-small", "data-testid": "open-history", onclick: () => this.handlers.history() }, "All")),
      hands);
    log.scrollTop = log.scrollHeight;
  }

  /** Update the countdown of the acting seat (action timer, then time bank; or the 30 s draw timer). */
  tick() {
    const model = this.model;
    if (!model || !model.timer) return;
    const timer = model.timer;
    const node = this.felt.querySelector(`[data-testid="timer-${timer.seat}"]`);
    if (!node) return;
    const left = (timer.deadline - Date.now()) / 1000;
    const bar = node.querySelector(".seat-timer-bar");
    const text = node.querySelector(".seat-timer-text");
    const fraction = Math.max(0, Math.min(1, left / timer.total));
    bar.style.width = `${fraction * 100}%`;
    node.classList.toggle("seat-timer--low", left < 5);
    const what = timer.kind === "draw" ? "draw" : timer.usingBank ? "time bank" : "";
    text.textContent = `${formatSeconds(left)}${what ? " " + what : ""}${timer.timebank && !timer.usingBank ? ` + ${formatSeconds(timer.timebank)} bank` : ""}`;
  }
}
