// Hand names in the player's language (issue #32). The server names a hand with the evaluator's fixed label grammar
// (evaluate/spec.py describe(): "Full House, Queens over Sixes", "Eight-Seven low", "Flush, King high", hi/lo
// halves joined by " / "; Badugi "Three-card, K-4-A"). That grammar is closed -- thirteen rank words and a dozen
// patterns -- so each label maps onto the catalog's "hand.*" and "rank.*" entries; a label outside it is shown as
// the server wrote it.

import { t } from "./i18n.js";

const RANKS = {
  Deuce: "2", Three: "3", Four: "4", Five: "5", Six: "6", Seven: "7", Eight: "8", Nine: "9", Ten: "t", Jack: "j",
  Queen: "q", King: "k", Ace: "a",
};
const PLURALS = {
  Deuces: "2", Threes: "3", Fours: "4", Fives: "5", Sixes: "6", Sevens: "7", Eights: "8", Nines: "9", Tens: "t",
  Jacks: "j", Queens: "q", Kings: "k", Aces: "a",
};

// i18n-dynamic: rank.*
const one = (word) => (RANKS[word] ? t(`rank.${RANKS[word]}.one`) : null);
const many = (word) => (PLURALS[word] ? t(`rank.${PLURALS[word]}.many`) : null);

const R = "(Deuce|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace)";
const RS = "(Deuces|Threes|Fours|Fives|Sixes|Sevens|Eights|Nines|Tens|Jacks|Queens|Kings|Aces)";

/** [pattern, (match) -> text or null] in the order of the evaluator's describe(). */
const PATTERNS = [
  [new RegExp(`^${R}-${R} low$`), (m) => t("hand.low", { a: one(m[1]), b: one(m[2]) })],
  [new RegExp(`^High Card, ${R} high$`), (m) => t("hand.high_card", { a: one(m[1]) })],
  [new RegExp(`^One Pair, ${RS}$`), (m) => t("hand.pair", { a: many(m[1]) })],
  [new RegExp(`^Two Pair, ${RS} and ${RS}$`), (m) => t("hand.two_pair", { a: many(m[1]), b: many(m[2]) })],
  [new RegExp(`^Three of a Kind, ${RS}$`), (m) => t("hand.trips", { a: many(m[1]) })],
  [new RegExp(`^Straight, ${R} high$`), (m) => t("hand.straight", { a: one(m[1]) })],
  [new RegExp(`^Flush, ${R} high$`), (m) => t("hand.flush", { a: one(m[1]) })],
  [new RegExp(`^Full House, ${RS} over ${RS}$`), (m) => t("hand.full_house", { a: many(m[1]), b: many(m[2]) })],
  [new RegExp(`^Four of a Kind, ${RS}$`), (m) => t("hand.quads", { a: many(m[1]) })],
  [/^Royal Flush$/, () => t("hand.royal_flush")],
  [new RegExp(`^Straight Flush, ${R} high$`), (m) => t("hand.straight_flush", { a: one(m[1]) })],
  [new RegExp(`^4-Flush, ${R} high$`), (m) => t("hand.four_flush", { a: one(m[1]) })],
  [new RegExp(`^4-Straight, ${R} high$`), (m) => t("hand.four_straight", { a: one(m[1]) })],
  [/^Badugi, ([2-9TJQKA](?:-[2-9TJQKA])*)$/, (m) => t("hand.badugi", { cards: m[1] })],
  [/^(Three|Two|One)-card, ([2-9TJQKA](?:-[2-9TJQKA])*)$/, (m) => t("hand.badugi_partial", { count: { Three: 3, Two: 2, One: 1 }[m[1]], cards: m[2] })],
];

function one_label(part) {
  for (const [pattern, render] of PATTERNS) {
    const m = pattern.exec(part);
    if (m) return render(m);
  }
  return part;
}

/** The name of a shown or winning hand in the player's language (a hi/lo label's halves each translated). */
export function handName(label) {
  if (!label) return "";
  return String(label).split(" / ").map((part) => one_label(part.trim())).join(" / ");
}
