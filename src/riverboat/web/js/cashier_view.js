// The cashier (issue #30): balances and the personal payment reference, deposits through a payment provider's page,
// withdrawals (pending until staff pay them out; cancel while pending), the statement (every movement of the
// balance, filtered by date and kind, page by page, CSV export), deposit limits, the reality check, a time-out and
// self-exclusion. During a time-out or self-exclusion the page still shows the balance and the withdrawal form.
// Amounts are integer minor units end to end (parseMoney / formatMoney); the server refuses anything else.

import { el, mount, formatMoney, parseMoney, localTime } from "./util.js";
import { api, request, hasSession } from "./api.js";
import { plainError } from "./errors.js";
import { movementKind, tableName } from "./account_view.js";
import { t } from "./i18n.js";

const PAGE = 25;
const PERIODS = ["day", "week", "month"];
const KINDS = ["deposit", "withdrawal", "table", "tournament", "adjustment"];

export const cashierApi = {
  info: () => request("GET", "/api/cashier/info"),
  deposit: (provider, amount, currency = "EUR") => request("POST", "/api/cashier/deposits", { provider, amount, currency }),
  withdraw: (amount, requestId, currency = "EUR") => request("POST", "/api/cashier/withdrawals", { amount, currency, request_id: requestId }),
  cancel: (id) => request("POST", `/api/cashier/withdrawals/${encodeURIComponent(id)}/cancel`, {}),
  statement: (query) => request("GET", `/api/cashier/statement?${new URLSearchParams(query)}`),
  protections: () => request("GET", "/api/protections"),
  setLimit: (period, amount, currency = "EUR") => request("PUT", "/api/protections/limits", { currency, period, amount }),
  setReality: (minutes) => request("PUT", "/api/protections/reality-check", { minutes }),
  reality: (since) => request("GET", `/api/protections/reality-check?since=${encodeURIComponent(since)}`),
  timeout: (hours) => request("POST", "/api/protections/timeout", { hours }),
  exclude: (months) => request("POST", "/api/protections/self-exclusion", { months, confirm: true }),
};

function box(title, testid, ...children) {
  return el("div", { class: "box wide", "data-testid": testid }, el("h2", {}, title), ...children);
}

function status(node, err) {
  node.textContent = err ? plainError(err) : "";
}

function amountField(name, testid) {
  return el("input", { name, type: "text", inputmode: "decimal", required: true, "data-testid": testid, size: 10 });
}

function movementRow(m, names) {
  return el("tr", { "data-txn": m.txn ?? "" },
    el("td", { title: m.at }, localTime(m.at)),
    el("td", { "data-testid": "movement-kind" }, movementKind(m.kind)),
    el("td", { "data-testid": "movement-table" }, tableName(m.table, names) || ""),
    el("td", { class: "num" }, formatMoney(m.amount, m.currency)));
}

function depositBox(info, ctx, blocked) {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "deposit-error" });
  const amount = amountField("amount", "deposit-amount");
  const provider = el("select", { name: "provider", "data-testid": "deposit-provider" },
    info.providers.map((p) => el("option", { value: p }, p === "fake" ? t("cashier.provider_fake") : p)));
  const form = el("form", { class: "inline-form", "data-testid": "deposit-form" },
    el("label", { class: "field-inline" }, t("cashier.amount_eur"), " ", amount), " ", provider, " ",
    el("button", { class: "btn btn-primary", type: "submit", disabled: blocked, "data-testid": "deposit-submit" }, t("cashier.deposit")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status(error);
    const cents = parseMoney(amount.value, "EUR");
    if (!cents) { error.textContent = t("cashier.bad_amount"); return; }
    try {
      const opened = await cashierApi.deposit(provider.value, cents);
      location.assign(opened.checkout_url);  // the provider's page; it sends the player back here
    } catch (err) { status(error, err); }
  });
  return box(t("cashier.deposit_title"), "deposit",
    el("p", {}, t("cashier.bank_transfer"), " ", el("strong", { "data-testid": "payment-reference", translate: "no" }, info.payment_reference)),
    info.providers.length ? form : el("p", { class: "muted" }, t("cashier.no_provider")), error);
}

function withdrawBox(info, refresh) {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "withdraw-error" });
  const amount = amountField("amount", "withdraw-amount");
  const form = el("form", { class: "inline-form", "data-testid": "withdraw-form" },
    el("label", { class: "field-inline" }, t("cashier.amount_eur"), " ", amount), " ",
    el("button", { class: "btn btn-primary", type: "submit", "data-testid": "withdraw-submit" }, t("cashier.withdraw")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status(error);
    const cents = parseMoney(amount.value, "EUR");
    if (!cents) { error.textContent = t("cashier.bad_amount"); return; }
    try {
      await cashierApi.withdraw(cents, `web-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
      await refresh();
    } catch (err) { status(error, err); }
  });
  const rows = info.withdrawals.map((w) => el("tr", { "data-testid": "withdrawal-row", "data-status": w.status },
    el("td", {}, localTime(w.requested_at)), el("td", { class: "num" }, formatMoney(w.amount, w.currency)),
    el("td", { "data-testid": "withdrawal-status" }, t(`cashier.status.${w.status}`)), // i18n-dynamic: cashier.status.*
    el("td", {}, w.status === "pending" ? el("button", { class: "btn btn-small", "data-testid": "withdrawal-cancel",
      onclick: async () => { try { await cashierApi.cancel(w.id); await refresh(); } catch (err) { status(error, err); } } },
    t("cashier.cancel")) : (w.status === "rejected" ? w.reason : ""))));
  return box(t("cashier.withdraw_title"), "withdraw",
    info.verified ? form : el("p", { class: "muted", "data-testid": "not-verified" }, t("cashier.not_verified")), error,
    rows.length ? el("table", { class: "list", "data-testid": "withdrawals" },
      el("thead", {}, el("tr", {}, el("th", {}, t("cashier.time")), el("th", { class: "num" }, t("cashier.col_amount")),
        el("th", {}, t("cashier.col_status")), el("th", {}, ""))), el("tbody", {}, rows)) : null);
}

function statementBox(names) {
  const from = el("input", { type: "date", "data-testid": "statement-from" });
  const to = el("input", { type: "date", "data-testid": "statement-to" });
  const kind = el("select", { "data-testid": "statement-kind" }, el("option", { value: "" }, t("cashier.kind_all")),
    KINDS.map((k) => el("option", { value: k }, t(`cashier.kind.${k}`)))); // i18n-dynamic: cashier.kind.*
  const body = el("tbody", {});
  const more = el("div", { class: "more-row" });
  const empty = el("p", { class: "muted", "data-testid": "no-movements" });
  const error = el("p", { class: "form-error", role: "alert" });
  const query = (extra = {}) => {
    const q = { limit: String(PAGE), ...extra };
    if (from.value) q.from = from.value;
    if (to.value) q.to = to.value;
    if (kind.value) q.kind = kind.value;
    return q;
  };
  const load = async (before = null) => {
    status(error);
    try {
      const page = await cashierApi.statement(query(before ? { before: String(before) } : {}));
      if (!before) body.replaceChildren();
      body.append(...page.movements.map((m) => movementRow(m, names)));
      empty.textContent = body.children.length ? "" : t("cashier.no_movements");
      more.replaceChildren(page.next_before ? el("button", { class: "btn btn-small", "data-testid": "older-movements",
        onclick: () => load(page.next_before) }, t("cashier.show_older")) : "");
    } catch (err) { error.textContent = t("cashier.older_failed", { reason: plainError(err) }); }
  };
  const csv = el("button", { class: "btn btn-small", type: "button", "data-testid": "statement-csv", onclick: async () => {
    const q = query({ format: "csv", limit: "500" });
    const response = await fetch(`/api/cashier/statement?${new URLSearchParams(q)}`);  // the session cookie goes along
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: "riverboat-statement.csv" });
    document.body.append(link);
    link.click();
    link.remove();
  } }, t("cashier.csv"));
  for (const input of [from, to, kind]) input.addEventListener("change", () => load());
  load();
  return box(t("cashier.movements"), "statement",
    el("div", { class: "filters" }, el("label", { class: "field-inline" }, t("cashier.from"), " ", from), " ",
      el("label", { class: "field-inline" }, t("cashier.to"), " ", to), " ", kind, " ", csv), error,
    // a phone scrolls the table, not the page (issue 31)
    el("div", { class: "table-scroll" }, el("table", { class: "list", "data-testid": "movements" },
      el("thead", {}, el("tr", {}, el("th", {}, t("cashier.time")), el("th", {}, t("cashier.what")),
        el("th", {}, t("lobby.col_table")), el("th", { class: "num" }, t("cashier.col_amount")))), body)), empty, more);
}

function limitsBox(prot, refresh) {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "limit-error" });
  const rows = PERIODS.map((period) => {
    const lim = prot.limits.find((l) => l.period === period && l.currency === "EUR");
    const input = el("input", { type: "text", inputmode: "decimal", size: 8, "data-testid": `limit-${period}`,
      placeholder: lim && lim.amount !== null ? formatMoney(lim.amount, "EUR") : t("cashier.no_limit") });
    const save = el("button", { class: "btn btn-small", "data-testid": `limit-save-${period}`, onclick: async () => {
      status(error);
      const cents = input.value.trim() === "" ? null : parseMoney(input.value, "EUR");
      if (cents === 0 || (cents === null && input.value.trim() !== "")) { error.textContent = t("cashier.bad_amount"); return; }
      try { await cashierApi.setLimit(period, cents); await refresh(); } catch (err) { status(error, err); }
    } }, t("cashier.save"));
    const pending = lim && lim.pending_from ? t("cashier.limit_pending", {
      amount: lim.pending_amount === null ? t("cashier.no_limit") : formatMoney(lim.pending_amount, "EUR"),
      at: localTime(lim.pending_from) }) : "";
    return el("tr", { "data-period": period },
      el("td", {}, t(`cashier.period.${period}`)), // i18n-dynamic: cashier.period.*
      el("td", { class: "num", "data-testid": `limit-now-${period}` }, lim && lim.amount !== null ? formatMoney(lim.amount, "EUR") : t("cashier.no_limit")),
      el("td", { class: "num" }, lim ? formatMoney(lim.used, "EUR") : ""),
      el("td", { "data-testid": `limit-pending-${period}` }, pending), el("td", {}, input, " ", save));
  });
  return box(t("cashier.limits"), "limits", el("p", { class: "muted" }, t("cashier.limits_help")),
    el("table", { class: "list" }, el("thead", {}, el("tr", {}, el("th", {}, t("cashier.period")), el("th", { class: "num" }, t("cashier.limit_now")),
      el("th", { class: "num" }, t("cashier.used")), el("th", {}, t("cashier.limit_pending_col")), el("th", {}, ""))), el("tbody", {}, rows)), error);
}

function protectionBox(prot, refresh) {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "protection-error" });
  const act = (fn) => async () => { status(error); try { await fn(); await refresh(); } catch (err) { status(error, err); } };
  const reality = el("select", { "data-testid": "reality-minutes" }, el("option", { value: "" }, t("cashier.off")),
    [15, 30, 60, 120].map((m) => el("option", { value: m, selected: prot.reality_check_minutes === m }, t("cashier.minutes", { count: m }))));
  const hours = el("select", { "data-testid": "timeout-hours" },
    [[24, "cashier.timeout_24h"], [168, "cashier.timeout_1w"], [1008, "cashier.timeout_6w"]].map(([h, key]) => el("option", { value: h }, t(key))));
  const months = el("select", { "data-testid": "exclusion-months" },
    [[6, "cashier.exclude_6m"], [12, "cashier.exclude_1y"], [60, "cashier.exclude_5y"], ["", "cashier.exclude_forever"]].map(([m, key]) => el("option", { value: m }, t(key))));
  return box(t("cashier.protections"), "protections",
    el("p", {}, el("label", { class: "field-inline" }, t("cashier.reality_check"), " ", reality), " ",
      el("button", { class: "btn btn-small", "data-testid": "reality-save", onclick: act(async () => {
        await cashierApi.setReality(reality.value ? Number(reality.value) : null);
        startRealityCheck(true);
      }) }, t("cashier.save"))),
    el("p", {}, el("label", { class: "field-inline" }, t("cashier.timeout"), " ", hours), " ",
      el("button", { class: "btn btn-small", "data-testid": "timeout-submit", onclick: act(async () => {
        if (!confirm(t("cashier.timeout_confirm"))) throw new Error(t("cashier.not_done"));
        await cashierApi.timeout(Number(hours.value));
      }) }, t("cashier.timeout_take"))),
    el("p", {}, el("label", { class: "field-inline" }, t("cashier.exclusion"), " ", months), " ",
      el("button", { class: "btn btn-small btn-danger", "data-testid": "exclusion-submit", onclick: act(async () => {
        if (!confirm(t("cashier.exclusion_confirm"))) throw new Error(t("cashier.not_done"));
        await cashierApi.exclude(months.value ? Number(months.value) : null);
      }) }, t("cashier.exclude"))), error);
}

export async function renderCashier(root, ctx) {
  const [info, prot, lobby] = await Promise.all([cashierApi.info(), cashierApi.protections(), api.lobby().catch(() => ({}))]);
  await ctx.session.refresh();
  const names = Object.fromEntries([...(lobby.tables || []), ...(lobby.pools || [])].map((x) => [x.id, x.name]));
  const refresh = () => renderCashier(root, ctx);
  const params = new URLSearchParams(location.search);
  const back = params.get("deposit");
  if (back) history.replaceState(null, "", `${location.pathname}${location.hash}`);
  const blocked = !info.may_play;
  const notice = blocked ? el("p", { class: "notice", "data-testid": "play-blocked" }, t(
    info.block.kind === "timeout" ? "cashier.blocked_timeout" : "cashier.blocked_exclusion",
    { until: info.block.until ? localTime(info.block.until) : t("cashier.forever") })) : null;
  mount(root, el("div", { class: "page", "data-testid": "cashier" },
    back ? el("p", { class: back === "done" ? "form-ok" : "form-error", "data-testid": "deposit-outcome" },
      t(back === "done" ? "cashier.deposit_done" : "cashier.deposit_failed")) : null,
    notice,
    box(t("nav.cashier"), "cashier-balances",
      el("table", { class: "list", "data-testid": "balances" },
        el("thead", {}, el("tr", {}, el("th", {}, t("cashier.account")), el("th", { class: "num" }, t("cashier.balance")))),
        el("tbody", {}, Object.entries(info.balances).map(([currency, amount]) => el("tr", { "data-currency": currency },
          el("td", {}, currency === "PLAY" ? t("money.play") : currency),
          el("td", { class: "num", "data-testid": `balance-${currency}` }, formatMoney(amount, currency))))))),
    depositBox(info, ctx, blocked), withdrawBox(info, refresh), statementBox(names),
    limitsBox(prot, refresh), blocked ? null : protectionBox(prot, refresh)));
  return null;
}

// ---- the reality check: every N minutes of the session, the time played and the net result ----------------------

let realityTimer = null;
let leaveTables = () => {};

/** What the reality check's Leave does (app.js: leave every table the player sits at). */
export function setRealityLeave(fn) { leaveTables = fn; }
const SESSION_KEY = "rb.sessionStart";

function sessionStart() {
  let start = sessionStorage.getItem(SESSION_KEY);
  if (!start) { start = new Date().toISOString(); sessionStorage.setItem(SESSION_KEY, start); }
  return start;
}

/** (Re)arm the reality check from the player's setting; ``now``: the setting just changed. */
export async function startRealityCheck(now = false) {
  if (realityTimer) { clearTimeout(realityTimer); realityTimer = null; }
  if (!hasSession()) return;
  let prot;
  try { prot = await cashierApi.protections(); } catch { return; }
  const minutes = prot.reality_check_minutes;
  if (!minutes) return;
  const since = sessionStart();
  const elapsed = (Date.now() - Date.parse(since)) / 60000;
  const wait = now ? minutes : minutes - (elapsed % minutes);
  realityTimer = setTimeout(showRealityCheck, Math.max(1, wait) * 60000);
}

export async function showRealityCheck() {
  const since = sessionStart();
  let data;
  try { data = await cashierApi.reality(since); } catch { return; }
  const net = Object.entries(data.net).map(([c, v]) => formatMoney(v, c)).join(" · ") || formatMoney(0, "EUR");
  const dialog = el("dialog", { class: "reality-check", "data-testid": "reality-check" },
    el("h2", {}, t("cashier.reality_title")),
    el("p", {}, t("cashier.reality_played", { time: t("cashier.reality_minutes", { count: Math.round(data.played_seconds / 60) }), hands: t("cashier.reality_hands", { count: data.hands }) })),
    el("p", {}, t("cashier.reality_net"), " ", el("strong", { "data-testid": "reality-net" }, net)),
    el("div", { class: "dialog-buttons" },
      el("button", { class: "btn btn-primary", "data-testid": "reality-continue", onclick: () => { dialog.close(); dialog.remove(); startRealityCheck(true); } }, t("cashier.continue")),
      el("button", { class: "btn", "data-testid": "reality-leave", onclick: () => { dialog.close(); dialog.remove(); leaveTables(); location.hash = "#/cashier"; } }, t("cashier.leave"))));
  document.body.append(dialog);
  dialog.showModal();
}
