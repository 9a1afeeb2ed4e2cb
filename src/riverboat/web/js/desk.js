// The desk: every table this browser tab plays or watches, kept across page changes. One TableStore per table is
// fed from the tab's WebSocket (frames are routed by table id), so switching between tables, or between one table
// and the four-table tile view, loses nothing. The desk knows at which tables it is the player's turn (the table
// switcher and the tab title show it), keeps each table's chat, and holds the player's notes on other players.

import { t } from "./i18n.js";
import { Emitter } from "./util.js";
import { api } from "./api.js";
import { TableStore, frameSeq, modelFromView } from "./table_model.js";
import { describeEvent } from "./hand_log.js";
import { settings } from "./settings.js";
import { play } from "./sounds.js";

export const MAX_TILES = 4;
const DEALER_KINDS = new Set(["hand_started", "showed", "exposed", "pot_awarded", "returned", "split_agreed", "run_it_twice",
  "seated", "left", "sat_out", "acted", "board", "drew", "mucked", "timed_out", "auto_draw", "timebank"]);

/** A table's chat: players' messages (`chat` frames) and the dealer's lines (from the table's events). */
class ChatLog {
  constructor() { this.byTable = new Map(); this.read = new Map(); this.next = 1; }
  list(tableId) {
    if (!this.byTable.has(tableId)) this.byTable.set(tableId, []);
    return this.byTable.get(tableId);
  }
  add(tableId, message) {
    const list = this.list(tableId);
    list.push({ id: this.next++, ...message });
    if (list.length > 300) list.splice(0, list.length - 300);
  }
  messages(tableId) { return this.list(tableId); }
  unread(tableId, viewing) {
    const list = this.list(tableId).filter((m) => !m.dealer);
    const last = list.length ? list[list.length - 1].id : 0;
    if (viewing) { this.read.set(tableId, last); return 0; }
    const seen = this.read.get(tableId) || 0;
    return list.filter((m) => m.id > seen).length;
  }
}

/** The player's private notes, colour tags and chat mutes on other players (GET/PUT /api/notes, per account). */
export class Notes extends Emitter {
  constructor() { super(); this.map = new Map(); this.loaded = false; }
  async load() {
    try {
      const data = await api.notes();
      this.map = new Map((data.notes || []).map((n) => [String(n.player_id), n]));
      this.loaded = true;
      this.emit("change");
    } catch { /* logged out or offline: no notes shown */ }
  }
  get(playerId) { return this.map.get(String(playerId)) || null; }
  muted(playerId) { const n = this.get(playerId); return Boolean(n && n.muted); }
  async save(playerId, note) {
    const saved = await api.saveNote(playerId, note);
    this.map.set(String(playerId), saved);
    this.emit("change");
    return saved;
  }
  clear() { this.map = new Map(); this.emit("change"); }
}

export class Desk extends Emitter {
  constructor(connection, session) {
    super();
    this.connection = connection;
    this.session = session;
    this.stores = new Map();   // table id -> TableStore
    this.open = [];            // table ids opened in this tab, in order (the switcher, the tiles)
    this.turns = new Set();    // tables where it is the player's turn now
    this.decisions = new Map();
    this.chat = new ChatLog();
    this.notes = new Notes();
    this.onScreen = new Set(); // tables whose view is on screen (their view plays the turn sound itself)
    this.repeated = 0;         // event frames skipped because their (table, seq) was already applied
    for (const type of ["table_state", "event"]) connection.on(type, (f) => this.onFrame(f));
    connection.on("chat", (f) => this.onChat(f));
    connection.on("welcome", () => this.rewatch());
    document.addEventListener("visibilitychange", () => this.updateTitle());
    settings.on("change", () => this.updateTitle());  // alerts turned off: the title says nothing at once
  }

  store(tableId) {
    let store = this.stores.get(tableId);
    if (!store) {
      const me = this.session.me;
      const aliases = me && me.player_id !== undefined ? { [String(me.player_id)]: this.session.alias() } : {};
      store = new TableStore(tableId, { aliases, storage: typeof sessionStorage === "undefined" ? null : sessionStorage });
      store.subscribe((model) => {
        if (model && model.name !== store.knownName) { store.knownName = model.name; this.emit("tables", this.open); }
        this.watchTurn(tableId, model);
      });
      this.stores.set(tableId, store);
    }
    return store;
  }

  onFrame(frame) {
    if (!frame || frame.table === undefined || frame.pool !== undefined) return;
    const id = String(frame.table);
    const seatedHere = frame.type === "table_state" && frame.view && frame.view.you;
    if (!this.stores.has(id) && !seatedHere && !this.open.includes(id)) return;
    const store = this.store(id);
    // Each (table, seq) is applied once (issue #31 item 1): an event the table's model already holds (a copy
    // delivered again, or one a later snapshot included) neither changes the model nor adds a dealer line.
    const seq = frameSeq(frame);
    const isEvent = frame.type === "event";
    const done = (last) => seq !== null && last !== null && last !== undefined && seq <= last;
    if (isEvent && done(store.seq) && done(store.logSeq)) {
      this.repeated += 1;
      return;
    }
    const newLine = !done(store.logSeq);
    store.apply(frame);
    if (isEvent && frame.event && newLine) {
      const kind = frame.event.kind;
      if (DEALER_KINDS.has(kind) && store.model) {
        const line = describeEvent(frame.event, store.model);
        if (line) this.chat.add(id, { dealer: true, text: line });
      }
    }
    if (seatedHere && !this.open.includes(id)) this.emit("tables", this.open);
  }

  onChat(frame) {
    if (!frame || frame.table === undefined) return;
    this.chat.add(String(frame.table), { player: frame.player, alias: frame.alias || "?", text: frame.text, at: frame.at });
    this.emit("chat", String(frame.table));
  }

  /** Tables the player is seated at (from their views), open or not. */
  seatedTables() {
    return [...this.stores.entries()].filter(([, s]) => s.model && s.model.hero).map(([id]) => id);
  }

  /** Open a table in this tab (watch it; its public view until a live frame arrives; its last hands). */
  openTable(tableId) {
    const store = this.store(tableId);
    if (!this.open.includes(tableId)) {
      this.open.push(tableId);
      this.emit("tables", this.open);
    }
    if (this.connection.status === "online") this.connection.send("watch", { table: tableId }).catch(() => {});
    if (!store.model) this.loadPublic(tableId);
    if (!store.historyLoaded) this.loadLastHands(tableId);
    return store;
  }

  closeTable(tableId) {
    this.open = this.open.filter((t) => t !== tableId);
    const store = this.stores.get(tableId);
    if (!(store && store.model && store.model.hero)) {
      if (this.connection.status === "online") this.connection.send("unwatch", { table: tableId }).catch(() => {});
      this.stores.delete(tableId);
      this.turns.delete(tableId);
    }
    this.emit("tables", this.open);
    this.updateTitle();
  }

  rewatch() {
    for (const id of this.open) this.connection.send("watch", { table: id }).catch(() => {});
    this.connection.send("resync").catch(() => {});
  }

  async loadPublic(tableId) {
    const store = this.store(tableId);
    try {
      const info = await api.table(tableId);
      if (!store.model) {
        store.model = modelFromView(tableId, info.view || info, null, Date.now(), store.aliases);
        store.model.lastHands = store.finishedHands;
        store.notify();
      }
    } catch (err) {
      this.emit("error", err);
    }
  }

  /** The player's last hands at this table from the server (so a reload keeps the "Last hands" panel). */
  async loadLastHands(tableId) {
    const store = this.store(tableId);
    store.historyLoaded = true;
    try {
      const data = await api.hands(10, tableId);
      const hands = (data.hands || []).map((hand) => ({ handId: hand.hand_id, lines: hand.lines || [], summary: hand }));
      store.setFinishedHands(hands);
    } catch { /* not logged in or no hands: the panel fills as hands finish */ }
  }

  /** Track the player's turn at every table: the switcher highlight, the tab title and the sound. */
  watchTurn(tableId, model) {
    const mine = Boolean(model && model.legal);
    const key = mine ? `${model.handId}|${model.street}|${model.legal.kinds.join(",")}|${model.legal.callAmount}|${model.legal.minTo}` : null;
    const before = this.turns.has(tableId);
    if (mine) this.turns.add(tableId); else this.turns.delete(tableId);
    if (mine && this.decisions.get(tableId) !== key) {
      this.decisions.set(tableId, key);
      // a table on screen plays its own alert (after any pre-action the player chose)
      if (!this.onScreen.has(tableId)) play("turn");
      this.emit("turn", tableId);
    }
    if (!mine) this.decisions.delete(tableId);
    if (before !== mine) { this.emit("turns", this.turns); this.updateTitle(); }
  }

  updateTitle() {
    const base = t("app.title");
    if (!settings.get("alerts") || !this.turns.size) { document.title = base; return; }
    const names = [...this.turns].map((id) => (this.stores.get(id) && this.stores.get(id).model ? this.stores.get(id).model.name : id));
    document.title = `▶ ${t("switcher.title_turn", { tables: names.join(", ") })} · ${base}`;
  }
}
