// Test harness: renders the real table view from recorded/sample frames without a server.
// /harness/table.html?fixture=<name> loads fixtures/<name>.json ({"frames": [...]}) and feeds every frame to the
// same TableStore + TableView the app uses. Commands the view would send are collected in window.__sent.

import { TableStore } from "/js/table_model.js";
import { TableView } from "/js/table_view.js";
import { setFourColour } from "/js/cards.js";
import { Emitter } from "/js/util.js";

const params = new URLSearchParams(location.search);
const name = params.get("fixture") || "holdem_action";
if (params.get("four") === "1") setFourColour(true);

window.__sent = [];
// What a command resolves to: an ack by default (the action was accepted); a test sets window.__reply = null to
// play a server that refuses every command (the client then lets the player act again).
window.__reply = { type: "ack" };
const response = await fetch(`/harness/fixtures/${name}.json`);
const fixture = await response.json();
const tableId = fixture.frames.find((f) => f.table !== undefined).table;
const store = new TableStore(tableId);
// the socket's status as the view sees it (connection.js): window.__harness.setStatus("reconnecting") plays a
// dropped connection, "online" its return
const connection = Object.assign(new Emitter(), { status: "online" });
const record = (type) => (fields = {}) => window.__sent.push({ type, table: tableId, ...fields });
// host=route: the view draws into a `.route-host` (display: contents, no box of its own), as in the app (app.js)
let root = document.getElementById("app");
if (params.get("host") === "route") {
  const host = Object.assign(document.createElement("div"), { className: "route-host" });
  root.append(host);
  root = host;
}
const view = new TableView(root, {
  act: (kind, fields = {}) => { window.__sent.push({ type: "act", table: tableId, kind, ...fields }); return Promise.resolve(window.__reply); },
  sit: (seat) => window.__sent.push({ type: "sit", table: tableId, seat }),
  sitOut: record("sit_out"), sitIn: record("sit_in"), leave: record("leave"), topUp: record("top_up"),
  lobby: record("lobby"), history: record("history"),
}, { connection });
store.subscribe((model) => view.render(model));
for (const frame of fixture.frames) store.apply(frame);
window.__lastState = [...fixture.frames].reverse().find((f) => f.type === "table_state");
window.__harness = {
  store, view, feed: (frame) => store.apply(frame),
  setStatus: (status) => { connection.status = status; connection.emit("status", status); },
};
document.body.dataset.ready = "1";
