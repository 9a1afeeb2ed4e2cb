// What the client needs to know about each game: its display name and its family, which decides the table
// layout (community board, stud up/down cards, or draw with discards). Names follow RULES.md section 4.

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

export function gameInfo(id) {
  if (id && GAMES[id]) return GAMES[id];
  const key = String(id || "").toLowerCase().replace(/[^a-z0-9]+/g, "_");
  if (GAMES[key]) return GAMES[key];
  // Unknown ids still render: guess the family from the name.
  let family = "flop";
  if (/stud|razz|soko|americana/.test(key)) family = "stud";
  else if (/draw/.test(key)) family = "draw";
  return { name: String(id || "Poker"), family };
}

export function gameName(id) { return gameInfo(id).name; }
export function gameFamily(id) { return gameInfo(id).family; }
export function structureName(code) { return STRUCTURES[code] || code || ""; }
