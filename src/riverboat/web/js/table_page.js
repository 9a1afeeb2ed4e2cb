// The table page: shows one table of the desk (desk.js) with TableView and turns clicks into protocol commands
// (sit with a buy-in, act, sit out / in, table options, top up, leave, chat, notes). The same class renders a tile
// of the multi-table view (`tile: true`). Speed Poker pools have their own page (speed_page.js).

import { el, formatMoney, parseMoney } from "./util.js";
import { TableView } from "./table_view.js";
import { plainError } from "./errors.js";
import { t } from "./i18n.js";

/**
 * The amount dialog (buy-in, top-up, Speed Poker join). `balance` (optional) caps the amount: an amount above it is
 * refused in the dialog, and when even the minimum is above it the dialog says so and offers no confirmation.
 */
export function amountDialog({ title, text, min, max, initial, currency, confirm, waitOption = false, balance = null,
  full = null }) {
  return new Promise((resolve) => {
    const cap = balance !== null && balance !== undefined ? (max !== null && max !== undefined ? Math.min(max, balance) : balance) : max;
    // `full`: why nothing can be added (e.g. a stack already at the table's maximum): said, and no confirmation
    const blocked = full !== null && max !== null && max !== undefined && max < min;
    const short = blocked || (balance !== null && balance !== undefined && balance < min);
    // R-NEWPLAYER: a new player either waits for the big blind to reach them or posts it at once.
    const wait = el("input", { type: "checkbox", checked: true, "data-testid": "wait-for-bb" });
    const start = cap !== null && cap !== undefined ? Math.min(initial, cap) : initial;
    const input = el("input", { type: "text", inputmode: "decimal", "data-testid": "amount-input",
      value: formatMoney(Math.max(min, start), currency).replace(/[€$£,\s\u00a0\u202f]/g, "").replace(/[^\d.,]/g, ""), disabled: short });
    const error = el("p", { class: "form-error", "data-testid": "amount-error" },
      blocked ? full : short ? t("buyin.short", { balance: formatMoney(balance, currency), min: formatMoney(min, currency) }) : "");
    const dialog = el("dialog", { "data-testid": "amount-dialog" },
      el("form", { method: "dialog" },
        el("h3", {}, title), el("p", { class: "muted" }, text),
        el("label", { class: "field" }, t("buyin.amount"), input),
        waitOption ? el("label", { class: "field-inline" }, wait, ` ${t("buyin.wait_bb")}`) : null,
        error,
        el("div", { style: { display: "flex", gap: "0.5rem", justifyContent: "flex-end" } },
          el("button", { class: "btn", value: "cancel", "data-testid": "amount-cancel" }, t("common.cancel")),
          el("button", { class: "btn btn-primary", value: "ok", "data-testid": "amount-ok", disabled: short }, confirm))));
    dialog.addEventListener("close", () => {
      const value = parseMoney(input.value, currency);
      dialog.remove();
      resolve(dialog.returnValue === "ok" ? (waitOption ? { amount: value, waitForBb: wait.checked } : value) : null);
    });
    dialog.querySelector("form").addEventListener("submit", (ev) => {
      if (ev.submitter && ev.submitter.value === "cancel") return;
      const value = parseMoney(input.value, currency);
      if (short) { ev.preventDefault(); return; }
      if (value !== null && balance !== null && balance !== undefined && value > balance && value >= min) {
        ev.preventDefault();
        error.textContent = t("buyin.at_most_balance", { balance: formatMoney(balance, currency) });
        return;
      }
      if (value === null || value < min || (cap !== null && cap !== undefined && value > cap)) {
        ev.preventDefault();
        error.textContent = cap !== null && cap !== undefined ? t("buyin.enter_range", { min: formatMoney(min, currency), max: formatMoney(cap, currency) })
          : t("buyin.enter_min", { min: formatMoney(min, currency) });
      }
    });
    document.body.append(dialog);
    dialog.showModal();
    input.select();
  });
}

export class TablePage {
  constructor(root, ctx, tableId, { tile = false } = {}) {
    this.ctx = ctx;
    this.desk = ctx.desk;
    this.tableId = tableId;
    this.tile = tile;
    this.store = this.desk.openTable(tableId);
    this.view = new TableView(root, {
      act: (kind, fields) => this.command("act", { kind, ...fields }),
      sit: (seat) => this.sit(seat),
      sitOut: () => this.command("sit_out"),
      sitIn: () => this.sitIn(),
      leave: () => this.leave(),
      topUp: () => this.topUp(),
      options: (changes) => this.setOptions(changes),
      chat: (text) => this.chat(text),
      saveNote: (playerId, note) => this.saveNote(playerId, note),
      replay: (handId) => ctx.navigate(`#/replay/${encodeURIComponent(tableId)}/${encodeURIComponent(handId)}`),
      lobby: () => ctx.navigate("#/lobby"),
      history: () => ctx.navigate("#/history"),
    }, { tile, notes: this.desk.notes, chat: this.desk.chat, connection: ctx.connection });
    this.desk.onScreen.add(tableId);
    this.unsubs = [
      this.store.subscribe((model) => this.view.render(model)),
      this.desk.notes.on("change", () => this.view.update()),
      this.desk.on("chat", (id) => { if (id === tableId) this.view.update(); }),
    ];
    if (this.store.model) this.view.render(this.store.model);
  }

  destroy() {
    for (const off of this.unsubs) off();
    this.desk.onScreen.delete(this.tableId);
    this.view.destroy();
  }

  async command(type, fields = {}) {
    try {
      return await this.ctx.connection.send(type, { table: this.tableId, ...fields });
    } catch (err) {
      this.ctx.toast(plainError(err));
      return null;
    }
  }

  async sit(seat) {
    const model = this.store.model;
    if (!model) return;
    await this.ctx.session.refresh().catch(() => {});
    const min = model.minBuyIn || model.stakes.bigBlind * 20 || 1;
    const max = model.maxBuyIn ?? null;
    const balance = this.ctx.session.balances()[model.currency];
    const amount = await amountDialog({
      title: t("buyin.title", { table: model.name }),
      text: [max !== null ? t("buyin.min_max", { min: formatMoney(min, model.currency), max: formatMoney(max, model.currency) })
        : t("buyin.min_only", { min: formatMoney(min, model.currency) }),
      balance !== undefined ? t("money.your_balance", { amount: formatMoney(balance, model.currency) }) : ""].filter(Boolean).join(" "),
      min, max, initial: max !== null ? max : min, currency: model.currency, confirm: t("buyin.sit_down"),
      waitOption: model.family !== "stud", balance: balance ?? null,
    });
    if (amount === null) return;
    const fields = typeof amount === "object" ? { buy_in: amount.amount, wait_for_bb: amount.waitForBb } : { buy_in: amount };
    const ok = await this.command("sit", { seat, ...fields });
    if (ok) await this.ctx.session.refresh();
  }

  async sitIn() {
    const model = this.store.model;
    const options = (model && model.options) || {};
    // issue #31 item 4: with no chips on the table, sitting in needs a top-up first: offer it (sit_in alone is
    // refused); the room takes the pending top-up as chips for sitting in
    if (model && model.hero && model.hero.stack <= 0) {
      const added = await this.topUp(t("table.sit_in_needs_chips"));
      if (!added) return;
    }
    await this.command("sit_in", { post: options.wait_for_bb === false });
  }

  async setOptions(changes) {
    const reply = await this.command("options", changes);
    if (reply && reply.result && reply.result.options && this.store.model) {
      this.store.model.options = reply.result.options;
      this.store.notify();
    }
  }

  async chat(text) {
    await this.command("chat", { text });
  }

  async saveNote(playerId, note) {
    try { await this.desk.notes.save(playerId, note); } catch (err) { this.ctx.toast(plainError(err)); }
  }

  async topUp(intro = null) {
    const model = this.store.model;
    if (!model || !model.hero) return null;
    await this.ctx.session.refresh().catch(() => {});
    const balance = this.ctx.session.balances()[model.currency];
    const limit = model.maxBuyIn !== null && model.maxBuyIn !== undefined ? model.maxBuyIn : null;
    const max = limit !== null ? Math.max(0, limit - model.hero.stack) : null;
    const money = (v) => formatMoney(v, model.currency);
    // R-BUYIN: a top-up may not take the stack above the table's maximum buy-in
    const amount = await amountDialog({
      title: t("table.top_up"),
      text: [intro, t("topup.between_hands"), limit !== null && max > 0 ? t("topup.up_to", { amount: money(max), max: money(limit) }) : ""].filter(Boolean).join(" "),
      min: 1, max, initial: max || model.stakes.bigBlind * 10, currency: model.currency, confirm: t("table.top_up"),
      balance: balance ?? null,
      full: limit !== null ? t("topup.full", { stack: money(model.hero.stack), max: money(limit) }) : null,
    });
    if (amount === null) return null;
    const reply = await this.command("top_up", { amount });
    if (reply) await this.ctx.session.refresh();
    return reply;
  }

  async leave() {
    await this.command("leave");
    await this.ctx.session.refresh();
    this.desk.closeTable(this.tableId);
    if (!this.tile) this.ctx.navigate("#/lobby");
  }
}
