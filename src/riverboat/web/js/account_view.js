// Account screens: log in, register, account (alias change once, with the rules shown; four-colour deck),
// and the cashier (balances and movements).

import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { isFourColour, setFourColour } from "./cards.js";

/** R-ALIAS-5: 4 to 16 letters a-z / A-Z and digits. */
export const ALIAS_RE = /^[A-Za-z0-9]{4,16}$/;
/** What POST /api/register accepts (server/schemas.py Username). */
export const USERNAME_RE = /^[A-Za-z0-9_.-]{3,32}$/;

function form(title, fields, submitLabel, onSubmit, footer) {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "form-error" });
  const button = el("button", { class: "btn btn-primary", type: "submit" }, submitLabel);
  const node = el("form", { class: "card-form", novalidate: true },
    el("h2", {}, title), fields, error, button, footer || null);
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try { await onSubmit(new FormData(node)); } catch (err) { error.textContent = err.message || String(err); } finally { button.disabled = false; }
  });
  return node;
}

const field = (label, name, type = "text", extra = {}) =>
  el("label", { class: "field" }, label, el("input", { name, type, required: true, ...extra }));

export function renderLogin(root, ctx) {
  mount(root, el("div", { class: "page" }, form("Log in", [
    field("Username", "username", "text", { autocomplete: "username", "data-testid": "login-username" }),
    field("Password", "password", "password", { autocomplete: "current-password", "data-testid": "login-password" }),
  ], "Log in", async (data) => {
    await ctx.session.login(String(data.get("username")), String(data.get("password")));
  }, el("p", {}, "New here? ", el("a", { href: "#/register", "data-testid": "register-link" }, "Create an account")))));
  return null;
}

export function renderRegister(root, ctx) {
  mount(root, el("div", { class: "page" }, form("Create an account", [
    field("Username", "username", "text", { autocomplete: "username", "data-testid": "register-username" }),
    field("Password", "password", "password", { autocomplete: "new-password", "data-testid": "register-password" }),
    field("Repeat password", "password2", "password", { autocomplete: "new-password", "data-testid": "register-password2" }),
  ], "Register", async (data) => {
    const username = String(data.get("username")).trim();
    const password = String(data.get("password"));
    if (!username) throw new Error("Choose a username.");
    if (!USERNAME_RE.test(username)) throw new Error("A username is 3 to 32 letters, digits, '_', '.' or '-' (no spaces).");
    if (password.length < 8) throw new Error("A password has at least 8 characters.");
    if (password !== String(data.get("password2"))) throw new Error("The two passwords differ.");
    await ctx.session.register(username, password);
    ctx.toast("Welcome to Riverboat!", "ok");
  }, el("p", {}, "Already registered? ", el("a", { href: "#/login" }, "Log in")))));
  return null;
}

export async function renderAccount(root, ctx) {
  const me = await ctx.session.refresh();
  if (!me) { ctx.navigate("#/login"); return null; }
  const canChange = me.alias_changeable ?? me.can_change_alias ?? me.alias_change_allowed ?? true;
  const aliasInput = el("input", { name: "alias", type: "text", maxlength: 16, "data-testid": "alias-input", disabled: !canChange });
  const message = el("p", { class: "form-error", role: "alert", "data-testid": "alias-error" });
  const ok = el("p", { class: "form-ok", "data-testid": "alias-ok" });
  aliasInput.addEventListener("input", () => {
    const valid = ALIAS_RE.test(aliasInput.value);
    aliasInput.classList.toggle("invalid", aliasInput.value !== "" && !valid);
    message.textContent = aliasInput.value && !valid ? "4 to 16 letters (a-z, A-Z) and digits only." : "";
  });
  const aliasForm = el("form", { class: "card-form", "data-testid": "alias-form" },
    el("h2", {}, "Alias"),
    el("p", {}, "Your alias at the tables: ", el("strong", { "data-testid": "current-alias" }, me.alias ?? "(none yet)")),
    el("ul", { class: "rules", "data-testid": "alias-rules" },
      el("li", {}, "You may change your alias once. After that it cannot be changed again (R-ALIAS-2)."),
      el("li", {}, "4 to 16 characters: letters a-z, A-Z and digits 0-9 (R-ALIAS-5)."),
      el("li", {}, "One alias per player; offensive aliases are refused by the operator (R-ALIAS-3, R-ALIAS-4).")),
    canChange ? null : el("p", { class: "muted", "data-testid": "alias-locked" }, "You have already used your one alias change."),
    el("label", { class: "field" }, "New alias", aliasInput), message, ok,
    el("button", { class: "btn btn-primary", type: "submit", disabled: !canChange, "data-testid": "alias-submit" }, "Change alias once"));
  aliasForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    message.textContent = ""; ok.textContent = "";
    const alias = aliasInput.value.trim();
    if (!ALIAS_RE.test(alias)) { message.textContent = "4 to 16 letters (a-z, A-Z) and digits only."; return; }
    if (!confirm(`Change your alias to "${alias}"? You cannot change it again.`)) return;
    try {
      await api.changeAlias(alias);
      await ctx.session.refresh();
      ctx.toast(`Your alias is now ${alias}.`, "ok");
      await renderAccount(root, ctx);
    } catch (err) {
      message.textContent = err.message;
    }
  });
  const four = el("input", { type: "checkbox", "data-testid": "four-colour", checked: isFourColour(),
    onchange: (ev) => setFourColour(ev.target.checked) });
  mount(root, el("div", { class: "page" },
    el("div", { class: "box" }, el("h2", {}, "Account"),
      el("p", {}, "Username: ", el("strong", {}, me.username ?? "")),
      el("p", {}, "Player id: ", String(me.player_id ?? me.id ?? ""))),
    aliasForm,
    el("div", { class: "box" }, el("h2", {}, "Table settings"),
      el("label", {}, four, " Four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green)"))));
  return null;
}

const CASHIER_PAGE = 25;

/** A movement time as local "YYYY-MM-DD HH:MM" (the server sends ISO 8601 in UTC). */
function movementTime(value) {
  const d = value ? new Date(value) : null;
  if (!d || Number.isNaN(d.getTime())) return value || "";
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

function movementRow(m) {
  const currency = m.currency || "EUR";
  const amount = m.amount ?? m.delta ?? 0;
  const at = m.time || m.created_at || m.at || "";
  return el("tr", { "data-txn": m.txn ?? "" },
    el("td", { title: at }, movementTime(at)),
    el("td", {}, String(m.kind || m.type || m.description || "").replace(/_/g, " ")),
    el("td", {}, m.table || m.table_id || m.reference || ""),
    el("td", { class: "num" }, formatMoney(amount, currency)));
}

export async function renderCashier(root, ctx) {
  const data = await api.cashier(CASHIER_PAGE);
  await ctx.session.refresh();
  const balances = data.balances || {};
  const history = data.history || data.movements || [];
  const body = el("tbody", {}, history.map(movementRow));
  // Older movements page by page (GET /api/cashier?before=<txn>), newest first.
  const more = el("div", { class: "more-row" });
  const showMore = (next) => {
    if (next === null || next === undefined) { more.replaceChildren(); return; }
    const button = el("button", { class: "btn btn-small", "data-testid": "older-movements", onclick: async () => {
      button.disabled = true;
      try {
        const page = await api.cashier(CASHIER_PAGE, next);
        body.append(...(page.history || []).map(movementRow));
        showMore(page.next_before);
      } catch (err) {
        button.disabled = false;
        ctx.toast(`Older movements cannot be loaded: ${err.message}`);
      }
    } }, "Show older movements");
    more.replaceChildren(button);
  };
  showMore(data.next_before);
  mount(root, el("div", { class: "page", "data-testid": "cashier" },
    el("div", { class: "box wide" }, el("h2", {}, "Cashier"),
      el("table", { class: "list", "data-testid": "balances" },
        el("thead", {}, el("tr", {}, el("th", {}, "Account"), el("th", { class: "num" }, "Balance"))),
        el("tbody", {}, Object.entries(balances).map(([currency, amount]) => el("tr", { "data-currency": currency },
          el("td", {}, currency === "PLAY" ? "Play money" : currency),
          el("td", { class: "num", "data-testid": `balance-${currency}` }, formatMoney(amount, currency))))))),
    el("div", { class: "box wide" }, el("h2", {}, "Movements"),
      history.length ? el("table", { class: "list", "data-testid": "movements" },
        el("thead", {}, el("tr", {}, el("th", {}, "Time"), el("th", {}, "What"), el("th", {}, "Table"), el("th", { class: "num" }, "Amount"))),
        body) : el("p", { class: "muted" }, "No movements yet."),
      more)));
  return null;
}
