// The Twister page (R-TWIST-11, issue #12): the lobby's Twister section (choose a type, then a buy-in, "Play"),
// then the player's Twister table: the spin landing on the drawn multiplier before the first hand (R-TWIST-3), the
// blinds and the prize, Age of the Gods jackpot wins (R-AOG-3), Wild Twister's automatic all-ins (R-WILD-2), the
// result, and the account's Twister history with the tickets won (R-WILD-1).
// Server side: GET /api/twister, GET /api/twister/history, frames twister_play / tournament_act and the
// `tournament` frames (docs/protocol.md). The hand is drawn by the shared TableStore + TableView, fed with a
// table_state built from the `state` event's hand view (as the Speed Poker page does).

import { el, mount, formatMoney } from "./util.js";
import { getToken } from "./api.js";
import { registerView } from "./views.js";
import { TableStore } from "./table_model.js";
import { TableView } from "./table_view.js";
import { renderTwisterLobby } from "./twister_lobby.js";
import { showSpin } from "./twister_spin.js";

const TITLES = { twister: "Twister", aog: "Age of the Gods Twister", wild: "Wild Twister" };
const TIERS = { power: "Power", extra_power: "Extra Power", super_power: "Super Power", ultimate_power: "Ultimate Power" };

function useStylesheet() {
  if (document.querySelector("link[data-twister-css]")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "css/twister.css", "data-twister-css": "1" }));
}

async function getJson(path) {
  const token = getToken();
  const response = await fetch(path, { headers: { Accept: "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

export class TwisterPage {
  constructor(root, ctx) {
    useStylesheet();
    this.ctx = ctx;
    this.offer = null;
    this.tournament = null;
    this.kind = null;
    this.table = null;
    this.seat = null;
    this.store = null;
    this.view = null;
    this.currency = "EUR";
    this.lobbyBox = el("div", { class: "twister-page-lobby" });
    this.tickets = el("div", { class: "twister-tickets", "data-testid": "twister-tickets" });
    this.spinBox = el("div", { class: "twister-spin-box", "data-testid": "twister-spin-box" });
    this.hud = el("div", { class: "twister-hud", "data-testid": "twister-hud" });
    this.notes = el("div", { class: "twister-notes", "data-testid": "twister-notes" });
    this.tableBox = el("div", { class: "twister-table", "data-testid": "twister-table" });
    this.result = el("div", { class: "twister-final", "data-testid": "twister-result" });
    this.history = el("div", { class: "twister-history", "data-testid": "twister-history" });
    mount(root, el("section", { class: "twister-page", "data-testid": "twister-page" },
      el("h2", {}, "Twister"), this.lobbyBox, this.tickets, this.spinBox, this.hud, this.notes, this.result,
      this.tableBox, el("h3", {}, "Your Twister history"), this.history));
    this.unsubs = [
      ctx.connection.on("tournament", (f) => this.onTournament(f)),
      ctx.connection.on("event", (f) => this.onEvent(f)),
    ];
    this.load().catch((err) => ctx.toast(err.message || String(err)));
  }

  destroy() {
    for (const off of this.unsubs) off();
    if (this.view) this.view.destroy();
  }

  async load() {
    this.offer = await getJson("/api/twister");
    this.currency = this.offer.currency || "EUR";
    this.section = renderTwisterLobby(this.lobbyBox, this.offer, { currency: this.currency,
      play: (kind, buyIn) => this.play(kind, buyIn) });
    this.showTickets(this.offer.tickets || []);
    await this.loadHistory();
  }

  showTickets(tickets) {
    mount(this.tickets, tickets.length ? el("p", {}, "Your Twister tickets: ",
      tickets.map((t) => el("span", { class: "twister-ticket", "data-testid": "twister-ticket" },
        `${formatMoney(t.face_value, t.currency)} `))) : "");
  }

  async loadHistory() {
    if (!getToken()) return;
    const data = await getJson("/api/twister/history");
    this.showTickets(data.tickets || []);
    const rows = (data.history || []).map((h) => el("tr", { "data-testid": "twister-history-row" },
      el("td", {}, TITLES[h.kind] || h.kind),
      el("td", {}, formatMoney(h.buy_in, h.currency)),
      el("td", {}, h.multiplier ? `${h.multiplier}x` : "–"),
      el("td", {}, h.place ? `${h.place}` : h.status),
      el("td", {}, h.ticket ? `${formatMoney(h.ticket, h.currency)} ticket` : formatMoney(h.prize, h.currency)),
      el("td", {}, h.finished_at ? new Date(h.finished_at).toLocaleString() : "")));
    mount(this.history, rows.length ? el("table", { class: "twister-history-table" },
      el("thead", {}, el("tr", {}, ["Type", "Buy-in", "Multiplier", "Place", "Won", "Finished"].map((t) => el("th", {}, t)))),
      el("tbody", {}, rows)) : el("p", { class: "muted" }, "No Twister played yet."));
  }

  async play(kind, buyIn) {
    const ticket = (this.offer.tickets || []).find((t) => t.face_value === buyIn);
    const fields = { kind, buy_in: buyIn };
    if (ticket && kind !== "wild") fields.ticket = ticket.id;
    mount(this.result, "");
    mount(this.spinBox, "");
    this.tournament = null;
    this.table = null;
    this.kind = kind;
    this.playing = true;
    try {
      const ack = await this.ctx.connection.send("twister_play", fields);
      const result = (ack && ack.result) || {};
      this.tournament = result.tournament || this.tournament;
      if (!this.table) this.section.setStatus(`${ticket && fields.ticket ? "Playing with your ticket. " : ""}Waiting for players: ${result.entrants || 1} of 3`);
      this.ctx.session.refresh().catch(() => {});
    } catch (err) {
      this.playing = false;
      this.section.setStatus(err.message || String(err));
    }
  }

  onTournament(frame) {
    // the tournament's first frames (registered, started, the spin) may come before the ack of "Play"
    if (!this.tournament && this.playing) this.tournament = frame.tournament;
    if (!this.tournament || frame.tournament !== this.tournament) return;
    const data = frame.data || {};
    switch (frame.event) {
      case "registered":
        if (this.section && data.entrants) this.section.setStatus(`Waiting for players: ${data.entrants} of 3`);
        break;
      case "started":
        this.table = data.table;
        this.seat = data.seat;
        if (this.section) this.section.setStatus("Three players are in: the prize is spun…");
        break;
      case "twister_spin":
        this.table = data.table;
        this.seat = data.seat;
        this.showHud(data);
        showSpin(this.spinBox, data, { durationMs: Math.max(400, (data.seconds || 3) * 1000 - 600) });
        break;
      case "jackpot":
        this.notes.append(el("div", { class: "twister-jackpot", "data-testid": "twister-jackpot-note" },
          `${TIERS[data.tier] || data.tier} jackpot won by ${data.player === this.ctx.session.me?.player_id ? "you" : `seat ${data.seat + 1}`}: `
          + `${formatMoney(data.amount, this.currency)} — the game resumes in ${data.seconds} s`));
        break;
      case "state":
        this.showHud(data);
        if (data.hand) this.showHand(data);
        break;
      case "finished":
        this.finished(data);
        break;
      case "interrupted":
        mount(this.result, el("p", { class: "twister-result-line" }, `Interrupted: you were paid ${formatMoney(data.paid, this.currency)} (${data.rule}).`));
        break;
      default:
        break;
    }
  }

  showHud(data) {
    const parts = [];
    if (data.small_blind !== undefined) parts.push(`Blinds ${data.small_blind}/${data.big_blind}`);
    if (data.level) parts.push(`level ${data.level}`);
    const prize = data.prize ?? data.prize_pool;
    if (prize !== undefined) parts.push(`${this.kind === "wild" ? "Ticket" : "Prize"} ${formatMoney(prize, this.currency)}`);
    if (data.players_left) parts.push(`${data.players_left} left`);
    if (this.kind === "wild") parts.push("every hand all-in automatically");
    if (parts.length) mount(this.hud, parts.join(" · "));
  }

  showHand(data) {
    if (!this.view) {
      this.view = new TableView(this.tableBox, {
        act: (kind, fields) => this.ctx.connection.send("tournament_act", { tournament: this.tournament, kind, ...fields })
          .catch((err) => this.ctx.toast(err.message || String(err))),
        lobby: () => this.ctx.navigate("#/lobby"),
      });
    }
    const key = data.table;
    if (!this.store || this.store.tableId !== key) {
      this.store = new TableStore(key);
      this.store.subscribe((model) => {
        if (this.kind === "wild" && model) model.legal = null;  // R-WILD-2: nobody decides
        this.view.render(model);
      });
    }
    const hand = data.hand;
    const me = this.ctx.session.me || {};
    const players = hand.players || [];
    this.store.apply({ type: "table_state", table: key, view: {
      table: { name: `${TITLES[this.kind] || "Twister"}`, game: hand.game, structure: hand.structure,
        currency: "chips", small_blind: data.small_blind, big_blind: data.big_blind, max_seats: 3 },
      seats: players.map((p) => ({ seat: p.seat, player: p.seat === data.seat ? me.player_id : `seat-${p.seat}`,
        alias: p.seat === data.seat ? this.ctx.session.alias() : `Seat ${p.seat + 1}`, stack: p.stack })),
      hand_id: `${key}:${hand.hand_id || ""}`, hand, timer: null, you: { seat: data.seat } } });
  }

  onEvent(frame) {
    if (!this.table || frame.table !== this.table) return;
    if (this.store) this.store.apply(frame);
    const ev = frame.event || {};
    if (this.kind === "wild" && ev.kind === "acted" && ["raise", "bet", "call"].includes(ev.action)) {
      const line = el("div", { class: "twister-auto", "data-testid": "twister-auto-allin" },
        `Seat ${ev.seat + 1}: all-in (automatic)`);
      this.notes.append(line);
      while (this.notes.childElementCount > 12) this.notes.firstElementChild.remove();
    }
  }

  finished(data) {
    const ticket = this.kind === "wild";
    const won = data.prize ? (ticket ? `a ${formatMoney(data.prize, this.currency)} Twister ticket`
      : formatMoney(data.prize, this.currency)) : "nothing this time";
    const place = data.place_to && data.place_to !== data.place ? `${data.place}-${data.place_to}` : `${data.place}`;
    mount(this.result, el("p", { class: "twister-result-line", "data-testid": "twister-final" },
      `You finished ${place} of 3 and won ${won}.`));
    if (this.section) this.section.setStatus("");
    this.ctx.session.refresh().catch(() => {});
    this.loadHistory().catch(() => {});
    getJson("/api/twister").then((o) => { this.offer = o; }).catch(() => {});
  }
}

registerView("twister", { render: (root, ctx) => new TwisterPage(root, ctx), nav: { label: "Twister", order: 35 } });
