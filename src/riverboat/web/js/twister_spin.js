// The Twister spin (R-TWIST-3, R-AOG-2/3, R-WILD-1): a slot reel through the table's multipliers that lands on
// the drawn one, then the prize, its split (R-TWIST-5) and any Age of the Gods jackpot win (R-AOG-3).
// Input: the `twister_spin` event of docs/protocol.md (riverboat.twister.events.SpinEvent). The multiplier is
// decided by the server before the animation starts; the reel only shows it.

import { el, formatMoney, mount } from "/js/util.js";
import { formatOrdinal, t } from "/js/i18n.js";

const TIERS = new Set(["power", "extra_power", "super_power", "ultimate_power"]);
const tierName = (tier) => (TIERS.has(tier) ? t(`twister.tier_${tier}`) : tier);
const TURNS = 4; // full passes of the reel before it stops
const CELL = 64; // px, one multiplier

/** The reel's cells: TURNS passes through `reel`, then up to and including the drawn multiplier. */
export function reelCells(reel, multiplier) {
  const stop = reel.indexOf(multiplier);
  if (stop < 0) throw new Error(`multiplier ${multiplier} is not on the reel`);
  const cells = [];
  for (let i = 0; i < TURNS; i += 1) cells.push(...reel);
  cells.push(...reel.slice(0, stop + 1));
  return cells;
}

function placesText(spin) {
  if (spin.places.length <= 1) return t("twister.winner_takes_all");
  return spin.places.map((amount, i) => `${formatOrdinal(i + 1)} ${formatMoney(amount, spin.currency)}`).join(" · ");
}

function resultNode(spin, seatName) {
  const prize = formatMoney(spin.prize, spin.currency);
  const wins = (spin.jackpots || []).map((j) => el("div", { class: "twister-jackpot", "data-testid": "twister-jackpot" },
    t("twister.jackpot", { tier: tierName(j.tier), who: seatName(j.seat), amount: formatMoney(j.amount, spin.currency) })));
  return el("div", { class: "twister-result" },
    el("div", { class: "twister-prize", "data-testid": "twister-prize" },
      spin.ticket ? t("twister.prize_ticket", { amount: prize }) : t("twister.prize_pool", { amount: prize })),
    el("div", { class: "twister-places muted", "data-testid": "twister-places" }, placesText(spin)),
    wins);
}

/**
 * Render the spin into `root` and animate it. Resolves when the reel has landed (root.dataset.landed is then the
 * multiplier). Options: durationMs (default 3000; 0 lands at once), seatName(seat) -> label for jackpot winners.
 */
export function showSpin(root, spin, { durationMs = 3000, seatName = (seat) => t("log.seat_n", { n: seat + 1 }) } = {}) {
  const cells = reelCells(spin.reel, spin.multiplier);
  const strip = el("div", { class: "twister-strip" },
    cells.map((m, i) => el("div", { class: "twister-cell", dataset: { m: String(m), i: String(i) } }, `${m}x`)));
  const windowBox = el("div", { class: "twister-window", "data-testid": "twister-window" }, strip);
  const result = el("div", { class: "twister-result-slot" });
  const kind = ["twister", "aog", "wild"].includes(spin.kind) ? t(`tkind.kind_${spin.kind}`) : t("nav.twister");
  mount(root, el("section", { class: "twister-spin", "data-testid": "twister-spin" },
    el("h3", {}, `${kind} · ${t("twister.buy_in", { amount: formatMoney(spin.buy_in, spin.currency) })}`), windowBox, result));
  delete root.dataset.landed;
  const target = -(cells.length - 1) * CELL;
  const land = () => {
    strip.style.transition = "none";
    strip.style.transform = `translateY(${target}px)`;
    strip.lastElementChild.classList.add("twister-cell--landed");
    mount(result, resultNode(spin, seatName));
    root.dataset.landed = String(spin.multiplier);
  };
  if (!durationMs) {
    land();
    return Promise.resolve(spin.multiplier);
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = () => { if (!done) { done = true; land(); resolve(spin.multiplier); } };
    strip.addEventListener("transitionend", finish, { once: true });
    setTimeout(finish, durationMs + 250); // a hidden tab may never fire transitionend
    requestAnimationFrame(() => requestAnimationFrame(() => {
      strip.style.transition = `transform ${durationMs}ms cubic-bezier(0.15, 0.6, 0.2, 1)`;
      strip.style.transform = `translateY(${target}px)`;
    }));
  });
}
