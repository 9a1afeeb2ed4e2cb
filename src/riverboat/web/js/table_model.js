// The client-side state model of one table. It consumes the protocol's server frames for that table
// (`table_state` = the full per-player view, `event` = one thing that happened) and produces a plain,
// render-ready object. It has no DOM access, so it can be exercised directly in tests.
//
// The server's view is the authority: every `table_state` replaces the model's picture of the table.
// Events only add to the hand log (and the last-hands panel) and mark showdown results when a view has
// not arrived yet. Field names of the view are read through small accessors that accept the documented
// names (docs/protocol.md) and a few aliases, and ignore anything unknown (protocol compatibility rule).

import { gameInfo, SIZEABLE } from "./games.js";

const pick = (obj, ...keys) => {
  if (!obj || typeof obj !== "object") return undefined;
  for (const key of keys) if (obj[key] !== undefined && obj[key] !== null) return obj[key];
  return undefined;
};
const int = (value, fallback = 0) => (Number.isFinite(Number(value)) ? Math.trunc(Number(value)) : fallback);
const asArray = (value) => (Array.isArray(value) ? value : []);

/** A card entry of the view -> {code: "Ah"|null, up: boolean}. `up` = face up for everyone (stud upcards). */
export function normalizeCard(entry, defaultUp) {
  if (entry === null || entry === undefined) return { code: null, up: false };
  if (typeof entry === "string") {
    const hidden = entry === "" || entry === "??" || entry === "XX" || entry === "xx";
    return { code: hidden ? null : entry, up: defaultUp };
  }
  const code = pick(entry, "card", "code", "c");
  const upFlag = pick(entry, "up", "face_up", "faceUp", "public");
  const hiddenCode = code === undefined || code === "??" || code === "";
  return { code: hiddenCode ? null : code, up: upFlag === undefined ? defaultUp : Boolean(upFlag) };
}

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
  };
}

function seatStatus(raw) {
  const status = String(pick(raw, "status", "state") || "").toLowerCase();
  return {
    folded: Boolean(pick(raw, "folded")) || status === "folded",
    allIn: Boolean(pick(raw, "all_in", "allin")) || status === "all_in" || status === "allin",
    sittingOut: Boolean(pick(raw, "sitting_out", "sit_out")) || status === "sitting_out" || status === "sit_out",
    disconnected: Boolean(pick(raw, "disconnected")) || status === "disconnected",
    waiting: status === "waiting" || Boolean(pick(raw, "waiting")),
    status,
  };
}

/** Build the render model from one `view` object of a `table_state` frame. */
export function modelFromView(tableId, view, previous = null, now = Date.now()) {
  const hand = pick(view, "hand") || {};
  const inHand = (key, ...aliases) => pick(hand, key, ...aliases) ?? pick(view, key, ...aliases);
  const game = pick(hand, "game") ?? pick(view, "game") ?? "holdem";
  const info = gameInfo(game);
  const family = info.family === "mixed" ? "flop" : info.family;
  const structure = String(inHand("structure") ?? "NL").toUpperCase();
  const maxSeats = int(pick(view, "max_seats", "seats_max", "size"), 6) || 6;
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
    const playerId = pick(merged, "player_id", "player");
    if (playerId === undefined && pick(merged, "alias", "name") === undefined) return;
    const defaultUp = family === "stud" ? false : false;
    const cardsRaw = pick(hp, "cards", "hole_cards", "hole") ?? pick(raw, "cards", "hole_cards", "hole") ?? [];
    const upFlags = pick(merged, "up");
    const cards = asArray(cardsRaw).map((c, i) => {
      const card = normalizeCard(c, defaultUp);
      if (Array.isArray(upFlags) && typeof c !== "object") card.up = Boolean(upFlags[i]);
      return card;
    });
    const isHero = (heroSeat !== undefined && int(heroSeat) === seatNo)
      || (heroPlayer !== undefined && String(playerId) === String(heroPlayer))
      || Boolean(pick(merged, "is_you", "you", "hero"));
    if (isHero) heroSeat = seatNo;
    seats[seatNo] = {
      seat: seatNo,
      empty: false,
      playerId,
      alias: String(pick(merged, "alias", "name") ?? `Seat ${seatNo + 1}`),
      stack: int(pick(merged, "stack", "chips")),
      bet: int(pick(merged, "bet", "street_bet", "committed")),
      cards,
      isHero,
      label: pick(merged, "hand_label", "label") ?? null,
      labels: asArray(pick(merged, "hand_labels", "labels")),
      won: int(pick(merged, "won", "winnings"), 0),
      discarded: pick(merged, "discarded", "drew") ?? null,
      timebank: pick(merged, "timebank", "time_bank") ?? null,
      ...seatStatus(merged),
    };
  });
  if (heroSeat !== undefined && heroSeat !== null) heroSeat = int(heroSeat);
  else heroSeat = null;

  const pots = asArray(inHand("pots")).map((p, i) => ({
    amount: int(typeof p === "number" ? p : pick(p, "amount", "total")),
    label: i === 0 ? "Main pot" : `Side pot ${i}`,
    eligible: asArray(pick(p, "eligible", "seats")),
    winners: asArray(pick(p, "winners")).map((w) => (typeof w === "object" ? int(pick(w, "seat")) : int(w))),
  }));
  const betsOnTable = seats.reduce((sum, s) => sum + (s.empty ? 0 : s.bet), 0);
  const potInPots = pots.reduce((sum, p) => sum + p.amount, 0);
  const potTotal = int(inHand("pot_total", "pot"), potInPots + betsOnTable) || potInPots + betsOnTable;

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
    const left = Number(pick(timerRaw, "remaining", "seconds_left", "left", "time_left"));
    const total = Number(pick(timerRaw, "total", "seconds", "duration")) || 20;
    timer = {
      seat: pick(timerRaw, "seat") ?? toAct,
      kind: pick(timerRaw, "kind", "type") ?? "act",
      total,
      deadline: now + 1000 * (Number.isFinite(left) ? left : total),
      timebank: Number(pick(timerRaw, "timebank", "time_bank", "bank")) || 0,
      usingBank: Boolean(pick(timerRaw, "using_timebank", "in_timebank")),
    };
  } else if (toAct !== null && typeof inHand("time_left") === "number") {
    timer = { seat: toAct, kind: "act", total: 20, deadline: now + 1000 * inHand("time_left"), timebank: 0 };
  }
  for (const s of seats) s.acting = !s.empty && toAct === s.seat;

  const winnersSeats = new Set();
  for (const p of pots) for (const w of p.winners) winnersSeats.add(w);
  for (const w of asArray(inHand("winners"))) winnersSeats.add(typeof w === "object" ? int(pick(w, "seat")) : int(w));
  for (const s of seats) s.winner = !s.empty && (winnersSeats.has(s.seat) || s.won > 0);

  const handId = inHand("hand_id", "id") ?? null;
  const stakes = pick(view, "stakes") || {};
  const model = {
    tableId,
    name: pick(view, "name") ?? tableId,
    game,
    gameName: info.name + (pick(view, "mixed") ? ` (${gameInfo(pick(view, "mixed")).name})` : ""),
    family,
    structure,
    sizeable: SIZEABLE.has(structure),
    currency: pick(view, "currency") ?? "PLAY",
    maxSeats: seats.length,
    stakes: {
      smallBlind: int(pick(view, "small_blind") ?? pick(stakes, "small_blind", "sb")),
      bigBlind: int(pick(view, "big_blind") ?? pick(stakes, "big_blind", "bb")),
      ante: int(pick(view, "ante") ?? pick(stakes, "ante")),
      bringIn: int(pick(view, "bring_in") ?? pick(stakes, "bring_in")),
      smallBet: int(pick(view, "small_bet") ?? pick(stakes, "small_bet")),
      bigBet: int(pick(view, "big_bet") ?? pick(stakes, "big_bet")),
    },
    minBuyIn: int(pick(view, "min_buy_in"), 0),
    maxBuyIn: pick(view, "max_buy_in") ?? null,
    handId,
    handOver: Boolean(inHand("is_over", "over", "finished")),
    street: inHand("street", "round", "phase") ?? null,
    button: inHand("button", "dealer") ?? null,
    board,
    runs,
    pots,
    potTotal,
    seats,
    heroSeat,
    hero: heroSeat !== null ? seats[heroSeat] : null,
    toAct,
    legal,
    timer,
    splitOffered: Boolean(legal && legal.kinds.some((k) => k.startsWith("split"))),
    ritOffered: Boolean(legal && legal.kinds.some((k) => k.includes("run_it") || k === "rit_yes")),
    showdown: winnersSeats.size > 0 || seats.some((s) => !s.empty && s.label),
    log: previous && previous.handId === handId ? previous.log : [],
    lastHands: previous ? previous.lastHands : [],
  };
  return model;
}

/** One line of text for the hand log from an event dict; null for events that need no line. */
export function describeEvent(event, model) {
  const kind = String(pick(event, "kind", "type") || "");
  const seat = pick(event, "seat");
  const who = seat !== undefined && model && model.seats[seat] && !model.seats[seat].empty
    ? model.seats[seat].alias
    : seat !== undefined ? `Seat ${int(seat) + 1}` : (pick(event, "alias") ?? "");
  const money = (v) => (v === undefined ? "" : formatChips(v, model));
  const amount = pick(event, "amount", "to");
  const cards = asArray(pick(event, "cards")).filter((c) => typeof c === "string" && c !== "??").join(" ");
  switch (kind) {
    case "hand_started": case "hand_start": case "new_hand":
      return `Hand #${pick(event, "hand_id", "hand") ?? ""} starts`;
    case "posted": case "post": case "blind": case "ante":
      return `${who} posts ${pick(event, "what", "blind") ?? ""} ${money(amount)}`.replace(/\s+/g, " ");
    case "acted": case "action": {
      const action = String(pick(event, "action", "act", "action_kind") || "");
      return `${who} ${action.replace(/_/g, " ")}${amount !== undefined ? " " + money(amount) : ""}`;
    }
    case "fold": case "check": case "call": case "bet": case "raise": case "complete": case "bring_in":
      return `${who} ${kind.replace(/_/g, " ")}${amount !== undefined ? " " + money(amount) : ""}`;
    case "discard": case "discarded": case "drew": case "draw": case "stand_pat": {
      const n = pick(event, "count", "n") ?? asArray(pick(event, "cards", "discarded")).length;
      return n ? `${who} draws ${n}` : `${who} stands pat`;
    }
    case "board": case "dealt_board": case "flop": case "turn": case "river":
      return cards ? `Board: ${cards}` : null;
    case "dealt": case "deal":
      return null;
    case "showdown": case "shows": case "show":
      return `${who} shows ${cards}${pick(event, "label") ? ` (${pick(event, "label")})` : ""}`;
    case "pot_awarded": case "award": case "won": case "win":
      return `${who} wins ${money(amount)}${pick(event, "label") ? ` with ${pick(event, "label")}` : ""}`;
    case "uncalled": case "returned": case "uncalled_bet":
      return `Uncalled ${money(amount)} returned to ${who}`;
    case "hand_over": case "hand_end": case "hand_ended":
      return "Hand over";
    case "joined": case "sat": case "player_sat":
      return `${pick(event, "alias") ?? who} sits down`;
    case "left": case "player_left":
      return `${pick(event, "alias") ?? who} leaves the table`;
    case "sit_out": case "sat_out":
      return `${who} sits out`;
    default:
      return kind ? kind.replace(/_/g, " ") + (who ? ` (${who})` : "") : null;
  }
}

function formatChips(value, model) {
  const n = int(value);
  const currency = model ? model.currency : "PLAY";
  if (currency === "EUR" || currency === "USD" || currency === "GBP") {
    const sym = { EUR: "€", USD: "$", GBP: "£" }[currency];
    return `${n < 0 ? "-" : ""}${sym}${Math.trunc(Math.abs(n) / 100)}.${String(Math.abs(n) % 100).padStart(2, "0")}`;
  }
  return String(n);
}

const HAND_END_KINDS = new Set(["hand_over", "hand_end", "hand_ended", "hand_finished"]);
const HAND_START_KINDS = new Set(["hand_started", "hand_start", "new_hand"]);

/**
 * A table store: the model plus its update functions. `apply(frame)` takes any server frame for this table;
 * listeners get the new model after each change.
 */
export class TableStore {
  constructor(tableId, { maxHands = 10, clock = () => Date.now() } = {}) {
    this.tableId = tableId;
    this.model = null;
    this.maxHands = maxHands;
    this.clock = clock;
    this.listeners = new Set();
    this.pendingLog = [];
    this.finishedHands = [];
  }

  subscribe(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  notify() { for (const fn of this.listeners) fn(this.model); }

  apply(frame) {
    if (!frame || frame.table !== undefined && String(frame.table) !== String(this.tableId)) return false;
    if (frame.type === "table_state") {
      this.model = modelFromView(this.tableId, frame.view || {}, this.model, this.clock());
      this.model.lastHands = this.finishedHands;
      if (this.pendingLog.length) {
        this.model.log = [...this.model.log, ...this.pendingLog];
        this.pendingLog = [];
      }
      this.notify();
      return true;
    }
    if (frame.type === "event") {
      const event = frame.event || {};
      const kind = String(pick(event, "kind", "type") || "");
      if (HAND_START_KINDS.has(kind) && this.model) this.model.log = [];
      const line = describeEvent(event, this.model);
      if (line) {
        if (this.model) this.model.log = [...this.model.log, line];
        else this.pendingLog.push(line);
      }
      if (HAND_END_KINDS.has(kind) && this.model) {
        this.finishedHands = [
          { handId: pick(event, "hand_id") ?? this.model.handId, lines: this.model.log },
          ...this.finishedHands,
        ].slice(0, this.maxHands);
        this.model.lastHands = this.finishedHands;
      }
      this.notify();
      return true;
    }
    return false;
  }
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
