// REST client of the operator console (/api/operator/..., docs/integrity.md). Its session is the console's own
// HttpOnly, SameSite=Strict cookie (rb_staff, docs/security.md), chosen by the X-Riverboat-Console header, so an
// operator session never mixes with a player session in the same browser and page scripts never see the token.

export class OpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

import { t } from "./i18n.js";

// A token an older console version kept in localStorage is dropped: the cookie replaces it.
try { localStorage.removeItem("rb.operator.token"); } catch { /* storage blocked */ }

async function request(method, path, body) {
  const headers = { Accept: "application/json", "X-Riverboat-Console": "1" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new OpError(0, "network", t("error.network"));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { message: text }; }
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new OpError(response.status, err.code || "error", err.message || t("op.request_failed", { status: response.status }));
  }
  return data;
}

const enc = encodeURIComponent;

export const opApi = {
  login: (username, password, code) =>
    request("POST", "/api/login", { username, password, session: "console", ...(code ? { code } : {}) }),
  enrol: (username, password) => request("POST", "/api/staff/enrol", { username, password }),
  confirmEnrol: (username, password, code) => request("POST", "/api/staff/enrol/confirm", { username, password, code }),
  security: (id) => request("GET", `/api/operator/security/${enc(id)}`),
  securityAct: (id, what, reason) => request("POST", `/api/operator/security/${enc(id)}/${enc(what)}`, { reason }),
  logout: () => request("POST", "/api/logout", {}),
  me: () => request("GET", "/api/me"),
  locale: () => request("GET", "/api/locale"),  // issue #32: the staff member's language, kept on their account
  setLocale: (locale) => request("PUT", "/api/locale", { locale }),
  flags: (status = "open") => request("GET", `/api/operator/flags?status=${enc(status)}`),
  flag: (id) => request("GET", `/api/operator/flags/${enc(id)}`),
  voidFlag: (id, reason) => request("POST", `/api/operator/flags/${enc(id)}/void`, { reason }),
  hand: (table, hand) => request("GET", `/api/operator/hands/${enc(table)}/${enc(hand)}`),
  players: (q) => request("GET", `/api/operator/players?q=${enc(q)}`),
  player: (id) => request("GET", `/api/operator/players/${enc(id)}`),
  act: (id, action, body) => request("POST", `/api/operator/players/${enc(id)}/${enc(action)}`, body),
  audit: (playerId = null) => request("GET", `/api/operator/audit${playerId ? `?player_id=${enc(playerId)}` : ""}`),
};
