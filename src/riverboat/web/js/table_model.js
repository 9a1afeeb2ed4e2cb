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
      alias: String(pick(merged, "alias", "name") ?? aliases[String(playerId)] ?? (playerId !== undefined ? `Player ${playerId}` : `Seat ${seatNo + 1}`)),
      stack: int(pick(merged, "stack", "chips")),
      bet: int(pick(merged, "bet", "street_bet", "committed")),
      cards,
      isHero,
      label: pick(merged, "hand_label", "label") ?? null,
      labels: asArray(pick(merged, "hand_labels", "labels")),
      won: int(pick(merged, "won", "winnings"), 0),
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
    let label = i === 0 ? "Main pot" : `Side pot ${i}`;
    if (share === "high" || share === "low") label += share === "high" ? " (high)" : " (low)";
    if (share === "split") label += " (split)";
    if (run) label += ` · run ${int(run) + 1}`;
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
    pots.push({ amount: potTotal - betsOnTable, label: "Pot", eligible: [], winners: [], won: {} });
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

  const handId = pick(view, "hand_id") ?? pick(hand, "hand_id") ?? null;
  const stakes = pick(view, "stakes") || {};
  const model = {
    tableId,
    name: tv("name") ?? tableId,
    game,
    gameName: info.name + (tv("mixed") ? ` (${gameInfo(tv("mixed")).name})` : ""),
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
  return model;
}

/** One line of text for the hand log from an event dict; null for events that need no line. */
export function describeEvent(event, model) {
  const kind = String(pick(event, "kind", "type") || "");
  const seat = pick(event, "seat");
  const nameOf = (n) => (model && model.seats && model.seats[n] && !model.seats[n].empty ? model.seats[n].alias : `Seat ${int(n) + 1}`);
  const who = seat !== undefined && seat !== null ? nameOf(seat) : (pick(event, "alias") ?? "");
  const money = (v) => (v === undefined || v === null ? "" : formatChips(v, model));
  const cards = asArray(pick(event, "cards")).filter((c) => typeof c === "string" && c !== "??").join(" ");
  switch (kind) {
    case "hand_started": case "hand_start": case "new_hand":
      return `Hand #${pick(event, "hand_id", "hand") ?? ""} starts`;
    case "posted":
      return `${who} posts ${pick(event, "what") ?? ""} ${money(pick(event, "amount"))}`.replace(/\s+/g, " ").trim();
    case "acted": {
      const action = String(pick(event, "action") || "");
      const verb = { bring_in: "brings in", run_twice: "runs it twice", run_once: "runs it once", agree_split: "agrees to split",
        decline_split: "declines the split", stand_pat: "stands pat" }[action] || `${action.replace(/_/g, " ")}s`.replace(/ss$/, "s");
      let amount = "";
      if (["bet", "raise", "complete", "straddle"].includes(action)) amount = ` to ${money(pick(event, "to", "amount"))}`;
      else if (action === "call" || action === "bring_in") amount = ` ${money(pick(event, "amount"))}`;
      return `${who} ${action === "fold" ? "folds" : action === "check" ? "checks" : action === "call" ? "calls" : verb}${amount}${pick(event, "all_in") ? " (all-in)" : ""}`;
    }
    case "drew": {
      const n = int(pick(event, "count"), 0);
      return n ? `${who} draws ${n}` : `${who} stands pat`;
    }
    case "drew_cards":
      return `You discard ${asArray(pick(event, "discarded")).join(" ")}${cards ? ` and draw ${cards}` : ""}`;
    case "board":
      return cards ? `${pick(event, "run") ? "Run 2 board" : "Board"}: ${cards}` : null;
    case "street":
      return null;
    case "dealt":
      return null;
    case "showed":
      return `${who} shows ${cards}${pick(event, "label") ? ` (${pick(event, "label")})` : ""}`;
    case "mucked":
      return `${who} mucks`;
    case "pot_awarded": {
      const winners = pick(event, "winners") || {};
      const entries = Array.isArray(winners) ? winners.map((w) => [w, pick(event, "amount")]) : Object.entries(winners);
      const share = pick(event, "share");
      const what = share === "high" || share === "low" ? ` (${share})` : share === "split" ? " (split agreement)" : "";
      return entries.map(([w, amt]) => `${nameOf(w)} wins ${money(amt)}${what}`).join("; ") || null;
    }
    case "returned":
      return `Uncalled ${money(pick(event, "amount"))} returned to ${who}`;
    case "rake":
      return `Rake ${money(pick(event, "amount"))}`;
    case "split_agreed":
      return "All players agree to split the pot";
    case "split_refused":
      return `${who || "A player"} refuses the split`;
    case "run_it_twice":
      return "The board is run twice";
    case "reshuffled":
      return "The discards are reshuffled";
    case "hand_over": case "hand_end":
      return "Hand over";
    case "seated": case "sat": case "player_sat": case "joined":
      return `${pick(event, "alias") ?? who} sits down`;
    case "left": case "player_left":
      return `${pick(event, "alias") ?? who} leaves the table`;
    case "sat_out": case "sit_out":
      return `${who} sits out`;
    default:
      return null;
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

const HAND_END_KINDS = new Set(["hand_over", "hand_end"]);
const HAND_START_KINDS = new Set(["hand_started", "hand_start", "new_hand"]);
const DEAD_POSTS = new Set(["ante", "dead"]);

function collectBets(model) {
  for (const seat of model.seats) {
    if (seat.empty || !seat.bet) continue;
    model.collected += seat.bet;
    seat.bet = 0;
  }
}

function refreshPots(model) {
  const bets = model.seats.reduce((sum, s) => sum + (s.empty ? 0 : s.bet), 0);
  model.potTotal = model.collected + bets;
  if (!model.awards || !model.awards.length) {
    model.pots = model.collected > 0 ? [{ amount: model.collected, label: "Pot", eligible: [], winners: [], won: {} }] : [];
  }
}

function emptySeat(n) { return { seat: n, empty: true, cards: [] }; }

/**
 * Apply one engine/room event to the model in place. During a hand the room sends events to everybody and a full
 * `table_state` only to the player whose turn it is, so bets, stacks, cards, the board and the showdown are kept
 * current from events.
 */
export function applyEvent(model, event, aliases = {}) {
  const kind = String(pick(event, "kind", "type") || "");
  const seatNo = pick(event, "seat");
  const seat = seatNo !== undefined && seatNo !== null ? model.seats[int(seatNo)] : null;
  const live = seat && !seat.empty ? seat : null;
  const heroSeat = model.heroSeat;
  switch (kind) {
    case "hand_started": case "hand_start": case "new_hand": {
      const dealt = new Set(asArray(pick(event, "seats")).map((x) => int(x)));
      model.handId = pick(event, "hand_id") ?? model.handId;
      model.button = pick(event, "button") ?? model.button;
      const game = pick(event, "game");
      if (game) {
        // Mixed games (HORSE, 8-Game) change game from hand to hand.
        const info = gameInfo(game);
        model.game = game;
        model.family = info.family === "mixed" ? "flop" : info.family;
        model.gameName = info.name + (model.mixed ? ` (${gameInfo(model.mixed).name})` : "");
      }
      if (pick(event, "structure")) {
        model.structure = String(pick(event, "structure")).toUpperCase();
        model.sizeable = SIZEABLE.has(model.structure);
      }
      model.board = []; model.runs = []; model.pots = []; model.awards = []; model.roundStart = null;
      model.collected = 0; model.potTotal = 0; model.rake = 0;
      model.handOver = false; model.showdown = false; model.legal = null; model.toAct = null; model.timer = null;
      for (const s of model.seats) {
        if (s.empty) continue;
        Object.assign(s, { cards: [], bet: 0, folded: !dealt.has(s.seat), inHand: dealt.has(s.seat), allIn: false,
          label: null, labels: [], won: 0, winner: false, discarded: null, mucked: false, acting: false });
      }
      break;
    }
    case "posted":
      if (live) {
        const amount = int(pick(event, "amount"));
        live.stack -= amount;
        if (DEAD_POSTS.has(String(pick(event, "what")))) model.collected += amount;
        else live.bet += amount;
      }
      break;
    case "dealt":
      if (live) {
        // Remember how many cards everyone had when this dealing round began (for the backs below).
        if (!model.roundStart) {
          model.roundStart = {};
          for (const s2 of model.seats) if (!s2.empty) model.roundStart[s2.seat] = s2.cards.length;
        }
        const up = Boolean(pick(event, "up"));
        const cards = asArray(pick(event, "cards"));
        for (const c of cards) live.cards.push(normalizeCard(c, up));
        // Face-down cards of the others are never sent (R-GEN-5): when this player gets n down cards, every
        // other player still in the hand got n as well, dealt before their up card of the same round.
        if (!up && live.seat === heroSeat) {
          for (const other of model.seats) {
            if (other.empty || other.seat === heroSeat || other.folded || other.inHand === false) continue;
            const at = Math.min(model.roundStart[other.seat] ?? other.cards.length, other.cards.length);
            const backs = cards.map(() => ({ code: null, up: false }));
            other.cards.splice(at, 0, ...backs);
          }
        }
      }
      break;
    case "board": {
      const cards = asArray(pick(event, "cards")).map((c) => normalizeCard(c, true).code);
      const run = pick(event, "run");
      collectBets(model);
      if (run === undefined || run === null) model.board = [...model.board, ...cards];
      else {
        model.runs[int(run)] = [...model.board, ...cards];
        if (model.runs.length > 1) model.board = model.runs[0];
      }
      break;
    }
    case "street":
      model.roundStart = null;
      model.street = pick(event, "street") ?? model.street;
      if (int(pick(event, "street"), 0) > 0) collectBets(model);
      break;
    case "acted":
      if (live) {
        const action = String(pick(event, "action") || "");
        if (action === "fold") live.folded = true;
        else if (action === "call" || action === "bring_in") {
          const paid = int(pick(event, "amount"));
          live.stack -= paid;
          live.bet += paid;
        } else if (["bet", "raise", "complete", "straddle"].includes(action)) {
          const to = int(pick(event, "to", "amount"));
          live.stack -= to - live.bet;
          live.bet = to;
        }
        if (pick(event, "all_in") !== undefined) live.allIn = Boolean(pick(event, "all_in"));
        if (live.seat === heroSeat) { model.legal = null; model.toAct = null; model.timer = null; }
      }
      break;
    case "drew":
      collectBets(model);
      if (live) {
        live.discarded = int(pick(event, "count"), 0);
        if (live.seat === heroSeat) { model.legal = null; model.toAct = null; model.timer = null; }
      }
      break;
    case "drew_cards":
      if (live) {
        const gone = new Set(asArray(pick(event, "discarded")));
        live.cards = live.cards.filter((c) => !gone.has(c.code));
        for (const c of asArray(pick(event, "cards"))) live.cards.push(normalizeCard(c, false));
      }
      break;
    case "returned":
      if (live) {
        const back = int(pick(event, "amount"));
        live.stack += back;
        live.bet = Math.max(0, live.bet - back);
      }
      collectBets(model);
      break;
    case "showed":
      if (live) {
        const shown = asArray(pick(event, "cards")).map((c) => normalizeCard(c, true));
        if (shown.length) live.cards = shown;
        live.label = pick(event, "label") ?? live.label;
        model.showdown = true;
      }
      break;
    case "mucked":
      if (live) live.mucked = true;
      break;
    case "pot_awarded": {
      collectBets(model);
      const winners = pick(event, "winners") || {};
      const entries = Array.isArray(winners) ? winners.map((w) => [w, pick(event, "amount")]) : Object.entries(winners);
      const share = pick(event, "share");
      const run = pick(event, "run");
      model.awards = model.awards || [];
      // Awards come pot by pot (main first), each hi/lo half and each run of a run-it-twice hand separately.
      const runNo = int(run, 0);
      const index = model.awards.filter((a) => a.run === runNo && a.share === share).length;
      let label = index === 0 ? "Main pot" : `Side pot ${index}`;
      if (share === "high" || share === "low") label += ` (${share})`;
      if (share === "split") label += " (split)";
      if (model.runs.length > 1 || runNo > 0) label += ` · run ${runNo + 1}`;
      model.awards.push({ amount: int(pick(event, "amount")), label, eligible: [], winners: entries.map(([w]) => int(w)),
        won: winners, run: runNo, share });
      for (const [w, chips] of entries) {
        const ws = model.seats[int(w)];
        if (!ws || ws.empty || model.resultApplied) continue;
        ws.won += int(chips);
        ws.winner = true;
        ws.stack += int(chips);
      }
      model.collected = Math.max(0, model.collected - int(pick(event, "amount")));
      model.pots = model.awards;
      break;
    }
    case "rake":
      model.rake = int(pick(event, "amount"));
      model.collected = Math.max(0, model.collected - model.rake);
      break;
    case "split_agreed":
      model.showdown = true;
      break;
    case "hand_over": case "hand_end": {
      const stacks = pick(event, "stacks") || {};
      for (const [k, v] of Object.entries(stacks)) {
        const s2 = model.seats[int(k)];
        if (s2 && !s2.empty) s2.stack = int(v);
      }
      model.handOver = true; model.legal = null; model.toAct = null; model.timer = null;
      for (const s2 of model.seats) if (!s2.empty) { s2.bet = 0; s2.acting = false; }
      model.collected = 0;
      break;
    }
    case "seated":
      if (seatNo !== undefined && seatNo !== null && (!seat || seat.empty)) {
        const pid = pick(event, "player");
        model.seats[int(seatNo)] = {
          seat: int(seatNo), empty: false, playerId: pid,
          alias: pick(event, "alias") ?? aliases[String(pid)] ?? `Player ${pid}`,
          stack: int(pick(event, "stack")), bet: 0, cards: [], isHero: false, label: null, labels: [], won: 0,
          discarded: null, timebank: null, folded: false, allIn: false, sittingOut: false, disconnected: false,
          waiting: true, status: "waiting", acting: false, winner: false,
        };
      }
      break;
    case "left": case "evicted":
      if (live && live.seat !== heroSeat) model.seats[live.seat] = emptySeat(live.seat);
      break;
    case "sat_out":
      if (live) live.sittingOut = true;
      break;
    case "sat_in":
      if (live) live.sittingOut = false;
      break;
    case "topped_up":
      if (live) live.stack = int(pick(event, "stack"), live.stack);
      break;
    case "timebank":
      if (model.timer && live && int(model.timer.seat) === live.seat) {
        model.timer.usingBank = true;
        model.timer.phase = "timebank";
        const secs = Number(pick(event, "seconds")) || 0;
        model.timer.total = Math.max(secs, 1);
        model.timer.deadline = Date.now() + 1000 * secs;
      }
      break;
    default:
      break;
  }
  refreshPots(model);
  model.hero = model.heroSeat !== null ? model.seats[model.heroSeat] : null;
  return model;
}

/** Keep the finished hand on screen (cards, labels, winners, board) when the room's next view has no hand. */
function carryFinishedHand(next, previous) {
  if (!previous || !previous.handOver || next.handId !== null) return;
  if (!(previous.showdown || (previous.awards && previous.awards.length))) return;
  next.handId = previous.handId;
  next.handOver = true;
  next.board = previous.board;
  next.runs = previous.runs;
  next.pots = previous.pots;
  next.awards = previous.awards;
  next.showdown = previous.showdown;
  next.log = previous.log;
  for (const seat of next.seats) {
    const old = previous.seats[seat.seat];
    if (seat.empty || !old || old.empty || String(old.playerId) !== String(seat.playerId)) continue;
    Object.assign(seat, { cards: old.cards, label: old.label, labels: old.labels, won: old.won, winner: old.winner,
      folded: old.folded, mucked: old.mucked });
  }
}

/**
 * A table store: the model plus its update functions. `apply(frame)` takes any server frame for this table;
 * listeners get the new model after each change.
 */
export class TableStore {
  constructor(tableId, { maxHands = 10, clock = () => Date.now(), aliases = {} } = {}) {
    this.tableId = tableId;
    this.aliases = aliases;
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
    if (!frame || String(frame.table) !== String(this.tableId)) return false;
    if (frame.type === "table_state") {
      const next = modelFromView(this.tableId, frame.view || {}, this.model, this.clock(), this.aliases);
      const hasHand = frame.view && frame.view.hand;
      if (!hasHand) carryFinishedHand(next, this.model);
      else if (this.model && this.model.handId === next.handId && this.model.awards) next.awards = this.model.awards;
      this.model = next;
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
      if (this.model) applyEvent(this.model, event, this.aliases);
      const line = describeEvent(event, this.model);
      const last = this.model && this.model.log.length ? this.model.log[this.model.log.length - 1] : null;
      // The engine and the room both announce the end of a hand: record it once.
      const duplicateEnd = HAND_END_KINDS.has(kind) && last === "Hand over";
      if (line && !(line === "Hand over" && duplicateEnd)) {
        if (this.model) this.model.log = [...this.model.log, line];
        else this.pendingLog.push(line);
      }
      if (HAND_END_KINDS.has(kind) && this.model && !duplicateEnd) {
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
