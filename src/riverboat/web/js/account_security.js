// A player's own account security (issue #35, docs/security.md): change the password (the current one required;
// every other session is logged out), see where the account is logged in and log out there, and set a new password
// with a one-time reset code from support (#/reset, no login needed).

import { el, mount } from "./util.js";
import { api } from "./api.js";
import { formatDateTime, t } from "./i18n.js";
import { plainError } from "./errors.js";
import { registerView } from "./views.js";

const input = (name, type, testid, autocomplete) =>
  el("input", { name, type, required: true, autocomplete, "data-testid": testid });
const labelled = (text, node) => el("label", { class: "field" }, text, node);

/** The account page's box: password change and the session list. */
export function securityBox() {
  const box = el("div", { class: "box wide", "data-testid": "account-security" });
  renderBox(box);
  return box;
}

async function renderBox(box, notice = "") {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "password-error" });
  const ok = el("p", { class: "form-ok", "data-testid": "security-ok" }, notice);
  const change = el("form", { class: "card-form", "data-testid": "password-form" },
    el("h3", {}, t("security.change_password")),
    labelled(t("security.current_password"), input("old", "password", "password-old", "current-password")),
    labelled(t("security.new_password"), input("new", "password", "password-new", "new-password")),
    error, el("button", { class: "btn btn-primary", type: "submit", "data-testid": "password-submit" },
      t("security.change_password")));
  change.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      await api.changePassword(change.old.value, change.new.value);
      await renderBox(box, t("security.password_changed"));
    } catch (err) { error.textContent = plainError(err); }
  });
  let sessions = [];
  try { sessions = (await api.sessions()).sessions; } catch (err) { error.textContent = plainError(err); }
  const rows = sessions.map((s) => el("tr", { "data-testid": "session-row", "data-current": s.current ? "1" : "0" },
    el("td", {}, s.device || t("security.unknown_device")), el("td", {}, s.address || ""),
    el("td", {}, formatDateTime(s.last_seen || s.created_at)),
    el("td", {}, s.current ? t("security.this_device")
      : el("button", { class: "btn", "data-testid": "session-end", onclick: async () => {
        try { await api.endSession(s.id); await renderBox(box); } catch (err) { error.textContent = plainError(err); }
      } }, t("security.log_out")))));
  const others = sessions.some((s) => !s.current);
  mount(box, el("h2", {}, t("security.title")), ok, change,
    el("h3", {}, t("security.sessions")),
    el("table", { class: "list", "data-testid": "sessions" }, el("tbody", {}, rows)),
    others ? el("button", { class: "btn", "data-testid": "logout-others", onclick: async () => {
      try { await api.logoutOthers(); await renderBox(box, t("security.logged_out_elsewhere")); }
      catch (err) { error.textContent = plainError(err); }
    } }, t("security.log_out_elsewhere")) : null);
}

function renderReset(root, ctx) {
  const error = el("p", { class: "form-error", role: "alert", "data-testid": "form-error" });
  const form = el("form", { class: "card-form", novalidate: true, "data-testid": "reset-form" },
    el("h2", {}, t("security.reset_title")),
    labelled(t("security.username"), input("username", "text", "reset-username", "username")),
    labelled(t("security.reset_code"), input("code", "text", "reset-code", "one-time-code")),
    labelled(t("security.new_password"), input("password", "password", "reset-password", "new-password")),
    error, el("button", { class: "btn btn-primary", type: "submit", "data-testid": "reset-submit" },
      t("security.reset_submit")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      await api.resetPassword(form.username.value.trim(), form.code.value.trim(), form.password.value);
      ctx.toast(t("security.reset_done"), "ok");
      ctx.navigate("#/login");
    } catch (err) { error.textContent = plainError(err); }
  });
  mount(root, el("div", { class: "page" }, form));
  return null;
}

registerView("reset", { login: false, render: (root, ctx) => renderReset(root, ctx) });
