// The hand log: one line of text per event (engine and room events of docs/protocol.md).

import { pick, int, asArray } from "./view_fields.js";
import { formatMoney } from "./util.js";

/** One line of text for the hand log from an event dict; null for events that need no line. */
export function describeEvent(event, model) {
  const kind = String(pick(event, "kind", "type") || "");
  const seat = pick(event, "seat");
  const nameOf = (n) => (model && model.seats && model.seats[n] && !model.seats[n].empty ? model.seats[n].alias : `Seat ${int(n) + 1}`);
  const who = seat !== undefined && seat !== null ? nameOf(seat) : (pick(event, "alias") ?? "");
  const money = (v) => (v === undefined || v === null ? "" : formatMoney(int(v), model ? model.currency : "PLAY"));
  const cards = asArray(pick(event, "cards")).filter((c) => typeof c === "string" && c !== "??").join(" ");
  // run it twice (R-RIT-2): a shown hand's label is its hand on the first board; each award is one run's
  const twice = Boolean(model && model.runs && model.runs.length > 1);
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
      return `${who} shows ${cards}${pick(event, "label") ? ` (${twice ? "run 1: " : ""}${pick(event, "label")})` : ""}`;
    case "exposed": {
      // R-SHOW-4 reading: the all-in hands face up before the rest of the cards are dealt
      const hands = pick(event, "hands") || {};
      const parts = Object.entries(hands).map(([s, cs]) => `${nameOf(s)} ${asArray(cs).join(" ")}`);
      return parts.length ? `All-in, hands face up: ${parts.join(" · ")}` : null;
    }
    case "mucked":
      return `${who} mucks`;
    case "pot_awarded": {
      const winners = pick(event, "winners") || {};
      const entries = Array.isArray(winners) ? winners.map((w) => [w, pick(event, "amount")]) : Object.entries(winners);
      const share = pick(event, "share");
      const what = share === "high" || share === "low" ? ` (${share})` : share === "split" ? " (split agreement)" : "";
      const hands = pick(event, "hands") || {};  // the winning hand's name (docs/protocol.md "The winning hand")
      const withHand = (w) => (hands[String(w)] && hands[String(w)].label ? ` with ${hands[String(w)].label}` : "");
      const onRun = twice ? ` on run ${int(pick(event, "run"), 0) + 1}` : "";
      return entries.map(([w, amt]) => `${nameOf(w)} wins ${money(amt)}${what}${onRun}${withHand(w)}`).join("; ") || null;
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
    case "alias_changed": {
      const renamed = model && model.renamed;
      const alias = pick(event, "alias");
      return renamed && renamed.to === alias && renamed.from ? `${renamed.from} is now known as ${alias}` : null;
    }
    default:
      return null;
  }
}
