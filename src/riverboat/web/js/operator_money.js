// The operator console's money pages (issue #30): bank deposits credited by reference, the withdrawal queue
// (approve with the payout reference, or reject with a reason), adjustments (credit or debit with a category and a
// reason; above the room's four-eyes amount a second staff member approves), and one player's money page:
// verification (with the reason, audited), protections with their whole history, deposits, withdrawals and
// adjustments. The DOM helpers are the console's own (operator_app.js passes them in as `ui`).

import { t } from "./i18n.js";
import { OpError } from "./operator_api.js";
import { categoryName, changeName, consoleError, data, euros, methodName, periodName, statusName, when } from "./operator_text.js";

const enc = encodeURIComponent;

async function call(method, path, body) {
  // the console's session cookie (rb_staff, chosen by this header: docs/security.md, issue #35)
  const headers = { Accept: "application/json", "Content-Type": "application/json", "X-Riverboat-Console": "1" };
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = data.error || {};
    throw new OpError(response.status, err.code || "error", err.message || t("op.request_failed", { status: response.status }));
  }
  return data;
}

export const moneyApi = {
  deposits: () => call("GET", "/api/operator/money/deposits"),
  credit: (player, amount, reference) => call("POST", "/api/operator/money/deposits", { player, amount, currency: "EUR", reference }),
  withdrawals: (status) => call("GET", `/api/operator/money/withdrawals${status ? `?status=${enc(status)}` : ""}`),
  decideWithdrawal: (id, action, body) => call("POST", `/api/operator/money/withdrawals/${enc(id)}/${action}`, body),
  adjustments: () => call("GET", "/api/operator/money/adjustments"),
  adjust: (body) => call("POST", "/api/operator/money/adjustments", body),
  decideAdjustment: (id, action, body) => call("POST", `/api/operator/money/adjustments/${enc(id)}/${action}`, body),
  player: (id) => call("GET", `/api/operator/players/${enc(id)}/money`),
  verify: (id, verified, reason) => call("POST", `/api/operator/players/${enc(id)}/verify`, { verified, reason }),
};

/** Euros typed by staff ("12.50") as integer cents, or null. */
export function cents(text) {
  const m = /^\s*(-?)(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(String(text));
  if (!m) return null;
  const value = Number(m[2]) * 100 + Number((m[3] || "").padEnd(2, "0"));
  return m[1] ? -value : value;
}

function subnav(ui, active) {
  return ui.h("p", { class: "op-subnav" }, [["deposits", t("op.money.deposits")], ["withdrawals", t("op.money.withdrawals")],
    ["adjustments", t("op.money.adjustments")]]
    .map(([key, label]) => ui.h("a", { href: `#/money/${key}`, class: key === active ? "active" : null, testid: `money-nav-${key}` }, label, " ")));
}

function form(ui, testid, fields, submit, onSubmit) {
  const error = ui.h("p", { class: "op-error", testid: `${testid}-error` });
  const node = ui.h("form", { class: "op-form", testid, onsubmit: async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try { await onSubmit(node); } catch (err) { error.textContent = consoleError(err); }
  } }, fields, ui.h("button", { class: "btn btn-primary", type: "submit", testid: `${testid}-submit` }, submit));
  return [node, error];
}

/** An input with its placeholder as its accessible name too. */
const input = (ui, attrs) => ui.h("input", { ...attrs, "aria-label": attrs.placeholder });
const playerLink = (ui, id) => ui.h("a", { href: `#/money/player/${id}` }, `#${id}`);
const td = (ui, ...content) => ui.h("td", {}, ...content);

async function depositsView(ui) {
  const { deposits } = await moneyApi.deposits();
  const [node, error] = form(ui, "credit-form", [
    input(ui, { name: "player", placeholder: t("op.money.player_or_reference"), testid: "credit-player", required: true }),
    input(ui, { name: "amount", placeholder: t("op.money.amount_eur"), testid: "credit-amount", required: true }),
    input(ui, { name: "reference", placeholder: t("op.money.bank_reference"), testid: "credit-reference", required: true }),
  ], t("op.money.credit"), async (f) => {
    const amount = cents(f.amount.value);
    if (!amount || amount < 0) throw new Error(t("op.money.positive_amount"));
    const done = await moneyApi.credit(f.player.value.trim(), amount, f.reference.value.trim());
    await depositsView(ui);
    ui.app().prepend(ui.h("p", { class: "op-ok", testid: "credit-done" }, done.replayed
      ? t("op.money.already_credited", { id: done.movement_id }) : t("op.money.credited", { id: done.movement_id, balance: euros(done.balance) })));
  });
  const rows = deposits.map((d) => ui.h("tr", { testid: "deposit-row" }, td(ui, `#${d.id}`), td(ui, when(d.created_at)),
    td(ui, playerLink(ui, d.player_id)), td(ui, euros(d.amount)), td(ui, methodName(d.method)), td(ui, data(d.reference)),
    td(ui, statusName(d.status)), td(ui, d.staff_id ? `#${d.staff_id}` : "")));
  ui.show(subnav(ui, "deposits"), ui.h("section", { class: "op-panel", testid: "money-deposits" }, ui.h("h2", {}, t("op.money.credit_title")),
    ui.h("p", { class: "muted" }, t("op.money.credit_help")),
    node, error),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, t("op.money.deposits")),
    ui.table([t("op.col.id"), t("op.col.created"), t("op.col.player"), t("op.col.amount"), t("op.col.method"), t("op.col.reference"),
      t("op.col.status"), t("op.col.staff")], rows)));
}

function withdrawalRow(ui, w, error, redraw) {
  const ref = input(ui, { placeholder: t("op.money.payout_reference"), testid: "payout-reference", size: 14 });
  const reason = input(ui, { placeholder: t("op.money.reject_reason"), testid: "reject-reason", size: 14 });
  const decide = (action, body) => async () => {
    error.textContent = "";
    try { await moneyApi.decideWithdrawal(w.id, action, body()); await redraw(); } catch (err) { error.textContent = consoleError(err); }
  };
  return ui.h("tr", { testid: "withdrawal-row", "data-status": w.status }, td(ui, `#${w.id}`), td(ui, when(w.requested_at)),
    td(ui, playerLink(ui, w.player_id)), td(ui, euros(w.amount)), td(ui, statusName(w.status)),
    td(ui, w.status === "pending" ? [ref, ui.h("button", { class: "btn btn-small", testid: "approve", onclick: decide("approve", () => ({ reference: ref.value.trim() })) }, t("op.money.approve")),
      " ", reason, ui.h("button", { class: "btn btn-small", testid: "reject", onclick: decide("reject", () => ({ reason: reason.value.trim() })) }, t("op.money.reject"))]
      : data(w.payout_reference || w.reason || "")));
}

async function withdrawalsView(ui, status = "pending") {
  const { withdrawals } = await moneyApi.withdrawals(status === "all" ? null : status);
  const select = ui.h("select", { testid: "withdrawal-status", "aria-label": t("op.col.status"), onchange: () => withdrawalsView(ui, select.value) },
    ["pending", "paid", "rejected", "cancelled", "all"].map((s) => ui.h("option", { value: s, selected: s === status ? true : null }, statusName(s))));
  const error = ui.h("p", { class: "op-error", testid: "withdrawal-error" });
  const rows = withdrawals.map((w) => withdrawalRow(ui, w, error, () => withdrawalsView(ui, status)));
  ui.show(subnav(ui, "withdrawals"), ui.h("section", { class: "op-panel", testid: "money-withdrawals" },
    ui.h("h2", {}, t("op.money.withdrawals"), " "), select, error,
    rows.length ? ui.table([t("op.col.id"), t("op.col.requested"), t("op.col.player"), t("op.col.amount"), t("op.col.status"),
      t("op.col.decision")], rows) : ui.h("p", { class: "muted" }, t("op.none"))));
}

function adjustmentRow(ui, a, rowError) {
  const decide = (action, body) => async () => {
    try { await moneyApi.decideAdjustment(a.id, action, body); await adjustmentsView(ui); } catch (err) { rowError.textContent = consoleError(err); }
  };
  return ui.h("tr", { testid: "adjustment-row", "data-status": a.status }, td(ui, `#${a.id}`),
    td(ui, playerLink(ui, a.player_id)), td(ui, euros(a.amount)), td(ui, categoryName(a.category)),
    td(ui, data(a.reason)), td(ui, statusName(a.status)), td(ui, `#${a.requested_by}`),
    td(ui, a.status === "pending" ? [
      ui.h("button", { class: "btn btn-small", testid: "adjust-approve", onclick: decide("approve") }, t("op.money.approve")),
      ui.h("button", { class: "btn btn-small", testid: "adjust-reject", onclick: async () => {
        const reason = prompt(t("op.money.why_rejected"));
        if (reason) await decide("reject", { reason })(); } }, t("op.money.reject"))]
      : (a.decided_by ? `#${a.decided_by}` : "")));
}

async function adjustmentsView(ui) {
  const { adjustments, four_eyes_above: limit } = await moneyApi.adjustments();
  const [node, error] = form(ui, "adjust-form", [
    input(ui, { name: "player_id", placeholder: t("op.money.player_id"), testid: "adjust-player", required: true, size: 8 }),
    input(ui, { name: "amount", placeholder: t("op.money.amount_signed"), testid: "adjust-amount", required: true, size: 12 }),
    ui.h("select", { name: "category", testid: "adjust-category", "aria-label": t("op.col.category") },
      ["goodwill", "correction", "chargeback"].map((c) => ui.h("option", { value: c }, categoryName(c)))),
    input(ui, { name: "reason", placeholder: t("op.money.reason"), testid: "adjust-reason", required: true, size: 30 }),
  ], t("op.money.adjust"), async (f) => {
    const amount = cents(f.amount.value);
    if (!amount) throw new Error(t("op.money.nonzero_amount"));
    await moneyApi.adjust({ player_id: Number(f.player_id.value), amount, currency: "EUR", category: f.category.value, reason: f.reason.value.trim() });
    await adjustmentsView(ui);
  });
  const rowError = ui.h("p", { class: "op-error", testid: "adjustment-error" });
  const rows = adjustments.map((a) => adjustmentRow(ui, a, rowError));
  ui.show(subnav(ui, "adjustments"), ui.h("section", { class: "op-panel", testid: "money-adjustments" }, ui.h("h2", {}, t("op.money.adjust_title")),
    ui.h("p", { class: "muted" }, t("op.money.four_eyes", { amount: euros(limit) })), node, error),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, t("op.money.adjustments")), rowError,
    ui.table([t("op.col.id"), t("op.col.player"), t("op.col.amount"), t("op.col.category"), t("op.col.reason"), t("op.col.status"),
      t("op.col.asked_by"), t("op.col.decided_by")], rows)));
}

const limitText = (amount) => (amount === null ? t("op.money.no_limit") : euros(amount));

function protectionsLine(ui, d) {
  const p = d.protections;
  const block = !p.block_kind ? t("op.money.no_block")
    : p.blocked_until ? t("op.money.block_until", { what: textOf(changeName(p.block_kind)), until: when(p.blocked_until) })
      : t("op.money.block_permanent", { what: textOf(changeName(p.block_kind)) });
  return ui.h("p", {}, t("op.money.payment_reference"), " ", ui.h("strong", { translate: "no" }, d.payment_reference),
    " · ", t("op.money.verified"), " ", ui.h("strong", { testid: "player-verified" }, t(p.verified ? "op.yes" : "op.no")),
    " · ", t("op.money.block"), " ", ui.h("strong", { testid: "player-block" }, block),
    " · ", t("op.money.reality_check"), " ", p.reality_check_minutes ? t("op.money.minutes", { count: p.reality_check_minutes }) : t("op.money.off"));
}

const textOf = (node) => (typeof node === "string" ? node : node.textContent);

/** What a protection change did, in the staff member's language (issue #32): the store's detail fields (from, to,
 * period, hours, months...) are said with the catalog's words; a change this console does not know stays raw data. */
function changeDetail(e) {
  const d = e.detail || {};
  const minutes = (m) => (m ? t("op.money.minutes", { count: m }) : t("op.money.off"));
  const verified = (v) => t(v ? "op.money.state_verified" : "op.money.state_not_verified");
  switch (e.what) {
    case "deposit_limit":
      return t("op.money.change_limit", { period: textOf(periodName(d.period)), currency: d.currency,
        from: limitText(d.from), to: limitText(d.to), at: when(d.applies_at) });
    case "reality_check": return t("op.money.change_from_to", { from: minutes(d.from), to: minutes(d.to) });
    case "verified":
      return [t("op.money.change_from_to", { from: verified(d.from), to: verified(d.to) }), " · ", data(d.reason || "")];
    case "timeout": return t("op.money.change_timeout", { count: d.hours, until: when(d.until) });
    case "self_exclusion":
      return d.permanent ? t("op.money.change_permanent") : t("op.money.change_exclusion", { count: d.months, until: when(d.until) });
    default: return data(JSON.stringify(d));
  }
}

function moneyTables(ui, d) {
  const p = d.protections;
  const limits = p.limits.map((l) => ui.h("tr", {}, td(ui, periodName(l.period), " ", data(`(${l.currency})`)), td(ui, limitText(l.amount)),
    td(ui, l.pending_from ? t("op.money.pending_from", { amount: limitText(l.pending_amount), at: when(l.pending_from) }) : ""), td(ui, euros(l.used))));
  const history = d.history.map((e) => ui.h("tr", {}, td(ui, when(e.at)), td(ui, changeName(e.what)),
    td(ui, e.actor_id === null ? t("op.money.by_player") : t("op.money.by_staff", { id: e.actor_id })), td(ui, changeDetail(e))));
  return [
    ui.h("section", { class: "op-panel" }, ui.h("h3", {}, t("op.money.limits")), limits.length
      ? ui.table([t("op.col.period"), t("op.col.in_force"), t("op.col.pending"), t("op.col.used")], limits) : ui.h("p", { class: "muted" }, t("op.none"))),
    ui.h("section", { class: "op-panel", testid: "protection-history" }, ui.h("h3", {}, t("op.money.history")),
      ui.table([t("op.col.when"), t("op.col.what"), t("op.col.by"), t("op.col.detail")], history)),
    ui.h("section", { class: "op-panel" }, ui.h("h3", {}, t("op.money.deposits")),
      ui.table([t("op.col.id"), t("op.col.amount"), t("op.col.method"), t("op.col.reference"), t("op.col.status")],
        d.deposits.map((x) => ui.h("tr", {}, td(ui, `#${x.id}`), td(ui, euros(x.amount)), td(ui, methodName(x.method)), td(ui, data(x.reference)), td(ui, statusName(x.status)))))),
    ui.h("section", { class: "op-panel" }, ui.h("h3", {}, t("op.money.withdrawals")),
      ui.table([t("op.col.id"), t("op.col.amount"), t("op.col.status"), t("op.col.reference_reason")],
        d.withdrawals.map((x) => ui.h("tr", {}, td(ui, `#${x.id}`), td(ui, euros(x.amount)), td(ui, statusName(x.status)), td(ui, data(x.payout_reference || x.reason || "")))))),
    ui.h("section", { class: "op-panel" }, ui.h("h3", {}, t("op.money.adjustments")),
      ui.table([t("op.col.id"), t("op.col.amount"), t("op.col.category"), t("op.col.reason"), t("op.col.status")],
        d.adjustments.map((x) => ui.h("tr", {}, td(ui, `#${x.id}`), td(ui, euros(x.amount)), td(ui, categoryName(x.category)), td(ui, data(x.reason)), td(ui, statusName(x.status)))))),
  ];
}

async function playerMoneyView(ui, pid) {
  const d = await moneyApi.player(pid);
  const [node, error] = form(ui, "verify-form", [
    ui.h("select", { name: "verified", testid: "verify-state", "aria-label": t("op.money.verified") },
      ui.h("option", { value: "true" }, t("op.money.state_verified")), ui.h("option", { value: "false" }, t("op.money.state_not_verified"))),
    input(ui, { name: "reason", placeholder: t("op.money.verify_reason"), testid: "verify-reason", required: true, size: 30 }),
  ], t("op.money.set_verification"), async (f) => {
    await moneyApi.verify(pid, f.verified.value === "true", f.reason.value.trim());
    await playerMoneyView(ui, pid);
  });
  ui.show(ui.h("section", { class: "op-panel", testid: "player-money" },
    ui.h("h2", {}, t("op.money.player_title", { id: pid })), ui.h("p", {}, ui.h("a", { href: `#/player/${pid}` }, t("op.money.back_to_player"))),
    protectionsLine(ui, d), node, error),
  ...moneyTables(ui, d));
}

/** #/money/deposits | withdrawals | adjustments | player/<id> */
export async function moneyView(parts, ui) {
  if (parts[1] === "withdrawals") await withdrawalsView(ui);
  else if (parts[1] === "adjustments") await adjustmentsView(ui);
  else if (parts[1] === "player" && parts[2]) await playerMoneyView(ui, parts[2]);
  else await depositsView(ui);
}
