// Folding events into the table model. During a hand the room sends events to everybody and a full
// `table_state` only to the player whose turn it is, so bets, stacks, cards, the board and the showdown are kept
// current from events here.

import { gameInfo, SIZEABLE, mixedName } from "./games.js";
import { pick, int, asArray, normalizeCard } from "./view_fields.js";
import { t } from "./i18n.js";
import { potLabel } from "./hand_log.js";

/** A label of the seat's hand on a later run of a run-it-twice hand (a hi/lo half adds to the other's). */
function addRunLabel(seat, run, label) {
  if (!seat.runLabels) seat.runLabels = [];
  const had = seat.runLabels[run];
  seat.runLabels[run] = had && had !== label && !had.split(" / ").includes(label) ? `${had} / ${label}` : (had || label);
}

/** R-RIT-2: `showed` names each hand on the first board; the award of a later run (a `pot_awarded` event or a pot
 * of the view's result) names its winners' hands on that run's board (`hands`, "The winning hand"). */
export function addRunHands(seats, run, hands) {
  if (run <= 0) return;
  for (const [w, won] of Object.entries(hands || {})) {
    const s = seats[int(w)];
    if (s && !s.empty && won && won.label) addRunLabel(s, run, won.label);
  }
}

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
    model.pots = model.collected > 0 ? [{ amount: model.collected, label: t("pot.pot"), eligible: [], winners: [], won: {} }] : [];
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
        model.gameName = mixedName(model.mixed, info.name);
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
          label: null, labels: [], runLabels: [], won: 0, winner: false, discarded: null, mucked: false, acting: false,
          exposed: false });
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
    case "turn": {
      // A decision was armed (sent to everyone): who is to act, which timer phase, how long is left.
      const phase = String(pick(event, "phase") ?? "action");
      const left = Number(pick(event, "remaining"));
      const secs = Number.isFinite(left) ? left : 20;
      model.toAct = seatNo === undefined || seatNo === null ? null : int(seatNo);
      const sameDecision = model.timer && Number(model.timer.seat) === model.toAct && model.timer.phase === phase;
      model.timer = {
        seat: model.toAct, kind: phase === "draw" ? "draw" : "act", phase,
        total: sameDecision ? model.timer.total : (phase === "draw" || phase === "reconnect" ? Math.max(30, secs) : Math.max(20, secs)),
        deadline: Date.now() + 1000 * secs,
        timebank: sameDecision ? model.timer.timebank : 0,
        usingBank: phase === "timebank",
      };
      if (phase === "timebank") model.timer.total = Math.max(secs, 1);
      if (model.toAct !== heroSeat) model.legal = null;
      for (const s2 of model.seats) s2.acting = !s2.empty && s2.seat === model.toAct;
      break;
    }
    case "acted":
      model.toAct = null;
      model.timer = null;
      for (const s2 of model.seats) s2.acting = false;
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
      model.toAct = null;
      model.timer = null;
      for (const s2 of model.seats) s2.acting = false;
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
    case "exposed":
      // R-SHOW-4 reading: betting is over with a player all-in; these hands are turned face up before the run-out
      for (const [s, cards] of Object.entries(pick(event, "hands") || {})) {
        const shown = model.seats[int(s)];
        if (!shown || shown.empty) continue;
        shown.cards = asArray(cards).map((c) => normalizeCard(c, true));
        shown.exposed = true;
      }
      model.showdown = true;
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
      const label = potLabel(index, share, model.runs.length > 1 || runNo > 0 ? runNo : null);
      model.awards.push({ amount: int(pick(event, "amount")), label, eligible: [], winners: entries.map(([w]) => int(w)),
        won: winners, run: runNo, share });
      addRunHands(model.seats, runNo, pick(event, "hands"));
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
          alias: pick(event, "alias") ?? aliases[String(pid)] ?? t("log.player_n", { n: pid }),
          stack: int(pick(event, "stack")), bet: 0, cards: [], isHero: false, label: null, labels: [], won: 0,
          discarded: null, timebank: null, folded: false, allIn: false, sittingOut: false, disconnected: false,
          waiting: true, status: "waiting", acting: false, winner: false,
        };
      }
      break;
    case "left": case "evicted":
      if (live && live.seat !== heroSeat) model.seats[live.seat] = emptySeat(live.seat);
      break;
    case "alias_changed": {
      // R-ALIAS-2: the player at this seat has a new public name; seat views and the lines from now on use it
      const alias = pick(event, "alias");
      if (live && alias) {
        model.renamed = { seat: live.seat, from: live.alias, to: alias };
        live.alias = alias;
        if (aliases && live.playerId !== undefined) aliases[String(live.playerId)] = alias;
      }
      break;
    }
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
export function carryFinishedHand(next, previous) {
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
    Object.assign(seat, { cards: old.cards, label: old.label, labels: old.labels, runLabels: old.runLabels, won: old.won, winner: old.winner,
      folded: old.folded, mucked: old.mucked });
  }
}
