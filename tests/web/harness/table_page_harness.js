// Test harness for table_page.js (the app's table page around the view): /harness/table_page.html?fixture=<name>
// feeds the fixture's frames to a TableStore handed out by a stand-in desk; commands the page sends are collected
// in window.__sent (each answered with window.__reply), the session's balance is 10,000 of the table's currency.

import { TableStore } from "/js/table_model.js";
import { TablePage } from "/js/table_page.js";
import { Emitter } from "/js/util.js";

const params = new URLSearchParams(location.search);
const fixture = await (await fetch(`/harness/fixtures/${params.get("fixture") || "holdem_action"}.json`)).json();
const tableId = fixture.frames.find((f) => f.table !== undefined).table;
const store = new TableStore(tableId);
for (const frame of fixture.frames) store.apply(frame);
window.__sent = [];
window.__reply = { type: "ack" };
const notes = Object.assign(new Emitter(), { get: () => "", muted: () => false });
const desk = Object.assign(new Emitter(), { openTable: () => store, closeTable: () => {}, onScreen: new Set(), notes,
  chat: { messages: () => [], unread: () => 0, read: () => {} } });
const connection = Object.assign(new Emitter(), { status: "online",
  send: (type, fields) => { window.__sent.push({ type, ...fields }); return Promise.resolve(window.__reply); } });
const ctx = { desk, connection, toast: (text) => { window.__toasts = [...(window.__toasts || []), text]; }, navigate: () => {},
  session: { refresh: () => Promise.resolve(), balances: () => ({ [store.model.currency]: 10000 }) } };
window.__page = new TablePage(document.getElementById("app"), ctx, tableId);
window.__store = store;
document.body.dataset.ready = "1";
