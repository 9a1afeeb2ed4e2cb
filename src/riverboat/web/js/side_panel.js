// The side panel of a table: the log of this hand, the last hands (each one opens in place, and "Replay" opens it in
// the hand replayer), and the table chat (players' messages and the dealer's lines; muted players are hidden).

import { h } from "./vdom.js";
import { t } from "./i18n.js";

function tab(view, id, label, count = null) {
  const on = view.ui.panelTab === id;
  return h("button", {
    key: id, type: "button", role: "tab", class: `panel-tab${on ? " panel-tab--on" : ""}`, "aria-selected": on ? "true" : "false",
    "data-panel": id, onclick: () => { view.ui.panelTab = id; view.update(); },
  }, label, count ? h("span", { class: "badge" }, String(count)) : null);
}

function logPanel(model) {
  const lines = model.log.slice(-60);
  return h("ol", { key: `log-${model.handId}`, class: "hand-log", "data-testid": "hand-log" },
    lines.map((line, i) => h("li", { key: `${model.log.length - lines.length + i}` }, line)));
}

function lastHandsPanel(model, view) {
  const hands = model.lastHands || [];
  return h("div", { key: "last", class: "last-hands", "data-testid": "last-hands" },
    hands.length ? hands.map((hand) => h("details", { key: `hand-${hand.handId}`, class: "last-hand", "data-hand": hand.handId },
      h("summary", {}, t("table.hand_no", { id: hand.handId ?? "?" }),
        view.handlers.replay ? h("button", { class: "btn btn-small replay-link", type: "button", "data-testid": "replay-hand",
          onclick: (ev) => { ev.preventDefault(); view.handlers.replay(hand.handId); } }, t("history.replay")) : null),
      h("ol", {}, hand.lines.map((line, i) => h("li", { key: `${i}` }, line)))))
      : h("p", { class: "muted" }, t("panel.no_hands")),
    view.handlers.history ? h("button", { class: "btn btn-small", "data-testid": "open-history", onclick: () => view.handlers.history() }, t("panel.all_hands")) : null);
}

function chatPanel(model, view) {
  const chat = view.options.chat;
  const notes = view.options.notes;
  const messages = (chat ? chat.messages(model.tableId) : []).filter((m) => !(m.player !== undefined && notes && notes.muted(m.player)));
  const dealer = view.ui.showDealer !== false;
  const shown = messages.filter((m) => dealer || !m.dealer).slice(-80);
  const send = () => {
    const text = view.ui.chatDraft.trim();
    if (!text || !view.handlers.chat) return;
    view.ui.chatDraft = "";
    view.update();
    view.handlers.chat(text);
  };
  return h("div", { key: "chat", class: "chat", "data-testid": "chat" },
    h("label", { class: "field-inline chat-dealer" }, h("input", { type: "checkbox", checked: dealer, "data-testid": "chat-dealer",
      onchange: (ev) => { view.ui.showDealer = ev.target.checked; view.update(); } }), ` ${t("chat.dealer_messages")}`),
    h("ol", { class: "chat-log", "data-testid": "chat-log" }, shown.map((m) => h("li", {
      key: m.id, class: m.dealer ? "chat-dealer-line" : "chat-line", "data-player": m.player ?? "",
    }, m.dealer ? h("em", {}, `${t("chat.dealer")}: `) : h("strong", { translate: "no" }, `${m.alias}: `), m.dealer ? m.text : h("span", { translate: "no" }, m.text)))),
    view.handlers.chat ? h("form", { class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); send(); } },
      h("input", { type: "text", maxlength: 200, "data-testid": "chat-input", placeholder: t("chat.placeholder"), "aria-label": t("chat.message"),
        value: view.ui.chatDraft, oninput: (ev) => { view.ui.chatDraft = ev.target.value; } }),
      h("button", { class: "btn btn-small", type: "submit", "data-testid": "chat-send" }, t("chat.send"))) : null);
}

export function sidePanel(model, view) {
  const chat = view.options.chat;
  const unread = chat ? chat.unread(model.tableId, view.ui.panelTab === "chat") : 0;
  let body;
  if (view.ui.panelTab === "chat") body = chatPanel(model, view);
  else if (view.ui.panelTab === "last") body = lastHandsPanel(model, view);
  else body = logPanel(model);
  return h("aside", { class: "side-panel", "data-testid": "side-panel" },
    h("div", { class: "panel-tabs", role: "tablist" },
      tab(view, "log", t("panel.this_hand")), tab(view, "last", t("panel.last_hands")), chat ? tab(view, "chat", t("panel.chat"), unread) : null),
    body);
}
