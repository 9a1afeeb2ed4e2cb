// The hand log: one line of text per event (engine and room events of docs/protocol.md).

import { pick, int, asArray } from "./view_fields.js";
import { formatMoney } from "./util.js";
import { t } from "./i18n.js";
import { handName } from "./hand_names.js";

// Each line comes from the catalog ("log.*"); names, amounts and cards are filled in as data. Forced bets are named
// by the engine's `what` ("small blind", "ante"...: "log.posted_<what>"), actions by their kind ("log.act_<kind>").

const ACTED = new Set(["fold", "check", "call", "bet", "raise", "complete", "straddle", "bring_in", "run_twice", "run_once",
  "agree_split", "decline_split", "stand_pat", "discard", "draw"]);
const POSTED = new Set(["ante", "blind", "dead", "live"]);  // engine/views.py PostedEvent.what

/** One line of text for the hand log from an event dict; null for events that need no line. */
export function describeEvent(event, model) {
  const kind = String(pick(event, "kind", "type") || "");
  const seat = pick(event, "seat");
  const nameOf = (n) => (model && model.seats && model.seats[n] && !model.seats[n].empty ? model.seats[n].alias : t("log.seat_n", { n: int(n) + 1 }));
  const who = seat !== undefined && seat !== null ? nameOf(seat) : (pick(event, "alias") ?? "");
  const money = (v) => (v === undefined || v === null ? "" : formatMoney(int(v), model ? model.currency : "PLAY"));
  const cards = asArray(pick(event, "cards")).filter((c) => typeof c === "string" && c !== "??").join(" ");
  // run it twice (R-RIT-2): a shown hand's label is its hand on the first board; each award is one run's
  const twice = Boolean(model && model.runs && model.runs.length > 1);
  switch (kind) {
    case "hand_started": case "hand_start": case "new_hand":
      return t("log.hand_starts", { id: pick(event, "hand_id", "hand") ?? "" });
    case "posted": {
      const what = String(pick(event, "what") ?? "").replace(/[\s-]+/g, "_");
      const amount = money(pick(event, "amount"));
      return POSTED.has(what) ? t(`log.posted_${what}`, { name: who, amount })  // i18n-dynamic: log.posted_*
        : t("log.posted", { name: who, amount });
    }
    case "acted": {
      const action = String(pick(event, "action") || "");
      const allIn = pick(event, "all_in") ? ` ${t("log.all_in_mark")}` : "";
      const to = money(pick(event, "to", "amount"));
      const amount = money(pick(event, "amount"));
      if (!ACTED.has(action)) return t("log.acted_other", { name: who, action: action.replace(/_/g, " ") }) + allIn;
      return t(`log.act_${action}`, { name: who, to, amount }) + allIn;  // i18n-dynamic: log.act_*
    }
    case "drew": {
      const n = int(pick(event, "count"), 0);
      return n ? t("log.draws", { name: who, count: n }) : t("log.act_stand_pat", { name: who });
    }
    case "drew_cards": {
      const discarded = asArray(pick(event, "discarded")).join(" ");
      return cards ? t("log.you_discard_draw", { discarded, cards }) : t("log.you_discard", { discarded });
    }
    case "board":
      return cards ? (pick(event, "run") ? t("log.board_run2", { cards }) : t("log.board", { cards })) : null;
    case "street":
      return null;
    case "dealt":
      return null;
    case "showed": {
      const label = pick(event, "label");
      if (!label) return t("log.shows", { name: who, cards });
      return twice ? t("log.shows_run1", { name: who, cards, hand: handName(label) })
        : t("log.shows_hand", { name: who, cards, hand: handName(label) });
    }
    case "exposed": {
      // R-SHOW-4 reading: the all-in hands face up before the rest of the cards are dealt
      const hands = pick(event, "hands") || {};
      const parts = Object.entries(hands).map(([s, cs]) => `${nameOf(s)} ${asArray(cs).join(" ")}`);
      return parts.length ? t("log.exposed", { hands: parts.join(" · ") }) : null;
    }
    case "mucked":
      return t("log.mucks", { name: who });
    case "pot_awarded": {
      const winners = pick(event, "winners") || {};
      const entries = Array.isArray(winners) ? winners.map((w) => [w, pick(event, "amount")]) : Object.entries(winners);
      const share = pick(event, "share");
      const what = share === "high" || share === "low" ? ` ${t(`log.share_${share}`)}` : share === "split" ? ` ${t("log.share_split")}` : "";  // i18n-dynamic: log.share_*
      const hands = pick(event, "hands") || {};  // the winning hand's name (docs/protocol.md "The winning hand")
      const handOf = (w) => (hands[String(w)] && hands[String(w)].label ? handName(hands[String(w)].label) : null);
      const onRun = twice ? ` ${t("log.on_run", { n: int(pick(event, "run"), 0) + 1 })}` : "";
      return entries.map(([w, amt]) => {
        const hand = handOf(w);
        const details = `${what}${onRun}`;
        return hand ? t("log.wins_with", { name: nameOf(w), amount: money(amt), details, hand })
          : t("log.wins", { name: nameOf(w), amount: money(amt), details });
      }).join("; ") || null;
    }
    case "returned":
      return t("log.returned", { amount: money(pick(event, "amount")), name: who });
    case "rake":
      return t("log.rake", { amount: money(pick(event, "amount")) });
    case "split_agreed":
      return t("log.split_agreed");
    case "split_refused":
      return who ? t("log.split_refused", { name: who }) : t("log.split_refused_anon");
    case "run_it_twice":
      return t("log.run_it_twice");
    case "reshuffled":
      return t("log.reshuffled");
    case "hand_over": case "hand_end":
      return t("log.hand_over");
    case "seated": case "sat": case "player_sat": case "joined":
      return t("log.sits_down", { name: pick(event, "alias") ?? who });
    case "left": case "player_left":
      return t("log.leaves", { name: pick(event, "alias") ?? who });
    case "sat_out": case "sit_out":
      return t("log.sits_out", { name: who });
    case "alias_changed": {
      const renamed = model && model.renamed;
      const alias = pick(event, "alias");
      return renamed && renamed.to === alias && renamed.from ? t("log.renamed", { old: renamed.from, name: alias }) : null;
    }
    default:
      return null;
  }
}

/** A pot's name on the felt: "Main pot", "Side pot 2", with the hi/lo half, a split agreement and the run of a
 * run-it-twice hand (`run` counted from 0; null when the hand was run once). */
export function potLabel(index, share = null, run = null) {
  let label = index === 0 ? t("pot.main") : t("pot.side", { n: index });
  if (share === "high" || share === "low") label += ` ${t(`log.share_${share}`)}`;
  if (share === "split") label += ` ${t("pot.split")}`;
  if (run !== null && run !== undefined) label += ` · ${t("pot.run", { n: int(run) + 1 })}`;
  return label;
}

/** The line of the result banner for one winner. */
export function winLine(alias, amount, share, run, hand) {
  const what = share === "high" || share === "low" ? ` ${t(`log.share_${share}`)}` : "";
  const onRun = run !== null && run !== undefined ? ` ${t("log.on_run", { n: run + 1 })}` : "";
  const details = `${what}${onRun}`;
  return hand ? t("log.wins_with", { name: alias, amount, details, hand: handName(hand) }) : t("log.wins", { name: alias, amount, details });
}
