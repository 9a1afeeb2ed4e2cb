// Card rendering: every card is a small inline SVG (no images to load), so it scales crisply at any width.
// Two-colour deck: red hearts/diamonds, black spades/clubs. Four-colour deck (a preference): spades black,
// hearts red, diamonds blue, clubs green.

const SVG_NS = "http://www.w3.org/2000/svg";
const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_LABEL = { T: "10" };
const RANK_NAME = {
  A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight", 7: "Seven",
  6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two",
};

let fourColour = false;
try { fourColour = localStorage.getItem("rb.fourColour") === "1"; } catch { /* storage may be blocked */ }

export function isFourColour() { return fourColour; }
export function setFourColour(on) {
  fourColour = Boolean(on);
  try { localStorage.setItem("rb.fourColour", fourColour ? "1" : "0"); } catch { /* ignore */ }
  document.documentElement.classList.toggle("four-colour", fourColour);
}

/** Parse "Ah" / "10h" / "ah" into {rank: "A", suit: "h"}; null for hidden or malformed codes. */
export function parseCard(code) {
  if (typeof code !== "string") return null;
  const m = /^(10|[2-9TJQKA])([shdc])$/i.exec(code.trim());
  if (!m) return null;
  const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
  return { rank, suit: m[2].toLowerCase() };
}

export function cardName(code) {
  const c = parseCard(code);
  return c ? `${RANK_NAME[c.rank]} of ${SUIT_NAME[c.suit]}` : "face-down card";
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Render one card.
 * @param {string|null} code  "Ah", or null / "??" / "" for a card whose face this client may not see.
 * @param {object} opts  {faceDown: show the back even if known, greyed: own face-down stud card (R-GEN-5)
 *                        or a card selected for discard (R-DRAW5-5), selectable, selected, small}
 */
export function renderCard(code, opts = {}) {
  const parsed = opts.faceDown ? null : parseCard(code);
  const wrap = document.createElement(opts.selectable ? "button" : "span");
  wrap.className = "card";
  if (opts.selectable) {
    wrap.type = "button";
    wrap.classList.add("card--selectable");
    wrap.setAttribute("aria-pressed", opts.selected ? "true" : "false");
  }
  if (opts.small) wrap.classList.add("card--small");
  if (opts.greyed) wrap.classList.add("card--greyed");
  if (opts.selected) wrap.classList.add("card--selected");
  if (opts.highlight) wrap.classList.add("card--highlight");
  const root = svg("svg", { viewBox: "0 0 60 84", "aria-hidden": "true", focusable: "false" });
  if (!parsed) {
    wrap.classList.add("card--back");
    wrap.setAttribute("aria-label", "face-down card");
    wrap.dataset.card = "";
    root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back-bg" }));
    root.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-pattern" }));
    root.append(svg("text", { x: 30, y: 50, "text-anchor": "middle", class: "card-back-logo" }, "R"));
  } else {
    wrap.classList.add(`suit-${parsed.suit}`);
    wrap.dataset.card = parsed.rank + parsed.suit;
    wrap.setAttribute("aria-label", cardName(code));
    wrap.title = cardName(code);
    const label = RANK_LABEL[parsed.rank] || parsed.rank;
    root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }));
    root.append(svg("text", { x: 6, y: 24, class: "card-rank" + (label.length > 1 ? " card-rank--wide" : "") }, label));
    root.append(svg("text", { x: 7, y: 42, class: "card-suit-small" }, SUIT_SYMBOL[parsed.suit]));
    root.append(svg("text", { x: 38, y: 74, "text-anchor": "middle", class: "card-suit-big" }, SUIT_SYMBOL[parsed.suit]));
  }
  wrap.append(root);
  return wrap;
}
