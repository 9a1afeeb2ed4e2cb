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
// host=tourney: the view draws into a `.tourney-table` under a tournament page's head, result line and HUD, as
// tournament_table.js draws it (and a 49 px stand-in for the app's top bar)
if (params.get("host") === "tourney") {
  const div = (className, text = "") => Object.assign(document.createElement("div"), { className, textContent: text });
  const bar = div("topbar-stand-in");
  bar.style.height = "49px";
  const page = Object.assign(document.createElement("section"), { className: "tourney-page" });
  const head = div("tourney-head");
  head.append(Object.assign(document.createElement("h2"), { className: "tourney-title", textContent: "Web Sit & Go" }));
  const hud = div("tourney-hud");
  for (const [label, value] of [["Level", "3"], ["Blinds", "50/100"], ["Next level", "4:59"], ["Players left", "3 of 6"], ["Average stack", "3,000"]]) {
    const cell = div("hud-cell");
    cell.append(div("hud-label", label), div("", value));
    hud.append(cell);
  }
  const table = div("tourney-table");
  page.append(head, div("tourney-result", "You finished 2nd."), hud, table);
  root.append(bar, page);
  root = table;
}
const view = new TableView(root, {
  act: (kind, fields = {}) => { window.__sent.push({ type: "act", table: tableId, kind, ...fields }); return Promise.resolve(window.__reply); },
  sit: (seat) => window.__sent.push({ type: "sit", table: tableId, seat }),
  sitOut: record("sit_out"), sitIn: record("sit_in"), leave: record("leave"), topUp: record("top_up"),
  lobby: record("lobby"), history: record("history"),
}, { connection });
store.subscribe((model) => view.render(model));
// board=Kh,7d,2c,5s,9h replaces the board of the fixture's table states (a full board without a new fixture)
const board = params.get("board");
const withBoard = (f) => (!board || f.type !== "table_state" || !f.view || !f.view.hand) ? f
  : { ...f, view: { ...f.view, hand: { ...f.view.hand, board: board.split(",") } } };
for (const frame of fixture.frames) store.apply(withBoard(frame));
window.__lastState = [...fixture.frames].reverse().find((f) => f.type === "table_state");
window.__harness = {
  store, view, feed: (frame) => store.apply(frame),
  setStatus: (status) => { connection.status = status; connection.emit("status", status); },
};
document.body.dataset.ready = "1";
