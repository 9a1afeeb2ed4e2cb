// Card rendering: every card is a small inline SVG (no images to load), so it scales crisply at any width.
// Two-colour deck: red hearts/diamonds, black spades/clubs. Four-colour deck (a preference): spades black,
// hearts red, diamonds blue, clubs green.

import { h, toNode } from "./vdom.js";
import { t } from "./i18n.js";

const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
// a card's name for screen readers and its tooltip, in the page's language (issue 31): "Ace of spades"
const SUIT_NAME = { s: "card.suit.s", h: "card.suit.h", d: "card.suit.d", c: "card.suit.c" };
const RANK_LABEL = { T: "10" };

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
  const rank = c && t(`rank.${c.rank.toLowerCase()}.one`);  // the catalog's rank.* family (hand_names.js)
  const name = c ? t("card.name", { rank, suit: t(SUIT_NAME[c.suit]) }) : t("card.face_down");
  return name.charAt(0).toLocaleUpperCase() + name.slice(1);
}

/**
 * One card as a vnode (vdom.js).
 * @param {string|null} code  "Ah", or null / "??" / "" for a card whose face this client may not see.
 * @param {object} opts  {faceDown: show the back even if known, greyed: own face-down stud card (R-GEN-5)
 *                        or a card selected for discard (R-DRAW5-5), selectable, selected, small, highlight
 *                        (a card of the winning hand), onclick, extraClass}
 */
export function cardVNode(code, opts = {}) {
  const parsed = opts.faceDown ? null : parseCard(code);
  const classes = ["card"];
  if (opts.selectable) classes.push("card--selectable");
  if (opts.small) classes.push("card--small");
  if (opts.greyed) classes.push("card--greyed");
  if (opts.selected) classes.push("card--selected");
  if (opts.highlight) classes.push("card--highlight");
  if (opts.extraClass) classes.push(opts.extraClass);
  let face;
  if (!parsed) {
    classes.push("card--back");
    face = [
      h("svg:rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back-bg" }),
      h("svg:rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-pattern" }),
      h("svg:text", { x: 30, y: 50, "text-anchor": "middle", class: "card-back-logo" }, "R"),
    ];
  } else {
    classes.push(`suit-${parsed.suit}`);
    const label = RANK_LABEL[parsed.rank] || parsed.rank;
    face = [
      h("svg:rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }),
      h("svg:text", { x: 6, y: 24, class: "card-rank" + (label.length > 1 ? " card-rank--wide" : "") }, label),
      h("svg:text", { x: 7, y: 42, class: "card-suit-small" }, SUIT_SYMBOL[parsed.suit]),
      h("svg:text", { x: 38, y: 74, "text-anchor": "middle", class: "card-suit-big" }, SUIT_SYMBOL[parsed.suit]),
    ];
  }
  const name = cardName(parsed ? code : null);
  // The face is keyed by the card, so a card turned up or changed gets a new face while an unchanged one is kept.
  const svgNode = h("svg:svg", { key: parsed ? parsed.rank + parsed.suit : "back", viewBox: "0 0 60 84", "aria-hidden": "true", focusable: "false" }, face);
  return h(opts.selectable ? "button" : "span", {
    key: opts.key ?? null,
    class: classes.join(" "),
    type: opts.selectable ? "button" : null,
    "aria-pressed": opts.selectable ? (opts.selected ? "true" : "false") : null,
    "aria-label": name,
    title: parsed ? name : null,
    "data-card": parsed ? parsed.rank + parsed.suit : "",
    onclick: opts.onclick,
  }, svgNode);
}

/** One card as a DOM node (see cardVNode). */
export function renderCard(code, opts = {}) {
  return toNode(cardVNode(code, opts));
}
