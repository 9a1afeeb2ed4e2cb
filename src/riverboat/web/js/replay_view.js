// The hand replayer (#/replay/<table>/<hand>): any past hand of the player, step by step on the same table view
// the game uses, with the player's own cards and every card shown down. The hand is rebuilt from the events the
// player may see (GET /api/hands/{table}/{hand}): step k shows the table after the first k events.

import { el, mount } from "./util.js";
import { h, patch } from "./vdom.js";
import { api } from "./api.js";
import { TableStore } from "./table_model.js";
import { TableView } from "./table_view.js";
import { gameName, mixedName } from "./games.js";
import { plainError } from "./errors.js";
import { t } from "./i18n.js";

/** The table_state a replay starts from: the seats, stacks and names of the hand, no cards yet. */
export function replayStart(full, tableId, meId) {
  const maxSeats = Math.max(full.max_seats || 0, ...(full.seats || []).map((s) => s.seat + 1), 2);
  const stakes = full.stakes || {};
  return {
    type: "table_state", table: tableId,
    view: {
      table: { name: full.table_name || tableId, game: full.game, structure: full.structure, mixed: full.mixed || null,
        max_seats: maxSeats, currency: full.currency || "PLAY", small_blind: stakes.small_blind, big_blind: stakes.big_blind,
        ante: stakes.ante, bring_in: stakes.bring_in, small_bet: stakes.small_bet, big_bet: stakes.big_bet },
      game: full.game, structure: full.structure,
      seats: (full.seats || []).map((s) => ({ seat: s.seat, player: s.player, alias: s.alias, stack: s.stack, status: "playing" })),
      button: full.button ?? null, hand_id: null, hand: null,
      you: full.my_seat !== null && full.my_seat !== undefined ? { seat: full.my_seat, player_id: meId } : null,
    },
  };
}

/** The events to step through: a hand start first (so every seat is dealt in), then the stored events. */
export function replaySteps(full) {
  const dealt = (full.seats || []).map((s) => s.seat);
  return [{ kind: "hand_started", hand_id: full.hand_id, button: full.button, seats: dealt, game: full.game, structure: full.structure },
    ...(full.events || []).filter((e) => e.kind !== "turn")];
}

export async function renderReplay(root, ctx, tableId, handId) {
  let full;
  try {
    full = await api.hand(tableId, handId);
  } catch (err) {
    mount(root, el("div", { class: "page" }, el("p", { class: "form-error" }, plainError(err))));
    return null;
  }
  const meId = ctx.session.me ? ctx.session.me.player_id : null;
  const steps = replaySteps(full);
  const tableNode = el("div", { class: "replay-table" });
  const controls = el("div", { class: "replay-controls", "data-testid": "replay-controls" });
  mount(root, el("section", { class: "replay", "data-testid": "replayer" },
    el("header", { class: "replay-header" }, el("strong", {}, t("replay.title", { id: handId })), " ",
      el("span", { class: "muted" }, el("span", { translate: "no" }, full.table_name || tableId), ` · ${full.game ? mixedName(full.mixed, gameName(full.game)) : ""}`), " ",
      el("a", { class: "btn btn-small", href: "#/history" }, t("replay.back"))),
    tableNode, controls));
  const view = new TableView(tableNode, { act: () => null, lobby: () => ctx.navigate("#/lobby") }, { replay: true });
  let at = steps.length;
  let timer = null;

  const build = (k) => {
    const store = new TableStore(`replay:${tableId}`, { sync: true });
    store.apply({ ...replayStart(full, `replay:${tableId}`, meId) });
    for (const ev of steps.slice(0, k)) store.apply({ type: "event", table: `replay:${tableId}`, event: ev });
    if (store.model) { store.model.timer = null; store.model.legal = null; store.model.toAct = null; }
    return store.model;
  };
  const go = (k) => {
    at = Math.max(0, Math.min(steps.length, k));
    view.render(build(at));
    drawControls();
  };
  const stop = () => { if (timer) { clearInterval(timer); timer = null; } drawControls(); };
  const playAll = () => {
    if (timer) { stop(); return; }
    if (at >= steps.length) at = 0;
    timer = setInterval(() => { if (at >= steps.length) stop(); else go(at + 1); }, 700);
    drawControls();
  };
  const drawControls = () => patch(controls,
    h("button", { class: "btn btn-small", "data-testid": "replay-first", onclick: () => { stop(); go(0); }, "aria-label": t("replay.start") }, "|◀"),
    h("button", { class: "btn btn-small", "data-testid": "replay-prev", onclick: () => { stop(); go(at - 1); }, "aria-label": t("replay.step_back") }, "◀"),
    h("button", { class: "btn btn-small btn-primary", "data-testid": "replay-play", onclick: playAll }, timer ? t("replay.pause") : t("replay.play")),
    h("button", { class: "btn btn-small", "data-testid": "replay-next", onclick: () => { stop(); go(at + 1); }, "aria-label": t("replay.step_forward") }, "▶"),
    h("button", { class: "btn btn-small", "data-testid": "replay-last", onclick: () => { stop(); go(steps.length); }, "aria-label": t("replay.end") }, "▶|"),
    h("span", { class: "muted", "data-testid": "replay-step" }, t("replay.step", { n: at, total: steps.length })));
  go(0);
  return { destroy: () => { stop(); view.destroy(); } };
}
