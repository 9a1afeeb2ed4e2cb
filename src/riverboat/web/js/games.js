import { formatMoney } from "./util.js";
import { hasKey, t } from "./i18n.js";

// What the client needs to know about each game: its display name and its family, which decides the table
// layout (community board, stud up/down cards, or draw with discards). Names follow RULES.md section 4; each
// language's name is the catalog's "game.<id>" (games/catalog.py's ids; the catalog test checks every one).

export const GAMES = {
  holdem: { name: "Texas Hold'em", family: "flop" },
  omaha: { name: "Omaha", family: "flop" },
  omaha5: { name: "5-Card Omaha", family: "flop" },
  omaha_hl: { name: "Omaha Hi/Lo", family: "flop" },
  omaha5_hl: { name: "5-Card Omaha Hi/Lo", family: "flop" },
  six_plus: { name: "Six Plus Hold'em", family: "flop" },
  stud: { name: "7 Card Stud", family: "stud" },
  stud_hl: { name: "7 Card Stud Hi/Lo", family: "stud" },
  razz: { name: "Razz", family: "stud" },
  soko: { name: "Soko", family: "stud" },
  americana: { name: "Americana", family: "stud" },
  draw5: { name: "5 Card Draw", family: "draw" },
  triple_draw_27: { name: "2-7 Triple Draw", family: "draw" },
  draw32: { name: "32 Card Draw", family: "draw" },
  horse: { name: "HORSE", family: "mixed" },
  "8game": { name: "8-Game", family: "mixed" },
};

export const STRUCTURES = {
  FL: "Fixed Limit", SL: "Spread Limit", PL: "Pot Limit", HPL: "Half Pot Limit", NL: "No Limit",
};

/** Structures that let the player choose an amount with a slider and pot-size shortcuts (R-PL, R-HPL, R-NL). */
export const SIZEABLE = new Set(["PL", "HPL", "NL", "SL"]);

const localName = (id) => (hasKey(`game.${id}`) ? t(`game.${id}`) : GAMES[id].name);  // i18n-dynamic: game.*

export function gameInfo(id) {
  if (id && GAMES[id]) return { ...GAMES[id], name: localName(id) };
  const key = String(id || "").toLowerCase().replace(/[^a-z0-9]+/g, "_");
  if (GAMES[key]) return { ...GAMES[key], name: localName(key) };
  // Unknown ids still render: guess the family from the name.
  let family = "flop";
  if (/stud|razz|soko|americana/.test(key)) family = "stud";
  else if (/draw/.test(key)) family = "draw";
  return { name: id ? String(id) : t("game.poker"), family };
}

/**
 * The stakes of a table or pool in one form for every game (R-FL, R-STUD, R-ANTE, R-BRINGIN): blind games show
 * their blinds, limit games also their small and big bets, stud games their ante, bring-in and bets.
 * `stakes` has smallBlind, bigBlind, ante, bringIn, smallBet, bigBet (minor units).
 */
export function stakesLabel(family, structure, stakes, currency) {
  const money = (v) => formatMoney(v, currency);
  const s = stakes || {};
  const parts = [];
  const limit = structure === "FL" || structure === "SL";
  if (family === "stud") {
    if (s.ante) parts.push(t("stakes.ante", { amount: money(s.ante) }));
    if (s.bringIn) parts.push(t("stakes.bring_in", { amount: money(s.bringIn) }));
    parts.push(t("stakes.bets", { small: money(s.smallBet || s.smallBlind), big: money(s.bigBet || s.bigBlind) }));
    return parts.join(" · ");
  }
  parts.push(t("stakes.blinds", { small: money(s.smallBlind), big: money(s.bigBlind) }));
  if (limit && (s.smallBet || s.bigBet)) parts.push(t("stakes.bets", { small: money(s.smallBet || s.bigBlind), big: money(s.bigBet || 2 * (s.smallBet || s.bigBlind)) }));
  if (s.ante) parts.push(t("stakes.ante", { amount: money(s.ante) }));
  return parts.join(" · ");
}

/** The stakes label of a lobby entry (a cash table or Speed Poker pool of GET /api/lobby). */
export function lobbyStakes(entry) {
  const game = entry.current_game || entry.game;
  const family = entry.mixed ? gameFamily(game) : gameFamily(entry.game);
  const stakes = {
    smallBlind: entry.small_blind, bigBlind: entry.big_blind, ante: entry.ante, bringIn: entry.bring_in,
    smallBet: entry.small_bet, bigBet: entry.big_bet,
  };
  if (entry.mixed) {
    // A mixed table: its blinds and bets, and the ante and bring-in of its stud games.
    const blinds = stakesLabel("flop", "FL", { ...stakes, ante: 0 }, entry.currency);
    const studParts = [];
    if (entry.ante) studParts.push(t("stakes.stud_ante", { amount: formatMoney(entry.ante, entry.currency) }));
    if (entry.bring_in) studParts.push(t("stakes.bring_in", { amount: formatMoney(entry.bring_in, entry.currency) }));
    return [blinds, ...studParts].join(" · ");
  }
  return stakesLabel(family, entry.current_structure || entry.structure, stakes, entry.currency);
}

/** "HORSE: 7 Card Stud" at a mixed table (the rotation and the game of this hand), the game's name otherwise. */
export function mixedName(mixed, name) {
  return mixed ? t("game.mixed_current", { rotation: gameInfo(mixed).name, game: name }) : name;
}

export function gameName(id) { return gameInfo(id).name; }
export function gameFamily(id) { return gameInfo(id).family; }
export function structureName(code) { return STRUCTURES[code] ? t(`structure.${code}`) : code || ""; }  // i18n-dynamic: structure.*

/** R-LIMIT-GEN-3's in-game labels (FL, SL, PL, ½PL, NL): where space is tight (lobby rows, the table header); the
 * long names (structureName) in details. */
export const STRUCTURE_LABELS = { FL: "FL", SL: "SL", PL: "PL", HPL: "½PL", NL: "NL" };
export function structureLabel(code) { return STRUCTURE_LABELS[code] ? t(`structure_short.${code}`) : code || ""; }  // i18n-dynamic: structure_short.*
