// Test harness for the tile view (#/tables): /harness/tiles.html?fixture=<name>&count=4 renders `count` copies of
// one fixture table as tiles, in the DOM the multi-table page builds (multi_table.js: .tiles > .tile > TableView with
// `tile: true`), under the app's top bar and table switcher. `board=Kh,7d,2c,5s,9h` replaces the board of the
// fixture's table states (a full board without a new fixture). window.__tiles holds each tile's store and view.

import { TableStore } from "/js/table_model.js";
import { TableView } from "/js/table_view.js";

const params = new URLSearchParams(location.search);
const name = params.get("fixture") || "holdem_action";
const count = Number(params.get("count") || "4");
const board = params.get("board");

const response = await fetch(`/harness/fixtures/${name}.json`);
const fixture = await response.json();
const frames = fixture.frames.map((f) => {
  if (!board || f.type !== "table_state" || !f.view || !f.view.hand) return f;
  return { ...f, view: { ...f.view, hand: { ...f.view.hand, board: board.split(",") } } };
});
const tableId = frames.find((f) => f.table !== undefined).table;
const grid = document.createElement("div");
grid.className = "tiles";
grid.dataset.count = String(count);
grid.dataset.testid = "tiles";
document.getElementById("app").replaceChildren(grid);
window.__sent = [];
window.__tiles = [];
for (let i = 0; i < count; i += 1) {
  const node = document.createElement("div");
  node.className = `tile${i === 0 ? " tile--focus" : ""}`;
  node.dataset.table = `${tableId}-${i}`;
  grid.append(node);
  const store = new TableStore(tableId);
  const view = new TableView(node, {
    act: (kind, fields = {}) => { window.__sent.push({ type: "act", tile: i, kind, ...fields }); return Promise.resolve({ type: "ack" }); },
    sit: () => {}, sitOut: () => {}, sitIn: () => {}, leave: () => {}, topUp: () => {}, lobby: () => {}, history: () => {},
  }, { tile: true });
  store.subscribe((model) => view.render(model));
  for (const frame of frames) store.apply(frame);
  window.__tiles.push({ store, view, node });
}
document.body.dataset.ready = "1";
