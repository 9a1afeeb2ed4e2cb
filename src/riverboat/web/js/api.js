// REST client: register, login, lobby, account, cashier and hand histories. The session is an HttpOnly,
// SameSite=Strict cookie set by POST /api/login (docs/security.md "Tokens"): page scripts never see the token, so
// a script injected into the page could not carry it away; fetch and the WebSocket send the cookie themselves.

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// Whether the page has a live session (known from GET /api/me: the cookie itself is out of the scripts' reach).
let signedIn = false;
export function hasSession() { return signedIn; }
export function markSession(value) { signedIn = Boolean(value); }
/** Whether the browser holds a session cookie (its readable marker `<name>_in=1`; the token itself is HttpOnly). */
export function sessionMarked(name = "rb_session") {
  return document.cookie.split(";").some((c) => c.trim() === `${name}_in=1`);
}
// A bearer token an older client version kept in localStorage is dropped: the cookie replaces it.
try { localStorage.removeItem("rb.token"); } catch { /* storage blocked */ }

export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, "network", t("error.network"));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = { message: text }; }
  }
  if (!response.ok) {
    const err = (data && (data.error || data.detail)) || data || {};
    const message = typeof err === "string" ? err : err.message || data.message || t("error.request_failed", { status: response.status });
    const code = typeof err === "object" ? err.code || "error" : "error";
    throw new ApiError(response.status, code, message);
  }
  return data;
}

export const api = {
  register: (username, password) => request("POST", "/api/register", { username, password }),
  login: (username, password) => request("POST", "/api/login", { username, password, session: "cookie" }),
  logout: () => request("POST", "/api/logout", {}),
  me: () => request("GET", "/api/me"),
  lobby: () => request("GET", "/api/lobby"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  changeAlias: (alias) => request("PUT", "/api/alias", { alias }),
  cashier: (limit = 25, before = null) =>
    request("GET", `/api/cashier?limit=${limit}${before !== null && before !== undefined ? `&before=${encodeURIComponent(before)}` : ""}`),
  hands: (limit = 10, table = null) =>
    request("GET", `/api/hands?limit=${limit}${table ? `&table=${encodeURIComponent(table)}` : ""}`),
  /** The hand history's search (issue #31): `query` a URLSearchParams string (game, stakes, since, until, result,
   * kind, offset, limit) -> {total, offset, hands}. */
  searchHands: (query) => request("GET", `/api/hands/search?${query}`),
  searchExportUrl: (format, query) => `/api/hands/search/export?format=${format}&${query}`,
  hand: (tableId, handId) => request("GET", `/api/hands/${encodeURIComponent(tableId)}/${encodeURIComponent(handId)}`),
  notes: () => request("GET", "/api/notes"),
  saveNote: (playerId, note) => request("PUT", `/api/notes/${encodeURIComponent(playerId)}`, note),
  stats: () => request("GET", "/api/stats"),
  /** The language kept on the account (issue #32): {locale} (null if never chosen). */
  locale: () => request("GET", "/api/locale"),
  setLocale: (locale) => request("PUT", "/api/locale", { locale }),
  /** The player's tournaments of every kind, newest first (GET /api/tournaments/history). */
  tournamentHistory: () => request("GET", "/api/tournaments/history"),
  /** R-SITOUT-1/2: sit out of a tournament (out=true) or back in: {tournament, sitting_out}. */
  tournamentSitOut: (id, out) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/sit_out`, { out }),
  /** Issue #35: the player's own account security. */
  changePassword: (oldPassword, newPassword) =>
    request("PUT", "/api/password", { old_password: oldPassword, new_password: newPassword }),
  sessions: () => request("GET", "/api/sessions"),
  endSession: (id) => request("DELETE", `/api/sessions/${encodeURIComponent(id)}`),
  logoutOthers: () => request("POST", "/api/sessions/logout_others", {}),
  resetPassword: (username, code, newPassword) =>
    request("POST", "/api/password/reset", { username, code, new_password: newPassword }),
  /** The export URL of one hand, or (no hand) of the player's last hands. */
  exportUrl: (format, tableId = null, handId = null, limit = 200) => (tableId && handId
    ? `/api/hands/${encodeURIComponent(tableId)}/${encodeURIComponent(handId)}/export?format=${format}`
    : `/api/hands/export?format=${format}&limit=${limit}`),
  /** GET a text export (with the bearer token) and hand it to the browser as a file download. */
  download: async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new ApiError(response.status, "export", t("error.export_failed", { status: response.status }));
    const text = await response.text();
    const name = (/filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "") || [])[1] || "hands.txt";
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = name;
    link.dataset.testid = "download-link";
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
    return text;
  },
};
