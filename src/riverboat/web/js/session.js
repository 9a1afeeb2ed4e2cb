// The logged-in player (or nobody): token, profile and balances, shared by every page.

import { api, markSession, sessionMarked } from "./api.js";
import { Emitter } from "./util.js";

class Session extends Emitter {
  constructor() {
    super();
    this.me = null;
    // Bumped by logout: a refresh whose answer arrives after a logout is dropped, not allowed to bring the session
    // back (found by CI: a refresh started by the socket's reconnect landed after Log out and the header kept the name)
    this.epoch = 0;
  }

  get loggedIn() { return Boolean(this.me); }

  async refresh() {
    if (!sessionMarked()) { this.me = null; markSession(false); this.emit("change", null); return null; }
    const epoch = this.epoch;
    let me;
    try {
      me = await api.me();
    } catch (err) {
      if (err.status === 401) me = null;
      else throw err;
    }
    if (epoch !== this.epoch) return this.me;  // logged out meanwhile
    this.me = me;
    markSession(this.me);
    this.emit("change", this.me);
    return this.me;
  }

  async login(username, password) {
    await api.login(username, password);  // the session cookie is set by the answer
    await this.refresh();
    this.emit("login", this.me);
    return this.me;
  }

  async register(username, password) {
    await api.register(username, password);
    return this.login(username, password);
  }

  async logout() {
    this.epoch += 1;
    try { await api.logout(); } catch { /* the page forgets the session either way */ }
    markSession(false);
    this.me = null;
    this.emit("change", null);
    this.emit("logout", null);
  }

  /** Balances as {currency: amount}; accepts `balances` as an object or a list of {currency, amount}. */
  balances() {
    const raw = this.me && (this.me.balances ?? this.me.balance);
    if (!raw) return {};
    if (Array.isArray(raw)) return Object.fromEntries(raw.map((b) => [b.currency, b.amount ?? b.balance]));
    if (typeof raw === "number") return { EUR: raw };
    return raw;
  }

  alias() { return this.me ? this.me.alias ?? this.me.username : null; }
}

export const session = new Session();
