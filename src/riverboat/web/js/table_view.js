// Renders one table from the TableStore model: seats around an oval felt (the player's own seat always at the
// bottom), cards for every game family, bets, pots and side pots, the dealer button, the action timer and time
// bank, the showdown with hand labels, highlighted winners and winning cards, the result of the hand, the action
// bar or the pre-action buttons, and the side panel (hand log, last hands, chat).
//
// The whole table is a pure description (vdom.js h()) of the model, the local UI state and the clock; every change
// is patched into the DOM, so only what changed is touched: a bet changes one chip and one stack, a button under
// the pointer stays the same button, an opened "Last hands" entry stays open.

import { formatMoney, formatSeconds } from "./util.js";
import { h, patch } from "./vdom.js";
import { cardVNode } from "./cards.js";
import { actionArea, decisionKey, handleShortcut, choosePreAction } from "./action_bar.js";
import { sidePanel } from "./side_panel.js";
import { structureLabel, stakesLabel } from "./games.js";
import { settings } from "./settings.js";
import { play } from "./sounds.js";
import { t } from "./i18n.js";
import { handName } from "./hand_names.js";
import { clearDealerButton } from "./dealer_place.js";
import { openRules } from "./rules_view.js";

/** Seat positions (percent of the felt) around an ellipse, index 0 at the bottom centre, clockwise. */
export function seatPosition(index, count, narrow = false, tile = false) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  const rx = narrow ? 38 : 44;
  const brx = narrow ? 22 : 28;
  const dAngle = angle + 0.3;
  const pos = {
    x: 50 + rx * Math.cos(angle), y: 50 + 41 * Math.sin(angle),
    // the bet in front of the seat, and the dealer button a little clockwise of it
    bx: 50 + brx * Math.cos(angle), by: 50 + 21 * Math.sin(angle),
    dx: 50 + (brx - 6) * Math.cos(dAngle), dy: 50 + 16 * Math.sin(dAngle),
  };
  if (tile) return { ...pos, ...tileMarks(angle, pos, count) };
  return narrow ? { ...pos, ...phoneMarks(angle, pos) } : pos;
}

/** The bet and the dealer button of a seat on a phone's tall felt (390 px): the board, the pots and the result of
 * the hand (or of the last hand, into the next one) fill the middle column, so a side seat's bet goes under the
 * seat (a little outward) and its button under the bet (above the seat for a lower diagonal seat of 8), the top
 * seat's button beside it and the player's right of the player's name box; only the top seat's and the player's bets
 * stay in the column, above and below the board. */
export function phoneMarks(angle, pos) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const side = c < 0 ? -1 : 1;
  if (s < -0.9) return { bx: pos.bx, by: pos.by, dx: pos.x + (c <= 0.01 ? 17 : -17), dy: pos.y + 2 };
  if (s > 0.9) return { bx: pos.bx, by: pos.by, dx: 68, dy: 96 };
  const bx = pos.x + side * 3;
  // a lower diagonal seat (8 seats) has the player's cards beside it: its bet and button go above it
  if (s > 0.6) return { bx, by: pos.y - 8.5, dx: bx, dy: pos.y - 14 };
  return { bx, by: pos.y + 9.5, dx: bx, dy: pos.y + 15 };
}

/** The bet and the dealer button of a seat on a tile's small felt (four tables at 1366x768: about 370x200 px),
 * where the board and the pots fill the middle and the ellipse put them on the board's outer cards: a seat in the
 * upper half bets in the band between the top seat and the board, one in the lower half between the pots and the
 * player's cards, a seat at the side (or on a diagonal of 8 seats) beside the board, level with it; the dealer
 * button goes next to the bet on the side of the table's centre line, or by the seat when that is the board.
 * The bands follow `.tile .felt-center` in table.css. */
export function tileMarks(angle, pos, count) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const side = c < 0 ? -1 : 1;
  const ABOVE = 27.6;
  const BELOW = 65.8;
  let bx;
  let by;
  let dx;
  let dy;
  if (s < -0.85) {                 // at the top: the button beside the seat
    bx = 50 + 28 * c; by = ABOVE; dx = pos.x + (c <= 0.01 ? 16 : -16); dy = pos.y + 2;
  } else if (s < -0.6) {           // upper diagonal (8 seats): under the seat, beside the board
    bx = 50 + side * 27.5; by = 40; dx = pos.x - side * 14; dy = pos.y - 6;
  } else if (s < -0.2) {           // upper side (6 seats): above the board's corner, the button over the bet
    bx = 50 + side * 21.5; by = ABOVE; dx = bx; dy = ABOVE - 9.5;
  } else if (s <= 0.2) {           // level with the board, the button by the pots
    bx = 50 + side * 27.4; by = 49; dx = 50 + side * 17.6; dy = 56.5;
  } else if (s <= 0.6) {           // lower side (6 seats): between the pots and the player's cards, the button under
    bx = 50 + side * 18; by = BELOW; dx = bx; dy = BELOW + 9.5;
  } else if (s <= 0.9) {           // lower diagonal (8 seats): above the seat, the button by the pots
    bx = 50 + side * 27.8; by = 58.5; dx = 50 + side * 17.6; dy = 58.5;
  } else if (count < 7) {          // at the bottom: the player; the button left of the player's cards
    bx = 50; by = BELOW; dx = 36; dy = 80;
  } else {                         // (with 7 seats or more a lower diagonal seat is there: left of the bet)
    bx = 50; by = BELOW; dx = 36.5; dy = 66;
  }
  return { bx, by, dx, dy };
}

const pct = (v) => `${v.toFixed(2)}%`;

/** Scroll the hero's seat (cards, name and stack) into view above the action bar, on a phone. */
function heroAboveActionBar(root) {
  if (!window.matchMedia("(max-width: 640px)").matches) return;
  const hero = root.querySelector(".seat--hero");
  const bar = root.querySelector("[data-testid='action-area']");
  if (!hero || !bar) return;
  const seat = hero.getBoundingClientRect();
  const top = bar.getBoundingClientRect().top;
  if (seat.top >= 0 && seat.bottom <= top) return;
  hero.style.scrollMarginBottom = `${Math.ceil(window.innerHeight - top) + 8}px`;
  hero.scrollIntoView({ block: "end", behavior: "instant" });
}
export const TAG_COLOURS = ["", "red", "orange", "yellow", "green", "blue", "purple"];

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {object} handlers {act(kind, fields), sit(seat), sitOut(), sitIn(), leave(), topUp(), lobby(), history(),
   *   options(changes), chat(text), saveNote(playerId, note), fastFold()} — any may be missing
   * @param {object} options {speed: Speed Poker pool, tile: compact tile of the multi-table view,
   *   notes: {get(playerId)}, chat: {messages(tableId)}, replay: no controls, tournament: a tournament table
   *   (no cash seat controls: sit out, options, top up and leave are the tournament's),
   *   connection: the socket (connection.js); while it is not online the action bar is disabled}
   */
  constructor(root, handlers, options = {}) {
    this.root = root;
    this.handlers = handlers;
    this.options = options;
    this.speed = Boolean(options.speed);
    this.ui = { amount: undefined, amountText: null, selected: new Set(), selectionKey: null, sent: false,
      preAction: null, panelTab: "log", popover: null, chatDraft: "", optionsOpen: false };
    this.lastDecision = null;
    this.model = null;
    this.waiting = null;
    this.hurried = null;
    this.timerHandle = setInterval(() => this.tick(), 250);
    this.onKey = (ev) => { if (this.keyboardActive()) handleShortcut(ev, this.root, this); };
    document.addEventListener("keydown", this.onKey);
    // Offline (the server stopped, the socket dropped): no action can reach the server, so the action bar is
    // disabled until the connection is back; the decision then comes back live (the server resends the state).
    const connection = options.connection;
    this.offline = Boolean(connection) && connection.status !== "online";
    this.offStatus = connection ? connection.on("status", (status) => this.setOffline(status !== "online")) : null;
    this.root.classList.add("table-root");
    this.root.replaceChildren();  // whatever page was here before
    this.update();
  }

  destroy() {
    if (this.offStatus) this.offStatus();
    clearInterval(this.timerHandle);
    document.removeEventListener("keydown", this.onKey);
  }

  /** Keyboard shortcuts act on this table only when it is the one on screen (or the focused tile). */
  keyboardActive() {
    if (!this.root.isConnected) return false;
    if (!this.options.tile) return true;
    return this.root.classList.contains("tile--focus");
  }

  render(model) {
    this.model = model;
    if (!model) return;
    const key = decisionKey(model);
    if (key !== this.lastDecision) {
      const keepSelection = this.ui.selectionKey === `${model.handId}|${model.street}`;
      if (!keepSelection) this.ui.selected = new Set();
      this.ui.selectionKey = `${model.handId}|${model.street}`;
      this.ui.amount = undefined;
      this.ui.amountText = null;
      this.ui.sent = false;  // a new decision (or none): the action bar is live again
      this.lastDecision = key;
      if (model.legal) this.onDecision(model);
    }
    if (this.ui.preAction && (this.ui.preAction.handId !== model.handId || !model.hero || model.hero.folded || model.handOver)) {
      this.ui.preAction = null;
    }
    this.update();
  }

  /** A new decision for the player: play the alert, and apply a pre-action chosen in advance. */
  onDecision(model) {
    const choice = choosePreAction(model, this.ui.preAction);
    if (choice) {
      if (!(this.ui.preAction && this.ui.preAction.kind === "fold_any" && choice.kind !== "fold")) {
        if (this.ui.preAction && this.ui.preAction.kind !== "fold_any") this.ui.preAction = null;
      }
      this.sendAction(choice.kind, choice.fields || {});
      return;
    }
    if (this.ui.preAction && this.ui.preAction.kind !== "fold_any") this.ui.preAction = null;
    if (!this.options.replay) play("turn");
    if (this.handlers.yourTurn) this.handlers.yourTurn();
  }

  setOffline(offline) {
    if (offline === this.offline) return;
    this.offline = offline;
    this.update();
  }

  /** Send one action for the current decision; the bar locks until the next decision (or a refusal). */
  sendAction(kind, fields = {}) {
    if (this.ui.sent || this.offline) return;
    const token = {};
    this.ui.sent = token;
    this.update();
    const failed = () => {
      if (this.ui.sent !== token) return;
      this.ui.sent = false;
      this.update();
    };
    Promise.resolve(this.handlers.act(kind, fields)).then((reply) => {
      if (reply === null || reply === undefined || reply.type === "timeout" || reply.type === "error") failed();
    }, failed);
  }

  /** Before the first hand (Speed Poker: while waiting in the pool). */
  renderWaiting(text) {
    if (this.model) return;
    this.waiting = text;
    this.update();
  }

  /** Speed Poker after a Speed Fold (issue #31 item 2): the folded hand leaves the screen until the next one. */
  clearHand(text) {
    this.model = null;
    this.lastDecision = null;
    this.ui.sent = false;
    this.ui.preAction = null;
    this.waiting = text;
    this.update();
  }

  update() {
    const m = this.model;
    if (m && this.root.dataset.family !== m.family) this.root.dataset.family = m.family;
    if (m && this.root.dataset.game !== m.game) this.root.dataset.game = m.game;
    patch(this.root, this.tree(Date.now()));
    clearDealerButton(this.root.querySelector("[data-testid='felt']"));
    // a new log line scrolls the log to it (kept on the node, not in an attribute: no DOM change for it)
    const log = this.root.querySelector("[data-testid='hand-log']");
    if (log && log.__last !== log.lastElementChild) {
      log.scrollTop = log.scrollHeight;
      log.__last = log.lastElementChild;
    }
    // issue #31, a phone: when the player's turn comes, their own seat and cards are brought into view above the
    // action bar (the bar stays at the bottom of the screen and, with the site's header above the table, would
    // cover them); only on a narrow screen, once per turn, and only if they are not already in view
    const turn = Boolean(m && m.legal) && !this.ui.sent;
    if (turn && !this.turnShown && !this.options.tile && !this.options.replay) heroAboveActionBar(this.root);
    this.turnShown = turn;
  }

  tree(now) {
    const model = this.model;
    if (!model) {
      const text = this.waiting || t("table.loading");
      return h("section", { class: "table-page", key: "page" },
        h("header", { class: "table-header" },
          h("div", { class: "table-title" }, h("strong", {}, text)),
          h("div", { class: "table-controls" },
            this.button(t("nav.lobby"), () => this.handlers.lobby(), { "data-testid": "back-to-lobby" }),
            this.speed ? this.button(t("table.leave"), () => this.handlers.leave(), { "data-testid": "leave-table", class: "btn btn-small btn-leave" }) : null)),
        h("div", { class: "action-area", "data-testid": "action-area" },
          h("div", { key: "bar", class: "action-bar" }, h("div", { key: "idle", class: "action-idle" },
            h("div", { class: "action-wait", "data-testid": "action-wait" }, text)))));
    }
    const yourTurn = Boolean(model.legal) && !this.ui.sent;
    return h("section", {
      class: `table-page${yourTurn ? " table-page--your-turn" : ""}`, key: "page",
      "data-family": model.family, "data-game": model.game,
    },
    this.header(model),
    h("div", { class: "table-main" },
      h("div", { class: "felt-wrap" }, this.felt(model, now)),
      this.options.tile ? null : sidePanel(model, this, now)),
    this.options.replay ? null : h("div", { class: "action-area", "data-testid": "action-area" }, actionArea(model, this)));
  }

  button(label, onclick, attrs = {}) {
    return h("button", { class: "btn btn-small", onclick, ...attrs }, label);
  }

  header(model) {
    const hero = model.hero;
    const controls = [];
    if (!this.options.tile && !this.options.replay) {
      controls.push(this.button(t("nav.lobby"), () => this.handlers.lobby(), { "data-testid": "back-to-lobby" }));
    }
    // issue #32: the rules of the game being dealt (at a mixed table, the current game of the rotation)
    if (!this.options.tile) {
      controls.push(this.button(t("table.rules"), () => openRules(model.game), { "data-testid": "table-rules", class: "btn btn-small btn-rules" }));
    }
    if (hero && this.speed) {
      // R-SPEED-1: Speed Fold is offered as soon as the player is dealt in, whether or not it is their turn.
      const canFold = !model.handOver && !hero.folded && !hero.allIn && !model.fastFolded && hero.cards.length > 0;
      controls.push(
        this.button(t("table.speed_fold"), () => this.handlers.fastFold(), { class: "btn btn-small btn-fold", "data-testid": "fast-fold", disabled: !canFold }),
        this.button(t("table.leave_pool"), () => this.handlers.leave(), { class: "btn btn-small btn-leave", "data-testid": "leave-table" }));
    } else if (hero && !this.options.replay && !this.options.tournament) {
      if (hero.sittingOut) controls.push(this.button(t("table.sit_in"), () => this.handlers.sitIn(), { "data-testid": "sit-in" }));
      else controls.push(this.button(t("table.sit_out"), () => this.handlers.sitOut(), { "data-testid": "sit-out" }));
      controls.push(
        this.button(t("table.options"), () => { this.ui.optionsOpen = !this.ui.optionsOpen; this.update(); },
          { "data-testid": "table-options", "aria-expanded": this.ui.optionsOpen ? "true" : "false" }),
        this.button(t("table.top_up"), () => this.handlers.topUp(), { "data-testid": "top-up" }),
        this.button(t("table.leave"), () => this.handlers.leave(), { class: "btn btn-small btn-leave", "data-testid": "leave-table" }));
    }
    // a mixed table's ante is its stud rounds' (R-STUD-1): not shown in its flop and draw rounds (issue #31 item 9)
    const roundStakes = model.mixed && model.family !== "stud" ? { ...model.stakes, ante: 0 } : model.stakes;
    const stakes = stakesLabel(model.family, model.structure, roundStakes, model.currency);
    return h("header", { class: "table-header" },
      h("div", { class: "table-title" },
        h("strong", { "data-testid": "table-name", translate: "no" }, model.name),
        h("span", { class: "table-game", "data-testid": "table-game" }, ` ${model.gameName} · ${structureLabel(model.structure)} · ${stakes}`),
        model.handId !== null ? h("span", { class: "hand-id", "data-testid": "hand-id", "data-hand-id": model.handId }, ` · ${t("table.hand_no", { id: model.handId })}`) : null),
      h("div", { class: "table-controls" }, controls),
      this.ui.optionsOpen && hero && !this.speed ? this.optionsPanel(model) : null);
  }

  /** Table options the server applies to this seat (auto-post blinds, sit out next BB, wait for BB, auto-muck). */
  optionsPanel(model) {
    const o = model.options || {};
    const box = (name, label, title) => h("label", { class: "field-inline", title },
      h("input", { type: "checkbox", "data-option": name, checked: Boolean(o[name]),
        onchange: (ev) => this.handlers.options && this.handlers.options({ [name]: ev.target.checked }) }), ` ${label}`);
    const blinds = model.family !== "stud";
    return h("div", { class: "options-panel", "data-testid": "options-panel" },
      blinds ? box("auto_post", t("opt.auto_post"), t("opt.auto_post_title")) : null,
      blinds ? box("sit_out_next_bb", t("opt.sit_out_next_bb"), t("opt.sit_out_next_bb_title")) : null,
      blinds ? box("wait_for_bb", t("opt.wait_for_bb"), t("opt.wait_for_bb_title")) : null,
      h("label", { class: "field-inline muted", title: t("opt.auto_muck_title") },
        h("input", { type: "checkbox", "data-option": "auto_muck", checked: true, disabled: true }), ` ${t("opt.auto_muck")}`));
  }

  felt(model, now) {
    const n = model.seats.length;
    const offset = model.heroSeat !== null ? model.heroSeat : 0;
    // the root may have no box of its own (the app's `.route-host` is display: contents: its clientWidth is 0, and
    // a phone got the desktop seat ellipse, seats' cards past the screen's edge): measure the page, else the window
    const page = this.root.querySelector(".table-page");
    const width = (page && page.clientWidth) || this.root.clientWidth || window.innerWidth;
    const narrow = width > 0 && width < 600;
    const win = this.winning(model, now);
    const parts = [h("div", { class: "felt-logo", key: "logo", translate: "no" }, "Riverboat"), this.center(model, now, win)];
    for (const seat of model.seats) {
      const pos = seatPosition((seat.seat - offset + n) % n, n, narrow, Boolean(this.options.tile));
      parts.push(this.seat(model, seat, pos, now, win));
      if (!seat.empty && seat.bet > 0) {
        parts.push(h("div", { key: `bet-${seat.seat}`, class: "bet-chip", "data-testid": `bet-${seat.seat}`, style: { left: pct(pos.bx), top: pct(pos.by) } },
          h("span", { class: "chip-icon", "aria-hidden": "true" }), formatMoney(seat.bet, model.currency)));
      }
      if (model.button !== null && Number(model.button) === seat.seat && model.family !== "stud") {
        parts.push(h("div", { key: "dealer", class: "dealer-button", "data-testid": "dealer-button", "data-seat": seat.seat, title: t("table.dealer"), style: { left: pct(pos.dx), top: pct(pos.dy) } }, t("table.dealer_button")));
      }
    }
    if (this.ui.popover !== null) parts.push(this.popover(model));
    return h("div", { class: `felt${win ? " felt--winning" : ""}`, "data-testid": "felt" }, parts);
  }

  /** The result whose winning cards are highlighted (docs/protocol.md "The winning hand"): for as long as the
   * result banner shows (Account -> Table settings, "results shown for") and the hand is still on the felt. */
  winning(model, now) {
    const result = model.result;
    if (!result || !result.best || !result.best.size || result.handId !== model.handId) return null;
    const keep = Math.max((settings.get("resultsSeconds") || 0) * 1000, 500);
    return now - result.at < keep ? result : null;
  }

  center(model, now, win = null) {
    const parts = [];
    if (model.family === "flop") {
      const boards = model.runs && model.runs.length > 1 ? model.runs : [model.board];
      boards.forEach((board, i) => {
        // keyed by hand: the next hand replaces the board in one change instead of removing card by card
        parts.push(h("div", { key: `board-${i}-${model.handId}`, class: "board", "data-testid": i === 0 ? "board" : `board-${i + 1}` },
          boards.length > 1 ? h("span", { class: "run-label" }, t("table.run_n", { n: i + 1 })) : null,
          board.map((code, j) => cardVNode(code, { key: `${j}`, highlight: Boolean(win && win.boards[i] && win.boards[i].has(code)), extraClass: "card--dealt" }))));
      });
    }
    const pots = model.pots.map((pot, i) => h("div", { key: `pot-${i}`, class: "pot", "data-testid": `pot-${i}` },
      `${pot.label}: ${formatMoney(pot.amount, model.currency)}`));
    if (model.potTotal > 0) pots.push(h("div", { key: "total", class: "pot-total", "data-testid": "pot-total" }, t("table.total_pot", { amount: formatMoney(model.potTotal, model.currency) })));
    parts.push(h("div", { key: "pots", class: "pots", "data-testid": "pots" }, pots));
    const result = model.result;
    const keep = (settings.get("resultsSeconds") || 0) * 1000;
    const earlier = Boolean(result) && result.handId !== model.handId;
    // kept for the time the player chose, into the next hand if the room deals it sooner (then it says so; a small
    // tile has no room for it next to the new hand's cards)
    if (result && result.lines.length && now - result.at < Math.max(keep, 500) && !(earlier && this.options.tile)) {
      parts.push(h("div", { key: "result", class: `hand-result${earlier ? " hand-result--last" : ""}`, "data-testid": "hand-result",
        "data-hand": result.handId ?? "", role: "status" },
      earlier ? h("div", { key: "last", class: "muted" }, t("table.last_hand")) : null,
      result.lines.map((line, i) => h("div", { key: `${i}` }, line))));
    }
    return h("div", { class: "felt-center", key: "center" }, parts);
  }

  seat(model, seat, pos, now, win = null) {
    const style = { left: pct(pos.x), top: pct(pos.y) };
    if (seat.empty) {
      const canSit = model.heroSeat === null && !this.options.replay && Boolean(this.handlers.sit) && !this.speed;
      return h("div", { key: `seat-${seat.seat}`, class: "seat seat--empty", style, "data-seat": seat.seat },
        canSit ? h("button", { class: "btn btn-small btn-sit", "data-testid": `sit-${seat.seat}`, onclick: () => this.handlers.sit(seat.seat) }, t("table.sit_here"))
          : h("span", { class: "seat-empty-label" }, t("table.empty_seat")));
    }
    const note = this.options.notes && seat.playerId !== undefined ? this.options.notes.get(seat.playerId) : null;
    const classes = ["seat"];
    if (seat.isHero) classes.push("seat--hero");
    if (seat.folded) classes.push("seat--folded");
    if (seat.acting) classes.push("seat--acting");
    if (seat.winner) classes.push("seat--winner");
    if (seat.sittingOut) classes.push("seat--out");
    if (note && note.tag) classes.push(`seat--tag-${note.tag}`);
    const selectable = seat.isHero && model.legal && model.legal.kinds.some((k) => k === "discard" || k === "draw") && !this.ui.sent;
    const cards = seat.cards.map((card, i) => {
      // R-GEN-5: in stud-type games the holder sees their own face-down cards greyed.
      const ownDown = seat.isHero && model.family === "stud" && !card.up && card.code;
      const selected = selectable && card.code && this.ui.selected.has(card.code);
      return cardVNode(card.code, {
        key: `${i}`,
        greyed: ownDown || selected, selectable: selectable && Boolean(card.code), selected,
        small: !seat.isHero && seat.cards.length >= 4, highlight: Boolean(win && card.code && win.best.has(card.code)),
        extraClass: card.up ? "card--up" : "card--down",
        onclick: selectable && card.code ? () => this.toggleDiscard(card.code) : undefined,
      });
    });
    const status = [];
    if (seat.allIn) status.push(t("seat.all_in"));
    if (seat.folded) status.push(t("seat.folded"));
    if (seat.sittingOut) status.push(t("seat.sitting_out"));
    else if (seat.waiting && model.family !== "stud") status.push(t("seat.waiting_bb"));
    if (seat.disconnected) status.push(t("seat.disconnected"));
    if (seat.discarded !== null && seat.discarded !== undefined && model.family === "draw") {
      const count = Array.isArray(seat.discarded) ? seat.discarded.length : Number(seat.discarded);
      status.push(count ? t("seat.drew", { count }) : t("seat.stands_pat"));
    }
    const labels = [seat.label, ...seat.labels].filter(Boolean).map(handName);
    // run it twice (R-RIT-2): the shown hand's label is its hand on the first board; the hand on a later run is
    // known from that run's award (its winner's), so each line says which board it describes
    const runs = model.runs && model.runs.length > 1 ? model.runs : null;
    const runLines = runs && labels.length ? runs.map((_, r) => {
      const text = r === 0 ? labels.join(" / ") : handName((seat.runLabels || [])[r]);
      return text ? h("div", { key: `run-${r}`, class: "hand-label-run", "data-run": r + 1 }, t("table.run_label", { n: r + 1, hand: text })) : null;
    }) : null;
    const timer = seat.acting && model.timer && Number(model.timer.seat) === seat.seat ? this.timer(model.timer, now) : null;
    const named = !seat.isHero && !this.options.replay && this.handlers.saveNote && seat.playerId !== undefined;
    return h("div", { key: `seat-${seat.seat}`, class: classes.join(" "), style, "data-seat": seat.seat, "data-testid": `seat-${seat.seat}` },
      h("div", { key: `cards-${model.handId}`, class: `seat-cards seat-cards--${model.family}`, "data-testid": `cards-${seat.seat}` }, cards),
      h("div", { class: "seat-info" },
        h(named ? "button" : "div", {
          class: "seat-name", "data-testid": `name-${seat.seat}`, type: named ? "button" : null,
          title: note && note.note ? note.note : named ? t("notes.seat_title") : null,
          onclick: named ? () => { this.ui.popover = seat.seat; this.update(); } : undefined,
        }, note && note.tag ? h("span", { class: `tag-dot tag-${note.tag}`, "aria-label": t(`notes.tag_${note.tag}`) }) : null,  // i18n-dynamic: notes.tag_*
        h("span", { translate: "no" }, seat.alias), note && note.note ? h("span", { class: "note-mark", "aria-label": t("notes.has_note") }, " ✎") : null),
        h("div", { class: "seat-stack", "data-testid": `stack-${seat.seat}` }, formatMoney(seat.stack, model.currency)),
        status.length ? h("div", { class: "seat-status" }, status.join(" · ")) : null,
        timer),
      labels.length ? h("div", { class: "hand-label", "data-testid": `label-${seat.seat}` }, runLines || labels.join(" / ")) : null,
      seat.winner && seat.won > 0 ? h("div", { class: "won", "data-testid": `won-${seat.seat}` }, `+${formatMoney(seat.won, model.currency)}`) : null);
  }

  /** The countdown: a CSS animation runs the bar (no DOM change per frame); the text changes once a second. */
  timer(timer, now) {
    const left = (timer.deadline - now) / 1000;
    const what = timer.kind === "draw" ? t("timer.draw") : timer.usingBank ? t("timer.time_bank") : "";
    const bank = timer.timebank && !timer.usingBank ? ` + ${t("timer.bank", { time: formatSeconds(timer.timebank) })}` : "";
    const text = `${formatSeconds(left)}${what ? " " + what : ""}${bank}`;
    // The bar's animation is set once per decision (a view and an event of the same decision differ by
    // milliseconds: keyed to the second), so the running timer changes no attribute.
    const barKey = `bar-${timer.seat}-${Math.round(timer.deadline / 1000)}-${timer.phase}`;
    if (!this.timerBar || this.timerBar.key !== barKey) {
      const total = Math.max(0.1, timer.total);
      const elapsed = Math.max(0, total - Math.max(0, left));
      this.timerBar = { key: barKey, style: { animationDuration: `${total.toFixed(2)}s`, animationDelay: `-${elapsed.toFixed(2)}s` } };
    }
    return h("div", { class: `seat-timer${left < 5 ? " seat-timer--low" : ""}`, "data-testid": `timer-${timer.seat}` },
      h("div", { key: barKey, class: "seat-timer-bar", style: this.timerBar.style }),
      h("span", { class: "seat-timer-text" }, text));
  }

  popover(model) {
    const seat = model.seats[this.ui.popover];
    if (!seat || seat.empty || seat.playerId === undefined) return null;
    const current = (this.options.notes && this.options.notes.get(seat.playerId)) || {};
    const draft = this.ui.noteDraft && this.ui.noteDraft.player === seat.playerId ? this.ui.noteDraft
      : (this.ui.noteDraft = { player: seat.playerId, note: current.note || "", tag: current.tag || "", muted: Boolean(current.muted) });
    const close = () => { this.ui.popover = null; this.ui.noteDraft = null; this.update(); };
    return h("div", { key: "popover", class: "player-popover", role: "dialog", "aria-label": t("notes.on", { name: seat.alias }), "data-testid": "player-popover" },
      h("strong", { translate: "no" }, seat.alias),
      h("div", { class: "tag-row" }, TAG_COLOURS.map((c) => h("button", {
        key: c || "none", type: "button", class: `tag-choice tag-${c || "none"}${draft.tag === c ? " tag-choice--on" : ""}`,
        "data-tag": c || "none", "aria-pressed": draft.tag === c ? "true" : "false", title: t(`notes.tag_${c || "none"}`),
        onclick: () => { draft.tag = c; this.update(); },
      }, c ? "" : "∅"))),
      h("textarea", { rows: 3, maxlength: 1000, "data-testid": "note-text", placeholder: t("notes.placeholder"),
        value: draft.note, oninput: (ev) => { draft.note = ev.target.value; } }),
      h("label", { class: "field-inline" }, h("input", { type: "checkbox", "data-testid": "mute-player", checked: draft.muted,
        onchange: (ev) => { draft.muted = ev.target.checked; } }), ` ${t("notes.mute")}`),
      h("div", { class: "popover-buttons" },
        h("button", { class: "btn btn-small", type: "button", onclick: close }, t("common.cancel")),
        h("button", { class: "btn btn-small btn-primary", type: "button", "data-testid": "note-save", onclick: async () => {
          await this.handlers.saveNote(seat.playerId, { note: draft.note, tag: draft.tag, muted: draft.muted });
          close();
        } }, t("common.save"))));
  }

  toggleDiscard(code) {
    if (this.ui.selected.has(code)) this.ui.selected.delete(code);
    else this.ui.selected.add(code);
    this.update();
  }

  /** Once every 250 ms: the countdown text, the time-running-out alert, the end of the result display. */
  tick() {
    const model = this.model;
    if (!model) return;
    const timer = model.timer;
    if (timer && model.heroSeat !== null && Number(timer.seat) === model.heroSeat && model.legal && !this.ui.sent) {
      const left = (timer.deadline - Date.now()) / 1000;
      const key = `${timer.deadline}`;
      if (left < 5 && left > 0 && this.hurried !== key) { this.hurried = key; if (!this.options.replay) play("hurry"); }
    }
    const keep = Math.max((settings.get("resultsSeconds") || 0) * 1000, 500);
    if (timer || (model.result && Date.now() - model.result.at < keep + 500)) this.update();
  }
}
