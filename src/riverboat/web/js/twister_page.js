// The Twister page (R-TWIST-11, issue #12): the lobby's Twister section (choose a type, then a buy-in, "Play"),
// then the player's Twister table: the spin landing on the drawn multiplier before the first hand (R-TWIST-3), the
// blinds and the prize, Age of the Gods jackpot wins (R-AOG-3), Wild Twister's automatic all-ins (R-WILD-2), the
// result, and the Twister rows of the account's tournament history with the tickets won (R-WILD-1).
// Server side: GET /api/twister, GET /api/twister/history, frames twister_play / tournament_act and the
// `tournament` frames (docs/protocol.md). The hand is drawn by the shared TableStore + TableView, fed with a
// table_state built from the `state` event's hand view (as the Speed Poker page does).
//
// The page has two modes (data-mode): "lobby" (choose and play, tickets, history) and "playing" (the spin, the
// table's figures and the table itself, nothing else, so the table is in view on a laptop and a phone). A player
// who comes back to the page during a game (another page, a reload, a lost connection) gets the game back: GET
// /api/twister names the caller's running Twisters and the server sends their table again.

import { formatNumber, formatOrdinal, t } from "./i18n.js";
import { el, mount, formatMoney } from "./util.js";
import { registerView, registerLobbyTab } from "./views.js";
import { TableStore } from "./table_model.js";
import { TableView } from "./table_view.js";
import { renderTwisterLobby } from "./twister_lobby.js";
import { showSpin } from "./twister_spin.js";
import { tournamentHistoryTable } from "./history_view.js";

const KINDS = new Set(["twister", "aog", "wild"]);
const title = (kind) => (KINDS.has(kind) ? t(`tkind.kind_${kind}`) : kind || t("nav.twister"));
const TIERS = new Set(["power", "extra_power", "super_power", "ultimate_power"]);
const tierName = (tier) => (TIERS.has(tier) ? t(`twister.tier_${tier}`) : tier);
const CHOSEN = "rb.twister.play";  // sessionStorage: the lobby tab's "Play" choice, played once by the Twister page

function takeChoice() {
  try {
    const raw = sessionStorage.getItem(CHOSEN);
    sessionStorage.removeItem(CHOSEN);  // once: a reload of the Twister page does not play again
    const choice = raw ? JSON.parse(raw) : null;
    const fresh = choice && Date.now() - Number(choice.at || 0) < 60_000;  // not a choice made long before a login
    return fresh && typeof choice.kind === "string" && Number.isInteger(choice.buyIn) ? choice : null;
  } catch { return null; }
}

function useStylesheet() {
  if (document.querySelector("link[data-twister-css]")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "css/twister.css", "data-twister-css": "1" }));
}

async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/** The type of a Twister from its id (ids start "twister:<kind>-..." or "wild:..."; docs/twister.md). */
function kindOf(tournamentId) {
  const m = /^(?:twister|wild):(twister|aog|wild)-/.exec(String(tournamentId || ""));
  return m ? m[1] : null;
}

export class TwisterPage {
  constructor(root, ctx) {
    useStylesheet();
    this.ctx = ctx;
    this.offer = null;
    this.tournament = null;
    this.done = new Set();  // tournaments this page has seen finish: their late frames are not a new game
    this.kind = null;
    this.buyIn = null;
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
    this.result = el("div", { class: "twister-final-box", "data-testid": "twister-result" });
    this.history = el("div", { class: "twister-history", "data-testid": "twister-history" });
    this.page = el("div", { class: "page twister-page", "data-testid": "twister-page", "data-mode": "lobby" },
      el("div", { class: "box wide twister-choose" }, el("h2", {}, t("nav.twister")),
        el("p", { class: "muted twister-intro" }, t("twister.intro")),
        this.lobbyBox, this.tickets),
      el("div", { class: "twister-game" },
        el("div", { class: "box wide twister-bar" }, this.spinBox,
          el("div", { class: "twister-figures" }, this.hud, this.result, this.notes))),
      this.tableBox,
      el("div", { class: "box wide twister-history-box" }, el("h2", {}, t("twister.history")), this.history));
    mount(root, this.page);
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

  setMode(mode) {
    this.page.dataset.mode = mode;
  }

  async load() {
    this.offer = await getJson("/api/twister");
    this.currency = this.offer.currency || "EUR";
    const choice = takeChoice();
    this.section = renderTwisterLobby(this.lobbyBox, this.offer, { currency: this.currency,
      play: (kind, buyIn) => this.play(kind, buyIn), kind: choice?.kind, buyIn: choice?.buyIn });
    this.showTickets(this.offer.tickets || []);
    const playing = (this.offer.playing || []).find((tid) => !this.done.has(tid));
    if (playing && !this.tournament) this.resume(playing);
    else if (choice && !this.tournament) this.play(choice.kind, choice.buyIn);  // "Play" pressed in the lobby's tab
    await this.loadHistory();
  }

  /** Back into a running Twister (the server sends its table again when GET /api/twister names it). */
  resume(tournamentId) {
    this.tournament = tournamentId;
    this.kind = kindOf(tournamentId) || this.kind;
    this.playing = true;
    this.setMode("playing");
    if (!this.table) mount(this.hud, t("twister.running"));
  }

  showTickets(tickets) {
    mount(this.tickets, tickets.length ? el("p", {}, `${t("twister.your_tickets")} `,
      tickets.map((tk) => el("span", { class: "twister-ticket", "data-testid": "twister-ticket" },
        `${formatMoney(tk.face_value, tk.currency)} `)), el("span", { class: "muted" }, t("twister.tickets_used"))) : "");
  }

  async loadHistory() {
    if (!this.ctx.session.me) return;  // a guest has no Twister history
    const data = await getJson("/api/twister/history");
    this.showTickets(data.tickets || []);
    if (this.offer) this.offer.tickets = data.tickets || [];
    mount(this.history, tournamentHistoryTable(data.history || [], t("twister.no_history")));
  }

  async play(kind, buyIn) {
    const ticket = kind !== "wild" ? (this.offer.tickets || []).find((t) => t.face_value === buyIn) : null;
    const fields = { kind, buy_in: buyIn };
    if (ticket) fields.ticket = ticket.id;
    this.reset();
    this.kind = kind;
    this.buyIn = buyIn;
    this.playing = true;
    this.ticketNote = ticket ? `${t("twister.with_ticket", { amount: formatMoney(ticket.face_value, this.currency) })} ` : "";
    try {
      const ack = await this.ctx.connection.send("twister_play", fields);
      const result = (ack && ack.result) || {};
      this.tournament = result.tournament || this.tournament;
      if (!this.table) this.section.setStatus(`${this.ticketNote}${t("twister.waiting", { n: result.entrants || 1 })}`);
      this.ctx.session.refresh().catch(() => {});
    } catch (err) {
      this.playing = false;
      this.section.setStatus(err.message || String(err));
    }
  }

  /** Forget the last game's table and figures (a new "Play", or back to the lobby). */
  reset() {
    if (this.tournament) this.done.add(this.tournament);
    mount(this.result, "");
    mount(this.spinBox, "");
    mount(this.hud, "");
    mount(this.notes, "");
    this.tournament = null;
    this.multiplier = null;
    this.spinning = false;
    this.table = null;
    this.store = null;
    if (this.view) { this.view.destroy(); this.view = null; }
    mount(this.tableBox, "");
    delete this.page.dataset.dealt;
    delete this.page.dataset.over;
    this.setMode("lobby");
  }

  onTournament(frame) {
    // The tournament's first frames (registered, started, the spin) may come before the ack of "Play"; a player
    // who comes back during a game gets its frames without having pressed Play on this page. Only a Twister's own
    // frames: a Sit & Go or a tournament the player also plays sends its frames to the same connection.
    const adopt = !this.tournament && !this.done.has(frame.tournament) && kindOf(frame.tournament) !== null;
    if (adopt) {
      this.tournament = frame.tournament;
      this.kind = kindOf(frame.tournament) || this.kind;
      this.playing = true;
    }
    if (!this.tournament || frame.tournament !== this.tournament) return;
    const data = frame.data || {};
    switch (frame.event) {
      case "registered":
        if (this.section && data.entrants) this.section.setStatus(`${this.ticketNote || ""}${t("twister.waiting", { n: data.entrants })}`);
        break;
      case "started":
        this.table = data.table;
        this.seat = data.seat;
        this.setMode("playing");
        if (!this.multiplier) mount(this.hud, t("twister.spinning"));  // (the spin may come first)
        break;
      case "twister_spin":
        this.table = data.table;
        this.seat = data.seat;
        this.setMode("playing");
        this.spinning = true;  // the figures do not give the multiplier away before the reel lands on it
        this.showHud(data);
        showSpin(this.spinBox, data, { durationMs: Math.max(400, (data.seconds || 3) * 1000 - 600),
          seatName: (seat) => (seat === data.seat ? t("twister.you") : t("log.seat_n", { n: seat + 1 })) }).then(() => {
          if (this.tournament !== frame.tournament) return;
          this.spinning = false;
          this.multiplier = data.multiplier;
          this.showHud(this.lastHud || data);
        });
        break;
      case "jackpot":
        this.notes.append(el("div", { class: "twister-jackpot", "data-testid": "twister-jackpot-note" },
          t("twister.jackpot_won", { tier: tierName(data.tier), who: data.player === this.ctx.session.me?.player_id ? t("twister.you") : t("log.seat_n", { n: data.seat + 1 }),
            amount: formatMoney(data.amount, this.currency), seconds: data.seconds })));
        break;
      case "state":
        this.table = data.table || this.table;
        if (data.seat !== undefined) this.seat = data.seat;
        this.setMode("playing");
        this.showHud(data);
        if (data.hand) this.showHand(data);
        break;
      case "finished":
        this.finished(data);
        break;
      case "interrupted":
        this.playing = false;
        this.done.add(this.tournament);
        this.page.dataset.over = "1";
        mount(this.result, el("p", { class: "twister-result-line", "data-testid": "twister-interrupted" },
          (data.tickets || []).length ? t("twister.interrupted_tickets", { amount: formatMoney(data.paid, this.currency), tickets: data.tickets.map((v) => formatMoney(v, this.currency)).join(" + "), rule: data.rule })
            : t("twister.interrupted", { amount: formatMoney(data.paid, this.currency), rule: data.rule })), this.afterButtons());
        this.loadHistory().catch(() => {});
        break;
      default:
        break;
    }
  }

  showHud(data) {
    this.lastHud = data;
    const parts = [];
    if (this.kind) parts.push(`${title(this.kind)}${this.multiplier ? ` ${this.multiplier}x` : ""}`);
    if (data.small_blind !== undefined) parts.push(`${t("tournament.blinds")} ${formatNumber(data.small_blind)}/${formatNumber(data.big_blind)}`);
    if (data.level) parts.push(t("twister.level", { n: data.level }));
    const prize = data.prize ?? data.prize_pool;
    if (prize !== undefined && !this.multiplier && !this.spinning) parts.push(this.kind === "wild" ? t("history.ticket_value", { amount: formatMoney(prize, this.currency) }) : t("twister.prize", { amount: formatMoney(prize, this.currency) }));
    if (data.players_left) parts.push(t("hud.n_left", { count: data.players_left }));
    if (this.kind === "wild") parts.push(t("twister.wild_auto"));
    if (parts.length) mount(this.hud, parts.join(" · "));
  }

  showHand(data) {
    this.page.dataset.dealt = "1";  // the spin has been shown: it shrinks to its result above the table
    if (!this.view) {
      this.view = new TableView(this.tableBox, {
        act: (kind, fields) => this.ctx.connection.send("tournament_act", { tournament: this.tournament, kind, ...fields })
          .catch((err) => this.ctx.toast(err.message || String(err))),
        lobby: () => this.ctx.navigate("#/lobby"),
        history: () => this.ctx.navigate("#/history"),
      }, { tournament: true, connection: this.ctx.connection });
    }
    const key = data.table;
    if (!this.store || this.store.tableId !== key) {
      this.store = new TableStore(key);
      this.store.subscribe((model) => {
        if (this.kind === "wild" && model) model.legal = null;  // R-WILD-2: nobody decides
        if (this.view) this.view.render(model);
      });
    }
    const hand = data.hand;
    const me = this.ctx.session.me || {};
    const players = hand.players || [];
    // the opponents by their aliases (the state's `seats`), as at any other table; "Seat 2" only if none came
    const named = new Map((data.seats || []).map((s) => [s.seat, s]));
    this.store.apply({ type: "table_state", table: key, view: {
      table: { name: title(this.kind), game: hand.game, structure: hand.structure,
        currency: "chips", small_blind: data.small_blind, big_blind: data.big_blind, max_seats: 3 },
      seats: players.map((p) => ({ seat: p.seat,
        player: p.seat === data.seat ? me.player_id : (named.get(p.seat)?.player ?? `seat-${p.seat}`),
        alias: p.seat === data.seat ? this.ctx.session.alias() : (named.get(p.seat)?.alias || t("log.seat_n", { n: p.seat + 1 })),
        stack: p.stack })),
      // the hand's id is the state's `hand_id` (as at a tournament table): without it every hand had the id null,
      // and the felt's result and the log of one hand ran on into the next
      hand_id: data.hand_id ?? (hand.hand_id ? `${key}:${hand.hand_id}` : null), hand, timer: null, you: { seat: data.seat } } });
  }

  onEvent(frame) {
    if (!this.table || frame.table !== this.table) return;
    if (this.store) this.store.apply(frame);
    const ev = frame.event || {};
    if (this.kind === "wild" && ev.kind === "acted" && ["raise", "bet", "call"].includes(ev.action)) {
      const line = el("div", { class: "twister-auto", "data-testid": "twister-auto-allin" },
        t("twister.auto_all_in", { seat: ev.seat + 1 }));
      this.notes.append(line);
      while (this.notes.childElementCount > 6) this.notes.firstElementChild.remove();
    }
  }

  /** "Play again" (same type and buy-in) and back to the Twister lobby, under the result. */
  afterButtons() {
    const again = this.kind && this.buyIn ? el("button", { class: "btn btn-primary", "data-testid": "twister-again",
      onclick: () => this.play(this.kind, this.buyIn) }, t("twister.play_again", { amount: formatMoney(this.buyIn, this.currency) })) : null;
    return el("div", { class: "twister-after" }, again,
      el("button", { class: "btn", "data-testid": "twister-back", onclick: () => this.reset() }, t("twister.lobby")));
  }

  finished(data) {
    const ticket = this.kind === "wild";
    this.playing = false;
    const figures = { ...(this.lastHud || {}) };
    delete figures.players_left;  // the count of the last hand's start is over
    this.showHud(figures);
    this.done.add(this.tournament);
    const won = data.prize ? (ticket ? t("twister.won_ticket", { amount: formatMoney(data.prize, this.currency) })
      : formatMoney(data.prize, this.currency)) : t("twister.won_nothing");
    const nth = formatOrdinal;
    const place = data.place_to && data.place_to !== data.place ? `${nth(data.place)}–${nth(data.place_to)}` : nth(data.place);
    this.page.dataset.over = "1";  // the table stays in view with its last hand, without an action bar
    mount(this.result, el("p", { class: "twister-result-line", "data-testid": "twister-final" },
      t("twister.finished", { place, won })), this.afterButtons());
    if (this.section) this.section.setStatus("");
    this.ctx.session.refresh().catch(() => {});
    this.loadHistory().catch(() => {});
  }
}

registerView("twister", { render: (root, ctx) => new TwisterPage(root, ctx), nav: { label: t("nav.twister"), order: 35 } });

/** The lobby's Twister tab (R-TWIST-11): the same choice as the Twister page; "Play" opens the page, which plays it
 * (so the page is there for the spin). The tab is not refreshed under the player's choice (data-keep-open). */
function twisterTab(ctx) {
  useStylesheet();
  const box = el("div", { class: "box wide twister-lobby-tab", "data-testid": "lobby-twister", "data-keep-open": "1" },
    el("p", { class: "muted" }, t("common.loading")));
  getJson("/api/twister").then((offer) => {
    mount(box, el("p", { class: "muted twister-intro-tab" }, `${t("twister.intro")} `,
      el("a", { href: "#/twister" }, t("twister.history_tickets"))));
    const section = el("div");
    box.append(section);
    renderTwisterLobby(section, offer, { currency: offer.currency || "EUR", play: (kind, buyIn) => {
      try { sessionStorage.setItem(CHOSEN, JSON.stringify({ kind, buyIn, at: Date.now() })); } catch { /* the page opens without it */ }
      ctx.navigate("#/twister");
    } });
  }).catch(() => mount(box, el("p", { class: "muted", "data-testid": "no-twister" }, t("twister.none"))));
  return box;
}

registerLobbyTab({ id: "twister", label: t("nav.twister"), order: 50, filters: false, rows: () => [{}],
  render: (rows, ctx) => twisterTab(ctx) });
