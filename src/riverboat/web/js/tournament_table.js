// The player's tournament table (#/tourney/<id>, issue #11 item 8): the shared table client (TableStore +
// TableView, as at a cash table; nothing copied) fed by the tournament's frames, with the tournament HUD
// (tournament_hud.js) above it. The `state` frame (docs/protocol.md "Tournament frames") carries the table, the
// seats, the hand view and the HUD; the hand's `event` frames of that table go to the same TableStore. Actions are
// `tournament_act`; re-buy / add-on `tournament_rebuy`; declining a re-buy `tournament_decline_rebuy`. When table
// balancing moves the player (`moved`, R-TOURN-BAL-3) the page says so and follows them to the new table; a
// finished player sees their place and prize at once (R-TOURN-GEN-5). When a tournament the player registered for
// starts while they are elsewhere in the client, the page opens (as a poker client pops up the table).

import { el, mount, formatMoney } from "./util.js";
import { registerView } from "./views.js";
import { TableStore } from "./table_model.js";
import { TableView } from "./table_view.js";
import { TournamentHud } from "./tournament_hud.js";
import { t as tr } from "./i18n.js";
import { plainError } from "./errors.js";
import { api } from "./api.js";

/** A tournament table's number for players ("sng1/t3" -> "3"), not its id. */
export function tableNumber(table) {
  const last = String(table ?? "").split("/").pop();
  return /^t\d+$/.test(last) ? last.slice(1) : last;
}

/** A `table_state` view for the shared table client, from a tournament `state` frame's data. */
export function tableStateOf(tournament, data, name) {
  const hand = data.hand || null;
  return { type: "table_state", table: data.table, view: {
    table: { id: data.table, name: `${name} · ${tr("tournament.table_n", { n: tableNumber(data.table) })}`,
      game: hand ? hand.game : undefined, structure: hand ? hand.structure : undefined, currency: "chips",
      small_blind: data.small_blind, big_blind: data.big_blind, ante: data.ante,
      max_seats: Math.max(2, ...(data.seats || []).map((s) => s.seat + 1), (hand && hand.players ? hand.players.length : 0)) },
    seats: (data.seats || []).map((s) => ({ seat: s.seat, player: s.player, alias: s.alias, stack: s.stack,
      status: s.away ? "sitting_out" : "playing", connected: true })),
    button: hand ? hand.button : null,
    hand_id: hand ? (data.hand_id ?? null) : null,
    hand, timer: null, you: data.seat !== null && data.seat !== undefined ? { seat: data.seat } : null,
    ...(Number.isInteger(data.seq) ? { seq: data.seq } : {}) } };
}

export class TournamentTablePage {
  constructor(root, ctx, tournament) {
    this.ctx = ctx;
    this.tournament = tournament;
    this.name = tournament;
    this.currency = "PLAY";
    this.table = null;
    this.store = null;
    this.over = false;
    const hudBox = el("div", { class: "tourney-top" });
    const tableBox = el("div", { class: "tourney-table", "data-testid": "tourney-table" });
    this.title = el("h2", { class: "tourney-title" }, tournament);
    this.waiting = el("p", { class: "muted", "data-testid": "tourney-waiting" }, tr("tournament.waiting_table"));
    this.sittingOut = false;
    this.sitButton = el("button", { class: "btn btn-small", "data-testid": "tourney-sit-out",
      onclick: () => this.sitOut(!this.sittingOut) }, tr("tourney.sit_out"));
    this.sitNote = el("p", { class: "muted hidden", "data-testid": "tourney-sitting-out" }, tr("tourney.sitting_out"));
    this.bounties = el("div", { class: "tourney-bounties hidden", "data-testid": "tourney-bounties" });
    mount(root, el("section", { class: "tourney-page", "data-testid": "tourney-page" },
      el("div", { class: "tourney-head" }, this.title,
        el("a", { href: `#/tournament/${encodeURIComponent(tournament)}`, "data-testid": "tourney-lobby-link" }, tr("tournament.lobby_link")),
        this.sitButton),
      hudBox, this.sitNote, this.waiting, tableBox, this.bounties));
    this.hud = new TournamentHud(hudBox, {
      rebuy: () => this.send("tournament_rebuy", { what: "rebuy" })
        .then((ok) => { if (ok) { this.hud.closeOffer(); this.hud.say(tr("tournament.rebuy_done")); } }),
      addon: () => this.send("tournament_rebuy", { what: "addon" }),
      decline: () => this.send("tournament_decline_rebuy", {}).then((ok) => { if (ok) this.hud.closeOffer(); }),
    });
    this.view = new TableView(tableBox, {
      act: (kind, fields) => this.send("tournament_act", { kind, ...fields }),
      lobby: () => ctx.navigate(`#/tournament/${encodeURIComponent(tournament)}`),
    }, { tournament: true, connection: ctx.connection });
    this.unsubs = [
      ctx.connection.on("tournament", (f) => this.onTournament(f)),
      ctx.connection.on("event", (f) => { if (this.store && f.table === this.table) this.store.apply(f); }),
      ctx.connection.on("status", (status) => { if (status === "online") this.resync(); }),
    ];
    this.loadInfo();
    this.resync();
  }

  destroy() {
    for (const off of this.unsubs) off();
    this.hud.destroy();
    this.view.destroy();
  }

  async loadInfo() {
    try {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(this.tournament)}`);
      if (!r.ok) return;
      const t = await r.json();
      this.name = t.name || this.tournament;
      this.currency = t.currency || this.currency;
      this.title.textContent = this.name;
      // a state that came before this answer named the table by the tournament's id ("sng2 · table 1"): rename it
      // (a player out in the first hand gets no later state that would)
      if (this.store && this.store.model && this.table) {
        this.store.model.name = `${this.name} · ${tr("tournament.table_n", { n: tableNumber(this.table) })}`;
        this.store.notify();
      }
      const mine = (t.results || []).find((x) => String(x.player) === String(this.ctx.session.me?.player_id));
      if (mine && !this.over) this.finished(mine);
    } catch { /* the title stays the id */ }
  }

  /** R-SITOUT-1/2: sit out (dealt in, blinded away, folded at once) or back in, through the server's route. */
  async sitOut(out) {
    try {
      const r = await api.tournamentSitOut(this.tournament, out);
      this.showSittingOut(Boolean(r && r.sitting_out));
    } catch (err) {
      this.ctx.toast(plainError(err));
    }
  }

  showSittingOut(out) {
    this.sittingOut = out;
    this.sitButton.textContent = out ? tr("tourney.sit_in") : tr("tourney.sit_out");
    this.sitNote.classList.toggle("hidden", !out);
  }

  /** Every bounty at the table (R-TOURN-KO-1, R-TOURN-PKO-2: a progressive bounty grows with each knockout). */
  showBounties(seats) {
    const withBounty = (seats || []).filter((s) => s.bounty !== undefined);
    this.bounties.classList.toggle("hidden", !withBounty.length);
    if (!withBounty.length) return;
    mount(this.bounties, el("h4", {}, tr("tourney.bounties_here")),
      el("ul", {}, withBounty.map((s) => el("li", { "data-testid": `seat-bounty-${s.seat}` },
        `${s.alias ?? s.player}: `, tr("tourney.bounty", { amount: formatMoney(s.bounty, this.currency) })))));
  }

  /** A bounty the hand paid, in the table's log (R-TOURN-KO-1, R-TOURN-PKO-3, R-TOURN-BOUNTY-1). */
  onBounty(data) {
    const amount = formatMoney(data.cash, this.currency);
    const winner = data.alias ?? String(data.player);
    this.hud.say(data.busted === data.player ? tr("tourney.own_bounty", { winner, amount })
      : tr("tourney.bounty_won", { winner, amount, busted: data.busted_alias ?? String(data.busted) }));
  }

  resync() {
    this.ctx.connection.send("resync", {}).catch(() => {});
  }

  async send(type, fields) {
    try {
      return await this.ctx.connection.send(type, { tournament: this.tournament, ...fields });
    } catch (err) {
      this.ctx.toast(plainError(err));
      return null;
    }
  }

  onTournament(frame) {
    if (frame.tournament !== this.tournament) return;
    const data = frame.data || {};
    switch (frame.event) {
      case "state": this.onState(data); break;
      case "level": this.hud.update({ ...data, on_break: false }); break;
      case "break": this.hud.update({ on_break: true, seconds_left: data.seconds }); this.hud.say(tr("tournament.break_for", { time: tr("time.seconds_short", { n: Math.round(data.seconds) }) })); break;
      case "moved":
        this.hud.say(tr(data.broken ? "tournament.moved_broken" : "tournament.moved_balanced", { table: tableNumber(data.table), seat: data.seat + 1 }));
        this.follow(data.table);
        break;
      case "hand_for_hand": this.hud.update({ hand_for_hand: data.on }); if (data.on) this.hud.say(tr("tournament.h4h_on")); break;
      case "final_table": this.hud.say(tr("tournament.final_table", { count: data.players })); break;
      case "rebuy_offer": this.currency = data.currency || this.currency; this.hud.rebuyOffer(data); break;
      case "finished": this.finished(data); break;
      case "bounty": this.onBounty(data); break;
      case "interrupted": this.hud.say(tr("tournament.interrupted")); this.ctx.session.refresh().catch(() => {}); break;
      case "cancelled": this.hud.say(tr("tournament.cancelled")); break;
      default: break;
    }
  }

  /** Show `table` (a new table after a move): a fresh store, its next `state` fills it. */
  follow(table) {
    if (this.table === table) return;
    this.table = table;
    this.store = new TableStore(table);
    this.store.subscribe((model) => this.view.render(model));
  }

  onState(data) {
    this.waiting.classList.add("hidden");
    this.follow(data.table);
    if (this.hud.offer && data.rebuy === false) this.hud.offer = null;  // the decision is over
    this.hud.update(data);
    if (data.sitting_out !== undefined) this.showSittingOut(data.sitting_out);
    this.showBounties(data.seats);
    this.store.apply(tableStateOf(this.tournament, data, this.name));
  }

  finished(data) {
    this.over = true;
    // the action bar no longer waits "for other players" once the tournament is over for this player (issue #31
    // item 8): it says so, on this table's last model and on any later one
    this.view.overText = tr("tournament.over_for_you");
    this.view.update();
    this.hud.finished(data, this.currency);
    this.ctx.session.refresh().catch(() => {});
  }
}

registerView("tourney", { render: (root, ctx, args) => new TournamentTablePage(root, ctx, args.join("/")) });

/** A tournament the player registered for starts: open its table (not for Twister, whose page shows its own);
 * at a cash table or Speed Poker the player is told instead of being taken away mid-hand. Hooked once by the
 * lobby tabs and the detail page (where players register). */
let hooked = false;
export function followStarts(ctx) {
  if (hooked) return;
  hooked = true;
  ctx.connection.on("tournament", (frame) => {
    const hash = String(location.hash);
    if (frame.event !== "started" || hash.startsWith("#/twister")) return;
    const target = `#/tourney/${encodeURIComponent(frame.tournament)}`;
    if (hash === target) return;
    if (/^#\/(table|tables|speed)\b/.test(hash)) ctx.toast(tr("tournament.started_toast"), "ok");
    else ctx.navigate(target);
  });
}
