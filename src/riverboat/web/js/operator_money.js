// The operator console's money pages (issue #30): bank deposits credited by reference, the withdrawal queue
// (approve with the payout reference, or reject with a reason), adjustments (credit or debit with a category and a
// reason; above the room's four-eyes amount a second staff member approves), and one player's money page:
// verification (with the reason, audited), protections with their whole history, deposits, withdrawals and
// adjustments. The DOM helpers are the console's own (operator_app.js passes them in as `ui`).

import { OpError } from "./operator_api.js";

const enc = encodeURIComponent;

async function call(method, path, body) {
  // the console's session cookie (rb_staff, chosen by this header: docs/security.md, issue #35)
  const headers = { Accept: "application/json", "Content-Type": "application/json", "X-Riverboat-Console": "1" };
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = data.error || {};
    throw new OpError(response.status, err.code || "error", err.message || `Request failed (${response.status})`);
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

const euros = (n) => `${n < 0 ? "-" : ""}€${(Math.abs(n) / 100).toFixed(2)}`;  // display only; amounts stay integers

function subnav(ui, active) {
  return ui.h("p", { class: "op-subnav" }, [["deposits", "Deposits"], ["withdrawals", "Withdrawals"], ["adjustments", "Adjustments"]]
    .map(([key, label]) => ui.h("a", { href: `#/money/${key}`, class: key === active ? "active" : null, testid: `money-nav-${key}` }, label, " ")));
}

function form(ui, testid, fields, submit, onSubmit) {
  const error = ui.h("p", { class: "op-error", testid: `${testid}-error` });
  const node = ui.h("form", { class: "op-form", testid, onsubmit: async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try { await onSubmit(node); } catch (err) { error.textContent = err.message; }
  } }, fields, ui.h("button", { class: "btn btn-primary", type: "submit", testid: `${testid}-submit` }, submit));
  return [node, error];
}

async function depositsView(ui) {
  const { deposits } = await moneyApi.deposits();
  const [node, error] = form(ui, "credit-form", [
    ui.h("input", { name: "player", placeholder: "username or RB-… reference", testid: "credit-player", required: true }),
    ui.h("input", { name: "amount", placeholder: "amount in €", testid: "credit-amount", required: true }),
    ui.h("input", { name: "reference", placeholder: "bank reference of the transfer", testid: "credit-reference", required: true }),
  ], "Credit deposit", async (f) => {
    const amount = cents(f.amount.value);
    if (!amount || amount < 0) throw new Error("Give a positive amount in euros, e.g. 50.00");
    const done = await moneyApi.credit(f.player.value.trim(), amount, f.reference.value.trim());
    await depositsView(ui);
    ui.app().prepend(ui.h("p", { class: "op-ok", testid: "credit-done" }, done.replayed
      ? `Already credited (movement ${done.movement_id}): nothing changed.` : `Credited: movement ${done.movement_id}, balance ${euros(done.balance)}.`));
  });
  const rows = deposits.map((d) => ui.h("tr", { testid: "deposit-row" }, ui.h("td", {}, `#${d.id}`), ui.h("td", {}, ui.when(d.created_at)),
    ui.h("td", {}, ui.h("a", { href: `#/money/player/${d.player_id}` }, `#${d.player_id}`)), ui.h("td", {}, euros(d.amount)),
    ui.h("td", {}, d.method), ui.h("td", {}, d.reference), ui.h("td", {}, d.status), ui.h("td", {}, d.staff_id ? `#${d.staff_id}` : "")));
  ui.show(subnav(ui, "deposits"), ui.h("section", { class: "op-panel", testid: "money-deposits" }, ui.h("h2", {}, "Credit a bank transfer"),
    ui.h("p", { class: "muted" }, "Find the player by the payment reference written on the transfer (or the username). The bank's own reference of the transfer makes the credit happen once."),
    node, error),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, "Deposits"),
    ui.table(["id", "created", "player", "amount", "method", "reference", "status", "staff"], rows)));
}

async function withdrawalsView(ui, status = "pending") {
  const { withdrawals } = await moneyApi.withdrawals(status === "all" ? null : status);
  const select = ui.h("select", { testid: "withdrawal-status", onchange: () => withdrawalsView(ui, select.value) },
    ["pending", "paid", "rejected", "cancelled", "all"].map((s) => ui.h("option", { value: s, selected: s === status ? true : null }, s)));
  const error = ui.h("p", { class: "op-error", testid: "withdrawal-error" });
  const rows = withdrawals.map((w) => {
    const ref = ui.h("input", { placeholder: "payout reference", testid: "payout-reference", size: 14 });
    const reason = ui.h("input", { placeholder: "reason to reject", testid: "reject-reason", size: 14 });
    const decide = (action, body) => async () => {
      error.textContent = "";
      try { await moneyApi.decideWithdrawal(w.id, action, body()); await withdrawalsView(ui, status); } catch (err) { error.textContent = err.message; }
    };
    return ui.h("tr", { testid: "withdrawal-row", "data-status": w.status }, ui.h("td", {}, `#${w.id}`), ui.h("td", {}, ui.when(w.requested_at)),
      ui.h("td", {}, ui.h("a", { href: `#/money/player/${w.player_id}` }, `#${w.player_id}`)), ui.h("td", {}, euros(w.amount)), ui.h("td", {}, w.status),
      ui.h("td", {}, w.status === "pending" ? [ref, ui.h("button", { class: "btn btn-small", testid: "approve", onclick: decide("approve", () => ({ reference: ref.value.trim() })) }, "Approve"),
        " ", reason, ui.h("button", { class: "btn btn-small", testid: "reject", onclick: decide("reject", () => ({ reason: reason.value.trim() })) }, "Reject")]
        : (w.payout_reference || w.reason || "")));
  });
  ui.show(subnav(ui, "withdrawals"), ui.h("section", { class: "op-panel", testid: "money-withdrawals" },
    ui.h("h2", {}, "Withdrawals "), select, error,
    rows.length ? ui.table(["id", "requested", "player", "amount", "status", "decision"], rows) : ui.h("p", { class: "muted" }, "None.")));
}

async function adjustmentsView(ui) {
  const { adjustments, four_eyes_above: limit } = await moneyApi.adjustments();
  const [node, error] = form(ui, "adjust-form", [
    ui.h("input", { name: "player_id", placeholder: "player id", testid: "adjust-player", required: true, size: 8 }),
    ui.h("input", { name: "amount", placeholder: "€ (+ credit, - debit)", testid: "adjust-amount", required: true, size: 12 }),
    ui.h("select", { name: "category", testid: "adjust-category" }, ["goodwill", "correction", "chargeback"].map((c) => ui.h("option", { value: c }, c))),
    ui.h("input", { name: "reason", placeholder: "reason (audit log)", testid: "adjust-reason", required: true, size: 30 }),
  ], "Adjust", async (f) => {
    const amount = cents(f.amount.value);
    if (!amount) throw new Error("Give a non-zero amount in euros (- for a debit)");
    await moneyApi.adjust({ player_id: Number(f.player_id.value), amount, currency: "EUR", category: f.category.value, reason: f.reason.value.trim() });
    await adjustmentsView(ui);
  });
  const rowError = ui.h("p", { class: "op-error", testid: "adjustment-error" });
  const rows = adjustments.map((a) => ui.h("tr", { testid: "adjustment-row", "data-status": a.status }, ui.h("td", {}, `#${a.id}`),
    ui.h("td", {}, ui.h("a", { href: `#/money/player/${a.player_id}` }, `#${a.player_id}`)), ui.h("td", {}, euros(a.amount)), ui.h("td", {}, a.category),
    ui.h("td", {}, a.reason), ui.h("td", {}, a.status), ui.h("td", {}, `#${a.requested_by}`),
    ui.h("td", {}, a.status === "pending" ? [
      ui.h("button", { class: "btn btn-small", testid: "adjust-approve", onclick: async () => {
        try { await moneyApi.decideAdjustment(a.id, "approve"); await adjustmentsView(ui); } catch (err) { rowError.textContent = err.message; } } }, "Approve"),
      ui.h("button", { class: "btn btn-small", testid: "adjust-reject", onclick: async () => {
        const reason = prompt("Why is it rejected?");
        if (!reason) return;
        try { await moneyApi.decideAdjustment(a.id, "reject", { reason }); await adjustmentsView(ui); } catch (err) { rowError.textContent = err.message; } } }, "Reject")]
      : (a.decided_by ? `#${a.decided_by}` : ""))));
  ui.show(subnav(ui, "adjustments"), ui.h("section", { class: "op-panel", testid: "money-adjustments" }, ui.h("h2", {}, "Adjust a balance"),
    ui.h("p", { class: "muted" }, `Above ${euros(limit)} a second staff member must approve (four eyes).`), node, error),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, "Adjustments"), rowError,
    ui.table(["id", "player", "amount", "category", "reason", "status", "asked by", "decided by"], rows)));
}

async function playerMoneyView(ui, pid) {
  const d = await moneyApi.player(pid);
  const p = d.protections;
  const [node, error] = form(ui, "verify-form", [
    ui.h("select", { name: "verified", testid: "verify-state" }, ui.h("option", { value: "true" }, "verified"), ui.h("option", { value: "false" }, "not verified")),
    ui.h("input", { name: "reason", placeholder: "reason (documents seen…)", testid: "verify-reason", required: true, size: 30 }),
  ], "Set verification", async (f) => {
    await moneyApi.verify(pid, f.verified.value === "true", f.reason.value.trim());
    await playerMoneyView(ui, pid);
  });
  const limits = p.limits.map((l) => ui.h("tr", {}, ui.h("td", {}, `${l.period} (${l.currency})`), ui.h("td", {}, l.amount === null ? "none" : euros(l.amount)),
    ui.h("td", {}, l.pending_from ? `${l.pending_amount === null ? "none" : euros(l.pending_amount)} from ${ui.when(l.pending_from)}` : ""), ui.h("td", {}, euros(l.used))));
  const history = d.history.map((e) => ui.h("tr", {}, ui.h("td", {}, ui.when(e.at)), ui.h("td", {}, e.what),
    ui.h("td", {}, e.actor_id === null ? "player" : `staff #${e.actor_id}`), ui.h("td", {}, JSON.stringify(e.detail))));
  const block = p.block_kind ? `${p.block_kind.replace("_", "-")} ${p.blocked_until ? `until ${ui.when(p.blocked_until)}` : "(permanent)"}` : "none";
  ui.show(ui.h("section", { class: "op-panel", testid: "player-money" },
    ui.h("h2", {}, `Player #${pid} · money and protections`), ui.h("p", {}, ui.h("a", { href: `#/player/${pid}` }, "← player")),
    ui.h("p", {}, "Payment reference: ", ui.h("strong", {}, d.payment_reference), " · verified: ", ui.h("strong", { testid: "player-verified" }, p.verified ? "yes" : "no"),
      " · time-out / self-exclusion: ", ui.h("strong", { testid: "player-block" }, block), " · reality check: ", p.reality_check_minutes ? `${p.reality_check_minutes} min` : "off"),
    node, error),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, "Deposit limits"), limits.length ? ui.table(["period", "in force", "pending", "used in period"], limits) : ui.h("p", { class: "muted" }, "None.")),
  ui.h("section", { class: "op-panel", testid: "protection-history" }, ui.h("h3", {}, "History of settings"), ui.table(["when", "what", "by", "detail"], history)),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, "Deposits"), ui.table(["id", "amount", "method", "reference", "status"],
    d.deposits.map((x) => ui.h("tr", {}, ui.h("td", {}, `#${x.id}`), ui.h("td", {}, euros(x.amount)), ui.h("td", {}, x.method), ui.h("td", {}, x.reference), ui.h("td", {}, x.status))))),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, "Withdrawals"), ui.table(["id", "amount", "status", "reference / reason"],
    d.withdrawals.map((x) => ui.h("tr", {}, ui.h("td", {}, `#${x.id}`), ui.h("td", {}, euros(x.amount)), ui.h("td", {}, x.status), ui.h("td", {}, x.payout_reference || x.reason || ""))))),
  ui.h("section", { class: "op-panel" }, ui.h("h3", {}, "Adjustments"), ui.table(["id", "amount", "category", "reason", "status"],
    d.adjustments.map((x) => ui.h("tr", {}, ui.h("td", {}, `#${x.id}`), ui.h("td", {}, euros(x.amount)), ui.h("td", {}, x.category), ui.h("td", {}, x.reason), ui.h("td", {}, x.status))))));
}

/** #/money/deposits | withdrawals | adjustments | player/<id> */
export async function moneyView(parts, ui) {
  if (parts[1] === "withdrawals") await withdrawalsView(ui);
  else if (parts[1] === "adjustments") await adjustmentsView(ui);
  else if (parts[1] === "player" && parts[2]) await playerMoneyView(ui, parts[2]);
  else await depositsView(ui);
}
