// Speed Poker (R-SPEED): the player joins a pool, is dealt a hand at a table formed from the pool, may Speed Fold
// at any time once dealt in (R-SPEED-1, R-SPEED-2 reading) and is dealt a new hand at once. The pool sends
// `speed` frames (dealt / your_turn / hand_over / fast_folded / state) and `event` frames tagged with the hand;
// each hand is shown with the same TableStore + TableView as a cash table, keyed by the hand.

import { t } from "./i18n.js";
import { formatMoney } from "./util.js";
import { api } from "./api.js";
import { TableStore } from "./table_model.js";
import { TableView } from "./table_view.js";
import { amountDialog } from "./table_page.js";

export class SpeedPage {
  constructor(root, ctx, poolId) {
    this.ctx = ctx;
    this.poolId = poolId;
    this.pool = null;
    this.handKey = null;
    this.store = null;
    this.handsPlayed = [];
    this.unsubs = [];
    this.view = new TableView(root, {
      act: (kind, fields) => this.send("act", { table: this.poolId, kind, ...fields }),
      sit: () => {},
      sitOut: () => this.leave(),
      sitIn: () => {},
      leave: () => this.leave(),
      topUp: () => ctx.toast(t("speed.no_top_up")),
      lobby: () => ctx.navigate("#/lobby"),
      history: () => ctx.navigate("#/history"),
      fastFold: () => this.fastFold(),
    }, { speed: true, connection: ctx.connection });
    this.unsubs.push(ctx.connection.on("speed", (f) => this.onSpeed(f)));
    this.unsubs.push(ctx.connection.on("event", (f) => this.onEvent(f)));
    this.join();
  }

  destroy() {
    for (const off of this.unsubs) off();
    this.view.destroy();
  }

  async send(type, fields) {
    try {
      return await this.ctx.connection.send(type, fields);
    } catch (err) {
      this.ctx.toast(err.message || String(err));
      return null;
    }
  }

  /** A synthetic table_state for the hand `key` from the engine's per-seat view. */
  stateFrame(key, seat, handView, timer = null) {
    const pool = this.pool || {};
    const me = this.ctx.session.me || {};
    const players = (handView && handView.players) || [];
    return {
      type: "table_state",
      table: key,
      view: {
        table: { name: `${pool.name || t("lobby.tab_speed")}`, game: pool.game, structure: pool.structure, currency: pool.currency,
          small_blind: pool.small_blind, big_blind: pool.big_blind, max_seats: pool.max_seats || 6 },
        seats: players.map((p) => ({ seat: p.seat, player: p.seat === seat ? me.player_id : `seat-${p.seat}`,
          alias: p.seat === seat ? this.ctx.session.alias() : t("log.seat_n", { n: p.seat + 1 }) })),
        hand_id: key,
        hand: handView,
        timer,
        you: { seat },
      },
    };
  }

  newHand(key, seat, handView) {
    this.handKey = key;
    this.seat = seat;
    this.store = new TableStore(key);
    this.store.subscribe((model) => { model.speed = true; model.poolId = this.poolId; this.view.render(model); });
    this.store.apply(this.stateFrame(key, seat, handView));
  }

  onSpeed(frame) {
    if (frame.pool !== this.poolId) return;
    switch (frame.event) {
      case "dealt":
        this.newHand(frame.hand, frame.seat, frame.view);
        break;
      case "your_turn":
        if (frame.hand !== this.handKey) this.newHand(frame.hand, this.seat, frame.view);
        this.store.apply(this.stateFrame(frame.hand, this.seat, frame.view, frame.timer || null));
        break;
      case "state": {
        const v = frame.view || {};
        if (v.hand && v.view) this.newHand(v.hand, v.seat, v.view);
        break;
      }
      case "fast_folded":
        // the old hand goes on without us (R-SPEED-1): it leaves the screen, and its later events are ignored
        // (the handKey no longer matches) until the next `dealt` brings the new hand (issue #31 item 2)
        if (frame.hand === this.handKey) {
          this.handKey = null;
          this.store = null;
          this.view.clearHand(t("speed.dealing_new", { pool: (this.pool || {}).name || t("lobby.tab_speed") }));
        }
        break;
      case "hand_over":
        if (frame.hand === this.handKey) this.handsPlayed.push({ hand: frame.hand, net: frame.net, stack: frame.stack });
        break;
      case "left":
        this.ctx.toast(t("speed.left_with", { amount: formatMoney(frame.cashed_out ?? 0, (this.pool || {}).currency) }), "ok");
        break;
      default:
        break;
    }
  }

  onEvent(frame) {
    if (frame.pool !== this.poolId || !this.store || frame.hand !== this.handKey) return;
    this.store.apply({ type: "event", table: frame.hand, event: frame.event });
  }

  async join() {
    const lobby = await api.lobby();
    this.pool = (lobby.pools || []).find((p) => String(p.id) === String(this.poolId));
    if (!this.pool) { this.ctx.toast(t("error.no_pool")); return; }
    const pool = this.pool;
    const min = pool.min_buy_in ?? pool.big_blind * 20;
    const max = pool.max_buy_in ?? null;
    const amount = await amountDialog({
      title: t("speed.join_title", { pool: pool.name }), text: t("speed.join_text"),
      min, max, initial: max ?? min, currency: pool.currency, confirm: t("speed.join"),
    });
    if (amount === null) { this.ctx.navigate("#/lobby"); return; }
    const ok = await this.send("join_speed", { pool: this.poolId, buy_in: amount });
    if (ok) {
      await this.ctx.session.refresh();
      this.view.renderWaiting(`${pool.name}: waiting for a table…`);
    }
  }

  async fastFold() {
    await this.send("fast_fold", { pool: this.poolId });
  }

  async leave() {
    await this.send("leave_speed", { pool: this.poolId });
    await this.ctx.session.refresh();
    this.ctx.navigate("#/lobby");
  }
}
