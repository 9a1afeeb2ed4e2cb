// Entry point: hash router, top bar (player, balance, connection status), toasts.
// Pages: #/lobby, #/login, #/register, #/account, #/cashier, #/history, #/table/<id>, #/speed/<pool>.

import { el, mount, formatMoney } from "./util.js";
import { Connection } from "./connection.js";
import { session } from "./session.js";
import { setFourColour, isFourColour } from "./cards.js";
import { renderLobby } from "./lobby_view.js";
import { renderLogin, renderRegister, renderAccount, renderCashier } from "./account_view.js";
import { renderHistory } from "./history_view.js";
import { TablePage } from "./table_page.js";
import { SpeedPage } from "./speed_page.js";

const app = document.getElementById("app");
const connection = new Connection();
window.riverboat = { connection, session };
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
    balance.title = Object.entries(balances).map(([cur, amount]) => `${cur === "PLAY" ? "Play money" : cur}: ${formatMoney(amount, cur)}`).join("\n");
    login.textContent = "Log out";
    login.href = "#/logout";
  } else {
    name.textContent = "";
    balance.textContent = "";
    login.textContent = "Log in";
    login.href = "#/login";
  }
}

const ctx = { connection, session, toast, navigate: (hash) => { location.hash = hash; }, refreshTopbar: updateTopbar };

async function route() {
  const hash = location.hash.replace(/^#\/?/, "") || "lobby";
  const [page, ...rest] = hash.split("/");
  if (current && current.destroy) current.destroy();
  current = null;
  for (const link of document.querySelectorAll("[data-nav]")) link.classList.toggle("active", link.dataset.nav === page);
  document.body.dataset.page = page;
  const needsLogin = ["account", "cashier", "history", "table", "speed"].includes(page);
  if (needsLogin && !session.loggedIn) {
    sessionStorage.setItem("rb.afterLogin", location.hash);
    location.hash = "#/login";
    return;
  }
  try {
    switch (page) {
      case "login": current = renderLogin(app, ctx); break;
      case "register": current = renderRegister(app, ctx); break;
      case "logout": await session.logout(); connection.reauthenticate(); location.hash = "#/lobby"; break;
      case "account": current = await renderAccount(app, ctx); break;
      case "cashier": current = await renderCashier(app, ctx); break;
      case "history": current = await renderHistory(app, ctx); break;
      case "table": current = new TablePage(app, ctx, decodeURIComponent(rest.join("/"))); break;
      case "speed": current = new SpeedPage(app, ctx, decodeURIComponent(rest.join("/"))); break;
      default: current = await renderLobby(app, ctx); break;
    }
  } catch (err) {
    mount(app, el("div", { class: "page" }, el("p", { class: "form-error" }, err.message || String(err))));
  }
}

connection.on("status", (status) => { document.getElementById("conn").dataset.status = status; });
connection.on("notice", (frame) => toast(frame.message || frame.code));
connection.on("error", (frame) => { if (frame.ref === null || frame.ref === undefined) toast(frame.message); });
session.on("change", updateTopbar);
session.on("login", () => {
  connection.reauthenticate();
  const next = sessionStorage.getItem("rb.afterLogin");
  sessionStorage.removeItem("rb.afterLogin");
  location.hash = next || "#/lobby";
});
window.addEventListener("hashchange", route);

try { await session.refresh(); } catch { /* offline: pages show their own errors */ }
updateTopbar();
connection.connect();
await route();
document.body.dataset.ready = "1";
