// Issue 31 item 8: the dealer button must not lie on a card. Its place around the ellipse (table_view.js
// seatPosition) suits most felts, but the board, the seats' cards and the pots are sized by the felt and the page
// (a tournament page's felt is narrower than a cash table's), so after drawing, a button found on a card, a seat's
// name box, a bet, a pot or the result line moves to the first free place on the way from its seat to the centre.

const OBSTACLES = ".card, .seat-info, .hand-label, .bet-chip, [data-testid='pots'] > *, .hand-result";

function overlaps(a, b) {
  return a.left + 0.5 < b.right && b.left + 0.5 < a.right && a.top + 0.5 < b.bottom && b.top + 0.5 < a.bottom;
}

function clear(button, obstacles) {
  const box = button.getBoundingClientRect();
  return !obstacles.some((el) => overlaps(box, el.getBoundingClientRect()));
}

/** Moves the felt's dealer button off anything it covers (does nothing when it covers nothing). */
export function clearDealerButton(felt) {
  const button = felt && felt.querySelector(".dealer-button");
  if (!button) return;
  const obstacles = [...felt.querySelectorAll(OBSTACLES)].filter((el) => el !== button);
  if (clear(button, obstacles)) return;
  const seat = felt.querySelector(`.seat[data-seat='${button.dataset.seat}'] .seat-info`);
  if (!seat) return;
  const f = felt.getBoundingClientRect();
  const ox = f.left + felt.clientLeft;
  const oy = f.top + felt.clientTop;
  const w = felt.clientWidth;
  const hgt = felt.clientHeight;
  const s = seat.getBoundingClientRect();
  const sx = (s.left + s.right) / 2 - ox;
  const sy = (s.top + s.bottom) / 2 - oy;
  const dx = w / 2 - sx;
  const dy = hgt / 2 - sy;
  const len = Math.hypot(dx, dy) || 1;
  const box = button.getBoundingClientRect();
  const size = box.width || 20;
  // candidates are tried on paper (the button's box centred there: it is centred on its left/top by the CSS), so the
  // page's style changes once, when a free place is found, not once per try (a calm DOM, issue #14)
  for (const along of [0.3, 0.4, 0.2, 0.5, 0.6]) {
    for (const side of [0, 1, -1, 2, -2, 3, -3, 4, -4]) {
      const x = sx + dx * along - (dy / len) * side * size;
      const y = sy + dy * along + (dx / len) * side * size;
      if (x < size || y < size || x > w - size || y > hgt - size) continue;
      const cx = ox + x;
      const cy = oy + y;
      const tried = { left: cx - box.width / 2, right: cx + box.width / 2, top: cy - box.height / 2, bottom: cy + box.height / 2 };
      if (!obstacles.some((el) => overlaps(tried, el.getBoundingClientRect()))) {
        button.style.left = `${((100 * x) / w).toFixed(2)}%`;
        button.style.top = `${((100 * y) / hgt).toFixed(2)}%`;
        return;
      }
    }
  }
  // no free place: the button stays where the layout put it
}
