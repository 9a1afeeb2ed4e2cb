// The WebSocket connection: authenticated by the session cookie on the upgrade (docs/security.md), sends commands with client message ids,
// routes server frames to listeners, and reconnects with backoff. After a reconnect the server sends the full
// `table_state` of every table the player sits at, so the seat and the view come back (R-DISC-1: 30 s window).

import { Emitter } from "./util.js";
import { hasSession } from "./api.js";

export class Connection extends Emitter {
  constructor(url = null) {
    super();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = url || `${scheme}//${location.host}/ws`;
    this.socket = null;
    // Message ids are unique across page loads: the server answers a money frame (sit with a buy-in, top_up, ...)
    // sent again with the same id from its reply cache, so ids counted from 1 after a reload would replay old
    // replies. Milliseconds since the epoch times 1,000 stays under 2**53 (the protocol's bound) until 2255.
    this.nextId = Date.now() * 1000 + Math.floor(Math.random() * 1000);
    this.pending = new Map();
    this.retry = 0;
    this.closedByUser = false;
    this.status = "offline";
    this.queue = [];
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", status);
  }

  connect() {
    this.closedByUser = false;
    if (this.socket && this.socket.readyState <= 1) return;
    this.setStatus(this.retry ? "reconnecting" : "connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 0;
      // a logged-in page's upgrade carried the session cookie: the server answers with `welcome`
      if (!hasSession()) this.setStatus("online");
    });
    socket.addEventListener("message", (ev) => this.onMessage(ev.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const { reject } of this.pending.values()) reject(new Error("connection lost"));
      this.pending.clear();
      if (this.closedByUser) { this.setStatus("offline"); return; }
      this.setStatus("reconnecting");
      const delay = Math.min(5000, 250 * 2 ** this.retry);
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  close() {
    this.closedByUser = true;
    if (this.socket) this.socket.close();
  }

  /** Re-authenticate (after log in / log out) by reconnecting. */
  reauthenticate() {
    this.retry = 0;
    if (this.socket) {
      const old = this.socket;
      this.socket = null;
      old.close();
    }
    this.connect();
  }

  onMessage(data) {
    let frame;
    try { frame = JSON.parse(data); } catch { return; }
    if (!frame || typeof frame !== "object") return;
    if (frame.type === "notice" && frame.code === "replaced") {
      // The same account connected from another window: do not fight over the connection by reconnecting.
      this.closedByUser = true;
      this.setStatus("replaced");
    }
    if (frame.type === "error" && frame.code === "bad_token" && (frame.ref === null || frame.ref === undefined)) {
      this.setStatus("online");  // the cookie's session ended meanwhile: go on as a guest
    }
    if (frame.type === "welcome") {
      this.setStatus("online");
      const queued = this.queue.splice(0);
      for (const q of queued) this.sendRaw(q);
    }
    const ref = frame.ref;
    if (ref !== undefined && ref !== null && this.pending.has(ref)) {
      const { resolve, reject } = this.pending.get(ref);
      this.pending.delete(ref);
      if (frame.type === "error") reject(Object.assign(new Error(frame.message), { code: frame.code }));
      else resolve(frame);
    }
    this.emit(frame.type, frame);
    this.emit("frame", frame);
  }

  sendRaw(frame) {
    if (this.socket && this.socket.readyState === 1) {
      this.socket.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /** Send a command; resolves with its ack, rejects with the error frame's message. */
  send(type, fields = {}) {
    const id = this.nextId++;
    const frame = { v: 1, type, id, ...fields };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (!this.sendRaw(frame)) {
        if (this.status === "reconnecting" || this.status === "connecting") this.queue.push(frame);
        else { this.pending.delete(id); reject(new Error("not connected")); }
      }
      setTimeout(() => {
        if (this.pending.has(id)) { this.pending.delete(id); resolve({ type: "timeout" }); }
      }, 15000);
    });
  }
}
