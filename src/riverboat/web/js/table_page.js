// The table page: connects a TableStore to the WebSocket frames of one cash table, renders it with TableView,
// and turns clicks into protocol commands (sit with a buy-in, act, sit out / in, top up, leave).
// Speed Poker pools have their own page (speed_page.js).

import { el, formatMoney, parseMoney } from "./util.js";
import { api } from "./api.js";
import { TableStore, modelFromView } from "./table_model.js";
import { TableView } from "./table_view.js";

const SPECTATOR_REFRESH_MS = 1500;

export function amountDialog({ title, text, min, max, initial, currency, confirm, waitOption = false }) {
  return new Promise((resolve) => {
    // R-NEWPLAYER: a new player either waits for the big blind to reach them or posts it at once.
    const wait = el("input", { type: "checkbox", checked: true, "data-testid": "wait-for-bb" });
    const input = el("input", { type: "text", inputmode: "decimal", "data-testid": "amount-input",
      value: formatMoney(initial, currency).replace(/[€$£,]/g, "") });
    const error = el("p", { class: "form-error", "data-testid": "amount-error" });
    const dialog = el("dialog", { "data-testid": "amount-dialog" },
      el("form", { method: "dialog" },
        el("h3", {}, title), el("p", { class: "muted" }, text),
        el("label", { class: "field" }, "Amount", input),
        waitOption ? el("label", { class: "field-inline" }, wait, " Wait for the big blind (untick to post it now)") : null,
        error,
        el("div", { style: { display: "flex", gap: "0.5rem", justifyContent: "flex-end" } },
          el("button", { class: "btn", value: "cancel", "data-testid": "amount-cancel" }, "Cancel"),
          el("button", { class: "btn btn-primary", value: "ok", "data-testid": "amount-ok" }, confirm))));
    dialog.addEventListener("close", () => {
      const value = parseMoney(input.value, currency);
      dialog.remove();
      resolve(dialog.returnValue === "ok" ? (waitOption ? { amount: value, waitForBb: wait.checked } : value) : null);
    });
    dialog.querySelector("form").addEventListener("submit", (ev) => {
      if (ev.submitter && ev.submitter.value === "cancel") return;
      const value = parseMoney(input.value, currency);
      if (value === null || value < min || (max !== null && value > max)) {
        ev.preventDefault();
        error.textContent = `Enter an amount from ${formatMoney(min, currency)}${max !== null ? ` to ${formatMoney(max, currency)}` : ""}.`;
      }
    });
    document.body.append(dialog);
    dialog.showModal();
    input.select();
  });
}

export class TablePage {
  constructor(root, ctx, tableId) {
    this.ctx = ctx;
    this.tableId = tableId;
    this.store = null;
    this.unsubs = [];
    this.view = new TableView(root, {
      act: (kind, fields) => this.command("act", { kind, ...fields }),
      sit: (seat) => this.sit(seat),
      sitOut: () => this.command("sit_out"),
      sitIn: () => this.command("sit_in", { post: false }),
      leave: () => this.leave(),
      topUp: () => this.topUp(),
      lobby: () => ctx.navigate("#/lobby"),
      history: () => ctx.navigate("#/history"),
    });
    this.unsubs.push(ctx.connection.on("table_state", (f) => this.onFrame(f)));
    this.unsubs.push(ctx.connection.on("event", (f) => this.onFrame(f)));
    this.unsubs.push(ctx.connection.on("welcome", () => {
      ctx.connection.send("resync").catch(() => {});
      this.watch();
    }));
    this.useTable(tableId);
    this.lastLiveFrame = 0;
    this.liveFrames = 0;
    this.loadPublic();
    // Spectators: the page watches the table (`watch` frame: public table frames while not seated). Should no live
    // frame arrive for a while (an idle table, or a server without `watch`), the public view is re-read over REST.
    this.spectatorTimer = setInterval(() => this.refreshPublic(), SPECTATOR_REFRESH_MS);
    if (ctx.connection.status === "online") {
      ctx.connection.send("resync").catch(() => {});
      this.watch();
    }
  }

  /** Watch this table as a spectator (harmless when seated: a player gets each frame once). */
  watch() {
    this.ctx.connection.send("watch", { table: this.tableId }).catch(() => {});
  }

  destroy() {
    if (this.ctx.connection.status === "online") {
      this.ctx.connection.send("unwatch", { table: this.tableId }).catch(() => {});
    }
    clearInterval(this.spectatorTimer);
    for (const off of this.unsubs) off();
    this.view.destroy();
  }

  useTable(tableId) {
    this.tableId = tableId;
    const me = this.ctx.session.me;
    const aliases = me && me.player_id !== undefined ? { [String(me.player_id)]: this.ctx.session.alias() } : {};
    this.store = new TableStore(tableId, { aliases });
    this.store.subscribe((model) => this.view.render(model));
  }

  onFrame(frame) {
    if (frame && frame.table === this.tableId) { this.lastLiveFrame = Date.now(); this.liveFrames += 1; }
    if (this.store) this.store.apply(frame);
  }

  /** Spectator refresh: the public view from REST, unless the player is seated here or live frames arrive. */
  async refreshPublic() {
    if (document.hidden || this.refreshing || !this.store) return;
    const live = () => (this.store.model && this.store.model.hero) || Date.now() - this.lastLiveFrame < SPECTATOR_REFRESH_MS * 3;
    if (live()) return;
    const framesBefore = this.liveFrames;
    this.refreshing = true;
    try {
      const info = await api.table(this.tableId);
      // a frame that arrived meanwhile (the player sat down, or the server now sends spectators frames) wins
      if (!this.store || this.liveFrames !== framesBefore || live()) return;
      this.store.model = modelFromView(this.tableId, info.view || info, this.store.model, Date.now(), this.store.aliases);
      this.store.notify();
    } catch {
      // keep the last view; the next refresh tries again
    } finally {
      this.refreshing = false;
    }
  }

  /** Until the player sits, show the public table (seats, stacks, stakes) from REST. */
  async loadPublic() {
    try {
      const info = await api.table(this.tableId);
      if (this.store && !this.store.model) {
        this.store.model = modelFromView(this.tableId, info.view || info, null, Date.now(), this.store.aliases);
        this.store.notify();
      }
    } catch (err) {
      this.ctx.toast(`Table ${this.tableId}: ${err.message}`);
    }
  }

  async command(type, fields = {}) {
    try {
      const reply = await this.ctx.connection.send(type, { table: this.tableId, ...fields });
      return reply;
    } catch (err) {
      this.ctx.toast(err.message || String(err));
      return null;
    }
  }

  async sit(seat) {
    const model = this.store && this.store.model;
    if (!model) return;
    const min = model.minBuyIn || model.stakes.bigBlind * 20 || 1;
    const max = model.maxBuyIn ?? null;
    const balance = this.ctx.session.balances()[model.currency];
    const amount = await amountDialog({
      title: `Buy in at ${model.name}`,
      text: `Minimum ${formatMoney(min, model.currency)}${max !== null ? `, maximum ${formatMoney(max, model.currency)}` : ", no maximum"}${balance !== undefined ? `. Your balance: ${formatMoney(balance, model.currency)}` : ""}.`,
      min, max, initial: max !== null ? max : min, currency: model.currency, confirm: "Sit down",
      waitOption: model.family !== "stud",
    });
    if (amount === null) return;
    const fields = typeof amount === "object" ? { buy_in: amount.amount, wait_for_bb: amount.waitForBb } : { buy_in: amount };
    const ok = await this.command("sit", { seat, ...fields });
    if (ok) { await this.ctx.session.refresh(); this.ctx.connection.send("resync").catch(() => {}); }
  }

  async topUp() {
    const model = this.store && this.store.model;
    if (!model || !model.hero) return;
    const max = model.maxBuyIn !== null && model.maxBuyIn !== undefined ? Math.max(0, model.maxBuyIn - model.hero.stack) : null;
    const amount = await amountDialog({
      title: "Top up", text: "Chips are added between hands.", min: 1, max,
      initial: max || model.stakes.bigBlind * 10, currency: model.currency, confirm: "Top up",
    });
    if (amount === null) return;
    if (await this.command("top_up", { amount })) await this.ctx.session.refresh();
  }

  async leave() {
    await this.command("leave");
    await this.ctx.session.refresh();
    this.ctx.navigate("#/lobby");
  }
}
