// The client-side state model of one table. It consumes the protocol's server frames for that table
// (`table_state` = the full per-player view, `event` = one thing that happened) and produces a plain,
// render-ready object. It has no DOM access, so it can be exercised directly in tests.
//
// A `table_state` replaces the model's picture of the table (modelFromView); events are folded into it between
// views (table_events.js) and written to the hand log (hand_log.js). Field names of the view are read through
// tolerant accessors (view_fields.js) that accept the documented names (docs/protocol.md) and ignore anything
// unknown (protocol compatibility rule).

import { gameInfo, SIZEABLE, mixedName } from "./games.js";
import { formatMoney } from "./util.js";
import { pick, int, asArray, normalizeCard } from "./view_fields.js";
import { describeEvent, potLabel, winLine } from "./hand_log.js";
import { t } from "./i18n.js";
import { applyEvent, carryFinishedHand, addRunHands } from "./table_events.js";

export { normalizeCard, describeEvent, applyEvent };

function normalizeLegal(raw, view) {
  if (!raw) return null;
  if (Array.isArray(raw)) raw = { kinds: raw };
  let kinds = pick(raw, "kinds", "actions", "options") || [];
  if (!Array.isArray(kinds)) kinds = Object.keys(kinds);
  kinds = kinds.map((k) => String(typeof k === "object" ? pick(k, "kind", "type") : k).toLowerCase());
  const minTo = pick(raw, "min_raise_to", "min_to", "min_amount", "min_bet", "min");
  const maxTo = pick(raw, "max_raise_to", "max_to", "max_amount", "max_bet", "max");
  return {
    seat: pick(raw, "seat"),
    kinds,
    callAmount: int(pick(raw, "call_amount", "call", "to_call"), 0),
    minTo: minTo === undefined ? null : int(minTo),
    maxTo: maxTo === undefined ? null : int(maxTo),
    completeTo: pick(raw, "complete_to", "complete_amount") ?? null,
    bringIn: pick(raw, "bring_in", "bring_in_amount") ?? null,
    minDiscards: int(pick(raw, "min_discards"), 0),
    maxDiscards: int(pick(raw, "max_discards", "max_discard"), 5),
    pot: pick(raw, "pot") ?? pick(view, "pot_total"),
    // The only amounts the engine accepts for bet/raise/complete, when it restricts them (e.g. R-STUD open pair).
    allowed: asArray(pick(raw, "allowed_to", "allowed")).map((v) => int(v)).filter((v) => v > 0),
  };
}

function seatStatus(raw) {
  const status = String(pick(raw, "status", "state") || "").toLowerCase();
  return {
    folded: Boolean(pick(raw, "folded")) || status === "folded",
    allIn: Boolean(pick(raw, "all_in", "allin")) || status === "all_in" || status === "allin",
    sittingOut: Boolean(pick(raw, "sitting_out", "sit_out")) || status === "sitting_out" || status === "sit_out",
    disconnected: Boolean(pick(raw, "disconnected")) || status === "disconnected" || pick(raw, "connected") === false,
    waiting: status === "waiting" || Boolean(pick(raw, "waiting")),
    status,
  };
}

/** Build the render model from one `view` object of a `table_state` frame. */
export function modelFromView(tableId, view, previous = null, now = Date.now(), aliases = {}) {
  // The room sends the table header as `view.table` (name, stakes, buy-in range...) and the engine's per-seat
  // view of the hand in progress as `view.hand`; older/simpler shapes put those fields on the view itself.
  const header = view && typeof view.table === "object" && view.table !== null ? view.table : view;
  const tv = (...keys) => pick(header, ...keys) ?? pick(view, ...keys);
  const hand = pick(view, "hand") || {};
  const inHand = (key, ...aliases2) => pick(hand, key, ...aliases2) ?? pick(view, key, ...aliases2);
  const game = pick(hand, "game") ?? pick(view, "game") ?? tv("game") ?? "holdem";
  const info = gameInfo(game);
  const family = info.family === "mixed" ? "flop" : info.family;
  const structure = String(pick(hand, "structure") ?? pick(view, "structure") ?? tv("structure") ?? "NL").toUpperCase();
  const maxSeats = int(tv("max_seats", "seats_max", "size"), 6) || 6;
  const you = pick(view, "you") || {};
  let heroSeat = pick(view, "your_seat", "hero_seat", "my_seat") ?? pick(you, "seat");
  const heroPlayer = pick(you, "player_id", "id") ?? pick(view, "player_id");

  const rawSeats = asArray(pick(view, "seats", "players"));
  const seats = [];
  for (let i = 0; i < maxSeats; i += 1) seats.push({ seat: i, empty: true, cards: [] });
  const handPlayers = new Map();
  for (const p of asArray(pick(hand, "players", "seats"))) handPlayers.set(int(pick(p, "seat"), -1), p);

  rawSeats.forEach((raw, index) => {
    if (!raw) return;
    const seatNo = int(pick(raw, "seat"), index);
    if (seatNo < 0) return;
    while (seats.length <= seatNo) seats.push({ seat: seats.length, empty: true, cards: [] });
    const hp = handPlayers.get(seatNo) || {};
    const merged = { ...raw, ...hp };
    const playerId = pick(raw, "player_id", "player") ?? pick(hp, "player_id", "player");
    if (playerId === undefined && pick(merged, "alias", "name") === undefined) return;
    const defaultUp = family === "stud" ? false : false;
    const cardsRaw = pick(hp, "cards", "hole_cards", "hole") ?? pick(raw, "cards", "hole_cards", "hole") ?? [];
    const upFlags = pick(merged, "up");
    const cards = asArray(cardsRaw).map((c, i) => {
      const card = normalizeCard(c, defaultUp);
      if (Array.isArray(upFlags) && typeof c !== "object") card.up = Boolean(upFlags[i]);
      return card;
    });
    const isHero = (heroSeat !== undefined && heroSeat !== null && int(heroSeat) === seatNo)
      || (heroPlayer !== undefined && String(playerId) === String(heroPlayer))
      || Boolean(pick(merged, "is_you", "you", "hero"));
    if (isHero) heroSeat = seatNo;
    seats[seatNo] = {
      seat: seatNo,
      empty: false,
      playerId,
      alias: String(pick(merged, "alias", "name") ?? aliases[String(playerId)] ?? (playerId !== undefined ? t("log.player_n", { n: playerId }) : t("log.seat_n", { n: seatNo + 1 }))),
      stack: int(pick(merged, "stack", "chips")),
      bet: int(pick(merged, "bet", "street_bet", "committed")),
      cards,
      isHero,
      label: pick(merged, "hand_label", "label") ?? null,
      labels: asArray(pick(merged, "hand_labels", "labels")),
      won: int(pick(merged, "won", "winnings"), 0),
      runLabels: [],
      discarded: pick(merged, "discarded", "drew") ?? null,
      timebank: pick(merged, "timebank", "time_bank") ?? null,
      inHand: handPlayers.size ? handPlayers.has(seatNo) : null,
      mucked: false,
      ...seatStatus(merged),
    };
  });
  if (heroSeat !== undefined && heroSeat !== null) heroSeat = int(heroSeat);
  else heroSeat = null;
  if (heroSeat !== null && seats[heroSeat] && !seats[heroSeat].empty) {
    seats[heroSeat].isHero = true;
    if (pick(you, "sitting_out")) seats[heroSeat].sittingOut = true;
    if (pick(you, "leaving")) seats[heroSeat].leaving = true;
  }

  // Pots: during the hand the engine gives one total ("pot", bets included); at the end its result lists every
  // pot (main, side, hi/lo halves, run-it-twice runs) with winners as {seat: chips}.
  const result = inHand("result") || null;
  const winnersOf = (w) => {
    if (!w) return [];
    if (Array.isArray(w)) return w.map((x) => (typeof x === "object" ? int(pick(x, "seat")) : int(x)));
    return Object.keys(w).map((k) => int(k));
  };
  const rawPots = asArray(pick(result, "pots") ?? inHand("pots"));
  const pots = rawPots.map((p, i) => {
    const share = pick(p, "share");
    const run = pick(p, "run");
    const label = potLabel(i, share, run ? int(run) : null);
    return {
      amount: int(typeof p === "number" ? p : pick(p, "amount", "total")),
      label,
      eligible: asArray(pick(p, "eligible", "seats")),
      winners: winnersOf(pick(p, "winners")),
      won: pick(p, "winners") && !Array.isArray(pick(p, "winners")) ? pick(p, "winners") : {},
    };
  });
  const betsOnTable = seats.reduce((sum, s) => sum + (s.empty ? 0 : s.bet), 0);
  const potInPots = pots.reduce((sum, p) => sum + p.amount, 0);
  const potField = inHand("pot_total", "pot");
  const potTotal = typeof potField === "number" ? int(potField) : potInPots + betsOnTable;
  const collected = Math.max(0, potTotal - betsOnTable);
  if (!pots.length && potTotal - betsOnTable > 0) {
    pots.push({ amount: potTotal - betsOnTable, label: t("pot.pot"), eligible: [], winners: [], won: {} });
  }
  if (result) {
    const labels = pick(result, "labels") || {};
    const net = pick(result, "net") || {};
    const shown = pick(result, "shown") || {};
    for (const s of seats) {
      if (s.empty) continue;
      const key = String(s.seat);
      if (labels[key] && !s.label) s.label = labels[key];
      if (Array.isArray(shown[key]) && s.cards.every((c) => c.code === null)) {
        s.cards = shown[key].map((c) => normalizeCard(c, true));
      }
      const wonHere = pots.reduce((sum, p) => sum + int(p.won[key], 0), 0);
      s.won = wonHere || Math.max(0, int(net[key], 0));
    }
  }

  const boardRaw = inHand("board", "community", "board_cards") || [];
  let board = [];
  let runs = [];
  if (Array.isArray(boardRaw) && boardRaw.length && Array.isArray(boardRaw[0])) {
    runs = boardRaw.map((b) => b.map((c) => normalizeCard(c, true).code));
    board = runs[0];
  } else {
    board = asArray(boardRaw).map((c) => normalizeCard(c, true).code);
    runs = asArray(inHand("boards", "runs")).map((b) => asArray(b).map((c) => normalizeCard(c, true).code));
  }

  const toActRaw = inHand("to_act", "acting", "actor");
  const toAct = toActRaw === undefined || toActRaw === null ? null : int(toActRaw);
  let legal = normalizeLegal(pick(view, "legal", "legal_actions") ?? pick(hand, "legal", "legal_actions"), view);
  if (legal && legal.seat !== undefined && heroSeat !== null && int(legal.seat) !== heroSeat) legal = null;
  if (legal && legal.kinds.length === 0) legal = null;

  const timerRaw = pick(view, "timer") ?? pick(hand, "timer");
  let timer = null;
  if (timerRaw && typeof timerRaw === "object") {
    const phase = String(pick(timerRaw, "phase", "kind", "type") ?? "action");
    const left = Number(pick(timerRaw, "remaining", "seconds_left", "left", "time_left"));
    const defaultTotal = phase === "draw" || phase === "reconnect" ? 30 : 20;
    const total = Number(pick(timerRaw, "total", "seconds", "duration")) || (phase === "timebank" && Number.isFinite(left) ? Math.max(left, 1) : defaultTotal);
    const seatNo = pick(timerRaw, "seat") ?? toAct;
    const bank = pick(timerRaw, "timebank", "time_bank", "bank") ?? (seatNo !== null && int(seatNo) === heroSeat ? pick(you, "timebank") : undefined);
    timer = {
      seat: seatNo,
      kind: phase === "draw" ? "draw" : "act",
      phase,
      total,
      deadline: now + 1000 * (Number.isFinite(left) ? left : total),
      timebank: Number(bank) || 0,
      usingBank: phase === "timebank" || Boolean(pick(timerRaw, "using_timebank", "in_timebank")),
    };
  }
  for (const s of seats) s.acting = !s.empty && toAct === s.seat;

  const winnersSeats = new Set();
  for (const p of pots) for (const w of p.winners) winnersSeats.add(w);
  for (const w of winnersOf(inHand("winners"))) winnersSeats.add(w);
  for (const s of seats) s.winner = !s.empty && (winnersSeats.has(s.seat) || s.won > 0);

  // run it twice (R-RIT-2): the shown hand's label names it on the first board; a pot of a later run names the
  // winner's hand on that run's board ("The winning hand")
  if (runs.length > 1) {
    for (const p of rawPots) addRunHands(seats, int(pick(p, "run"), 0), pick(p, "hands"));
  }

  const handId = pick(view, "hand_id") ?? pick(hand, "hand_id") ?? null;
  const stakes = pick(view, "stakes") || {};
  const model = {
    tableId,
    name: tv("name") ?? tableId,
    game,
    gameName: mixedName(tv("mixed"), info.name),
    mixed: tv("mixed") ?? null,
    family,
    structure,
    sizeable: SIZEABLE.has(structure),
    currency: tv("currency") ?? "PLAY",
    maxSeats: seats.length,
    stakes: {
      smallBlind: int(tv("small_blind") ?? pick(stakes, "small_blind", "sb")),
      bigBlind: int(tv("big_blind") ?? pick(stakes, "big_blind", "bb")),
      ante: int(tv("ante") ?? pick(stakes, "ante")),
      bringIn: int(tv("bring_in") ?? pick(stakes, "bring_in")),
      smallBet: int(tv("small_bet") ?? pick(stakes, "small_bet")),
      bigBet: int(tv("big_bet") ?? pick(stakes, "big_bet")),
    },
    rotation: asArray(tv("rotation")),
    options: pick(you, "options") || null,
    minBuyIn: int(tv("min_buy_in"), 0),
    maxBuyIn: tv("max_buy_in") ?? null,
    handId,
    handOver: Boolean(inHand("is_over", "over", "finished")) || Boolean(result),
    street: inHand("street", "round", "phase") ?? null,
    button: pick(hand, "button") ?? pick(view, "button", "dealer") ?? null,
    board,
    runs,
    pots,
    potTotal,
    collected,
    rake: 0,
    awards: [],
    resultApplied: Boolean(result),
    seats,
    heroSeat,
    hero: heroSeat !== null ? seats[heroSeat] : null,
    toAct,
    legal,
    timer,
    splitOffered: Boolean(legal && legal.kinds.includes("agree_split")),
    ritOffered: Boolean(legal && legal.kinds.includes("run_twice")),
    showdown: winnersSeats.size > 0 || seats.some((s) => !s.empty && s.label),
    log: previous && previous.handId === handId ? previous.log : [],
    lastHands: previous ? previous.lastHands : [],
  };
  // The view of a finished hand (a reload, a new tab while the result shows) carries its result: the result
  // banner and the winning hand's highlight are rebuilt from its pots (each as its `pot_awarded` event: `hands`).
  if (result) {
    for (const p of rawPots) {
      if (typeof p !== "object" || !p) continue;
      noteResult(model, { kind: "pot_awarded", amount: pick(p, "amount"), winners: pick(p, "winners"),
        share: pick(p, "share"), run: pick(p, "run"), hands: pick(p, "hands") }, now);
    }
  }
  return model;
}

const HAND_END_KINDS = new Set(["hand_over", "hand_end"]);
const HAND_START_KINDS = new Set(["hand_started", "hand_start", "new_hand"]);

/** The sequence number of a frame (docs/protocol.md "Sequence numbers"), or null for a server that sends none. */
export function frameSeq(frame) {
  const seq = frame && (frame.seq ?? (frame.view && frame.view.seq));
  return Number.isInteger(seq) ? seq : null;
}

/**
 * A table store: the model plus its update functions. `apply(frame)` takes any server frame for this table;
 * listeners get the new model after each change (once per burst of frames: notifications are coalesced).
 *
 * Each event is applied exactly once: the server numbers a table's events (`seq`) and every `table_state` says
 * which event it already includes (its `seq`); an event numbered at or below the last snapshot's is already in
 * the picture and is skipped (only logged if the log does not have it yet).
 */
export class TableStore {
  constructor(tableId, { maxHands = 10, clock = () => Date.now(), aliases = {}, sync = false, storage = null } = {}) {
    this.tableId = tableId;
    // A reload (issue #14 item 4) keeps the hand log and the last hands: they are saved per tab (sessionStorage).
    this.storage = storage;
    this.storageKey = `rb.tablelog.${tableId}`;
    this.aliases = aliases;
    this.model = null;
    this.maxHands = maxHands;
    this.clock = clock;
    this.listeners = new Set();
    this.pendingLog = [];
    this.finishedHands = [];
    this.seq = null;          // the last event (by sequence number) included in the model
    this.logSeq = null;       // the last event written to the log
    this.sync = sync;
    this.scheduled = false;
  }

  subscribe(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  notify() {
    if (this.sync) { this.flush(); return; }
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  flush() {
    this.scheduled = false;
    this.save();
    for (const fn of this.listeners) fn(this.model);
  }

  save() {
    if (!this.storage || !this.model || !this.restored) return;
    try {
      this.storage.setItem(this.storageKey, JSON.stringify({ handId: this.model.handId, log: this.model.log,
        lastHands: this.finishedHands }));
    } catch { /* storage full or denied: the log is only kept in memory */ }
  }

  /** What a previous page of this tab saved for this table: {handId, log, lastHands}, or null. */
  saved() {
    if (!this.storage) return null;
    try {
      const data = JSON.parse(this.storage.getItem(this.storageKey) || "null");
      return data && typeof data === "object" ? data : null;
    } catch { return null; }
  }

  /** Last hands from the server's history (a reload keeps them): [{handId, lines}], newest first. */
  setFinishedHands(hands) {
    const known = new Set(this.finishedHands.map((x) => x.handId));
    this.finishedHands = [...this.finishedHands, ...hands.filter((x) => !known.has(x.handId))].slice(0, this.maxHands);
    if (this.model) { this.model.lastHands = this.finishedHands; this.notify(); }
  }

  apply(frame) {
    if (!frame || String(frame.table) !== String(this.tableId)) return false;
    if (frame.type === "table_state") return this.applyState(frame);
    if (frame.type === "event") return this.applyEventFrame(frame);
    return false;
  }

  applyState(frame) {
    const view = frame.view || {};
    const next = modelFromView(this.tableId, view, this.model, this.clock(), this.aliases);
    const hasHand = Boolean(view.hand);
    if (!hasHand) carryFinishedHand(next, this.model);
    else if (this.model && this.model.handId === next.handId) {
      next.awards = this.model.awards;
      // the result as the events built it (its time kept); the view's only when the events gave none
      if (!next.result || (this.model.result && this.model.result.handId === next.handId)) next.result = this.model.result;
    }
    if (this.model && !next.result && this.model.result) next.result = this.model.result;
    if (!this.restored) {
      // the first views after a reload: the log of the hand under way and the last hands as this tab had them
      const saved = this.saved();
      if (saved && Array.isArray(saved.lastHands) && !this.finishedHands.length) {
        this.finishedHands = saved.lastHands.slice(0, this.maxHands);
      }
      if (saved && hasHand && saved.handId === next.handId && Array.isArray(saved.log) && !next.log.length) {
        next.log = saved.log;
      }
      if (hasHand || !saved) this.restored = true;
    }
    const seq = frameSeq(frame);
    if (seq !== null) this.seq = seq;
    this.model = next;
    this.model.lastHands = this.finishedHands;
    // A snapshot may carry the hand's events so far (a reload, a new tab): the log is rebuilt from them.
    const events = Array.isArray(view.events) ? view.events : Array.isArray(frame.events) ? frame.events : null;
    if (events && hasHand && (!this.model.log.length || this.model.logHand !== next.handId)) {
      const lines = [];
      for (const ev of events) {
        const line = describeEvent(ev, this.model);
        if (line) lines.push(line);
        if (Number.isInteger(ev.seq)) this.logSeq = ev.seq;
      }
      this.model.log = lines;
    }
    this.model.logHand = next.handId;
    if (this.pendingLog.length) {
      this.model.log = [...this.model.log, ...this.pendingLog];
      this.pendingLog = [];
    }
    this.notify();
    return true;
  }

  applyEventFrame(frame) {
    const event = frame.event || {};
    const kind = String(pick(event, "kind", "type") || "");
    const seq = frameSeq(frame);
    const already = seq !== null && this.seq !== null && seq <= this.seq;
    const logged = seq !== null && this.logSeq !== null && seq <= this.logSeq;
    if (!already) {
      // a new hand clears the log; the last hand's result stays on the felt for the time the player chose
      // (Account -> Table settings, "results shown for": the room deals the next hand sooner than that)
      if (HAND_START_KINDS.has(kind) && this.model) this.model.log = [];
      if (this.model) {
        applyEvent(this.model, event, this.aliases);
        noteResult(this.model, event, this.clock());
      }
      if (seq !== null) this.seq = seq;
    }
    if (!logged) {
      const line = describeEvent(event, this.model);
      const last = this.model && this.model.log.length ? this.model.log[this.model.log.length - 1] : null;
      // The engine and the room both announce the end of a hand: record it once.
      const handOver = t("log.hand_over");
      const duplicateEnd = HAND_END_KINDS.has(kind) && last === handOver;
      if (line && !(line === handOver && duplicateEnd)) {
        if (this.model) this.model.log = [...this.model.log, line];
        else this.pendingLog.push(line);
      }
      if (seq !== null) this.logSeq = seq;
      if (HAND_END_KINDS.has(kind) && this.model && !duplicateEnd) {
        const handId = pick(event, "hand_id") ?? this.model.handId;
        this.finishedHands = [
          { handId, lines: this.model.log },
          ...this.finishedHands.filter((x) => x.handId !== handId),
        ].slice(0, this.maxHands);
        this.model.lastHands = this.finishedHands;
      }
    }
    if (this.model) this.model.logHand = this.model.handId;
    this.notify();
    return true;
  }
}

/** The result of the hand as it is decided: one line per pot won (who, how much, with what hand), and the cards
 * of the winning hands to highlight while the result is shown: `hands` of each `pot_awarded` event (seat ->
 * {cards, label}, the server's evaluator's best five; docs/protocol.md "The winning hand"). `best` holds every
 * winning card (a hole card belongs to one player only), `boards[run]` the board cards a hand of that run used. */
export function noteResult(model, event, now) {
  const kind = String(pick(event, "kind", "type") || "");
  if (kind !== "pot_awarded") return;
  const winners = pick(event, "winners") || {};
  const entries = Array.isArray(winners) ? winners.map((w) => [w, pick(event, "amount")]) : Object.entries(winners);
  const share = pick(event, "share");
  const run = int(pick(event, "run"), 0);
  const hands = pick(event, "hands") || {};
  const same = model.result && model.result.handId === model.handId;
  const lines = same ? [...model.result.lines] : [];
  const best = same && model.result.best ? new Set(model.result.best) : new Set();
  const boards = same && model.result.boards ? { ...model.result.boards } : {};
  const runs = model.runs && model.runs.length > 1 ? model.runs : [model.board];
  const board = new Set(runs[run] || model.board || []);
  for (const [w, amt] of entries) {
    const seat = model.seats[int(w)];
    if (!seat || seat.empty) continue;
    const won = hands[String(w)];
    const cards = won && Array.isArray(won.cards) ? won.cards.map(String) : [];
    const name = won && won.label ? won.label : seat.label;
    lines.push(winLine(seat.alias, formatMoney(amt, model.currency), share, runs.length > 1 ? run : null, name));
    for (const code of cards) {
      best.add(code);
      if (board.has(code)) boards[run] = new Set([...(boards[run] || []), code]);
    }
  }
  model.result = { handId: model.handId, lines, at: now, best, boards };
}


/**
 * Pot-size shortcuts (R-PL, R-HPL, R-NL): the raise-to total for a fraction of the pot, clamped to the legal
 * bounds. A pot-sized raise is: call first, then raise by the pot as it stands after the call.
 */
export function potRaiseTo(model, fraction) {
  const legal = model.legal;
  if (!legal || legal.minTo === null || legal.maxTo === null) return null;
  const hero = model.hero;
  const heroBet = hero ? hero.bet : 0;
  const toCall = legal.callAmount;
  const potAfterCall = model.potTotal + toCall;
  const target = heroBet + toCall + Math.floor(potAfterCall * fraction);
  return Math.max(legal.minTo, Math.min(legal.maxTo, target));
}
