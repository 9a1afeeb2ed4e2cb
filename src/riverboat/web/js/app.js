// Entry point: hash router over the view registry (views.js), top bar (player, balance, connection status), the
// table switcher, toasts. Built-in pages: #/lobby, #/login, #/register, #/account, #/cashier, #/history,
// #/table/<id>, #/tables (up to four tiled), #/replay/<table>/<hand>, #/speed/<pool>; other modules add theirs
// (extensions.js).

import { t, translateStatic, languageSelect, setLocale, getLocale, localeForcedByUrl, LOCALES } from "./i18n.js";
import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { Connection } from "./connection.js";
import { session } from "./session.js";
import { setFourColour, isFourColour } from "./cards.js";
import { registerView, getView, navEntries } from "./views.js";
import { renderLobby, WAITLISTED } from "./lobby_view.js";
import { renderLogin, renderRegister, renderAccount } from "./account_view.js";
import { renderCashier, startRealityCheck, setRealityLeave } from "./cashier_view.js";
import { renderHistory } from "./history_view.js";
import { renderReplay } from "./replay_view.js";
import { TablePage } from "./table_page.js";
import { SpeedPage } from "./speed_page.js";
import { Desk } from "./desk.js";
import { Switcher, MultiTablePage } from "./multi_table.js";
import { played } from "./sounds.js";
import { noticeText, plainError } from "./errors.js";
import "./extensions.js";

const app = document.getElementById("app");
const connection = new Connection();
const desk = new Desk(connection, session);
window.riverboat = { connection, session, desk, sounds: played };
setFourColour(isFourColour());

export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  const node = el("div", { class: `toast ${kind === "ok" ? "ok" : ""}`, role: "status", "data-testid": "toast" }, message);
  box.append(node);
  setTimeout(() => node.remove(), 5000);
}

let current = null;

function updateTopbar() {
  const name = document.getElementById("user-name");
  const balance = document.getElementById("user-balance");
  const login = document.getElementById("login-link");
  if (session.me) {
    name.textContent = session.alias();
    const balances = session.balances();
    const shown = Object.entries(balances).filter(([, amount]) => Number(amount) !== 0);
    balance.textContent = (shown.length ? shown : Object.entries(balances).slice(0, 1))
      .map(([cur, amount]) => formatMoney(amount, cur)).join(" · ");
    balance.title = Object.entries(balances).map(([cur, amount]) => `${cur === "PLAY" ? t("money.play") : cur}: ${formatMoney(amount, cur)}`).join("\n");
    login.textContent = t("topbar.logout");
    login.href = "#/logout";
  } else {
    name.textContent = "";
    balance.textContent = "";
    login.textContent = t("topbar.login");
    login.href = "#/login";
  }
}

const ctx = { connection, session, desk, toast, navigate: (hash) => { location.hash = hash; }, refreshTopbar: updateTopbar };

// The waiting list: a free seat is offered to this player (a private event of a table they wait for).
connection.on("event", (frame) => {
  if (!frame || !frame.event || frame.event.kind !== "seat_offered") return;
  WAITLISTED.delete(String(frame.table));
  toast(t("waitlist.seat_offered", { seat: Number(frame.event.seat) + 1 }), "ok");
});

// The built-in pages. Other modules register theirs the same way (extensions.js).
registerView("lobby", { login: false, render: (root) => renderLobby(root, ctx) });
registerView("login", { login: false, render: (root) => renderLogin(root, ctx) });
registerView("register", { login: false, render: (root) => renderRegister(root, ctx) });
registerView("account", { render: (root) => renderAccount(root, ctx) });
registerView("cashier", { render: (root) => renderCashier(root, ctx) });
registerView("history", { render: (root) => renderHistory(root, ctx) });
registerView("table", { render: (root, c, args) => new TablePage(root, ctx, args.join("/")) });
registerView("tables", { render: (root) => new MultiTablePage(root, ctx) });
registerView("replay", { render: (root, c, args) => renderReplay(root, ctx, args[0], args.slice(1).join("/")) });
registerView("speed", { render: (root, c, args) => new SpeedPage(root, ctx, args.join("/")) });

function addNavLinks() {
  const nav = document.querySelector(".topnav");
  for (const entry of navEntries()) {
    if (nav.querySelector(`[data-nav="${entry.name}"]`)) continue;
    nav.append(el("a", { href: `#/${entry.name}`, "data-nav": entry.name }, entry.label));
  }
}

let routes = 0;

async function route() {
  const seq = ++routes;
  const hash = location.hash.replace(/^#\/?/, "") || "lobby";
  const [page, ...rest] = hash.split("/");
  if (current && current.destroy) current.destroy();
  current = null;
  for (const link of document.querySelectorAll("[data-nav]")) link.classList.toggle("active", link.dataset.nav === page);
  document.body.dataset.page = page;
  if (page === "logout") {
    await session.logout();
    desk.notes.clear();
    connection.reauthenticate();
    location.hash = "#/lobby";
    return;
  }
  const view = getView(page) || getView("lobby");
  if (view.login && !session.loggedIn) {
    sessionStorage.setItem("rb.afterLogin", location.hash);
    location.hash = "#/login";
    return;
  }
  // Each page draws into a host of its own. A page still loading (the lobby, the history...) when the player has
  // already moved on finishes into its detached host and is destroyed: before, it became `current` instead of the
  // newer page, which was never destroyed and kept drawing a table over later pages (found from a fresh clone).
  const host = el("div", { class: "route-host" });
  app.replaceChildren(host);
  try {
    const result = (await view.render(host, ctx, rest.map((part) => decodeURIComponent(part)))) || null;
    if (seq !== routes) {
      if (result && result.destroy) result.destroy();
      return;
    }
    current = result;
  } catch (err) {
    if (seq === routes) mount(host, el("div", { class: "page" }, el("p", { class: "form-error" }, plainError(err))));
  }
}

// Back online after a drop (issue #31 item 9): chips may have moved meanwhile (a hand settled, a cash-out), so the
// header's balance is read again rather than left as it was before the drop.
let wasOnline = connection.status === "online";
connection.on("status", (status) => {
  document.getElementById("conn").dataset.status = status;
  if (status === "online" && !wasOnline && session.loggedIn) session.refresh().catch(() => {});
  wasOnline = status === "online";
});
connection.on("notice", (frame) => toast(noticeText(frame)));
connection.on("error", (frame) => { if (frame.ref === null || frame.ref === undefined) toast(plainError(frame)); });
// The balance changes when chips move between the account and a table: refresh it then (buy-in, leave, top-up).
connection.on("event", (frame) => {
  const kind = frame.event && frame.event.kind;
  if ((kind === "left" || kind === "topped_up" || kind === "seated") && session.me
      && String(frame.event.player ?? session.me.player_id) === String(session.me.player_id)) {
    session.refresh().catch(() => {});
  }
});
connection.on("speed", (frame) => { if (frame.event === "left") session.refresh().catch(() => {}); });
session.on("change", updateTopbar);
// issue #30: the reality check of the session; its Leave leaves every table the player sits at
setRealityLeave(() => { for (const id of desk.seatedTables()) connection.send("leave", { table: id }); });
session.on("login", () => startRealityCheck());
session.on("login", () => {
  connection.reauthenticate();
  desk.notes.load();
  syncAccountLocale();
  const next = sessionStorage.getItem("rb.afterLogin");
  sessionStorage.removeItem("rb.afterLogin");
  location.hash = next || "#/lobby";
});
window.addEventListener("hashchange", route);

// The language (issue #32): the top bar's selector; the choice is kept on this device and on the account.
function saveLocaleOnAccount(locale) { return session.loggedIn ? api.setLocale(locale) : null; }

async function syncAccountLocale() {
  if (!session.loggedIn || getLocale() === "qps") return;
  try {
    const { locale } = await api.locale();
    if (locale && locale !== getLocale() && !localeForcedByUrl()) await setLocale(locale);
    else if (!locale && LOCALES.includes(getLocale())) await api.setLocale(getLocale());
  } catch { /* the device's choice stands */ }
}

translateStatic();
document.getElementById("lang-box").append(languageSelect((locale) => setLocale(locale, saveLocaleOnAccount)));
addNavLinks();
new Switcher(document.getElementById("switcher"), ctx);
try { await session.refresh(); } catch { /* offline: pages show their own errors */ }
if (session.me) desk.notes.load();
updateTopbar();
connection.connect();
await route();
startRealityCheck();
document.body.dataset.ready = "1";
