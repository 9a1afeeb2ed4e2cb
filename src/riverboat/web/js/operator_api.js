// REST client of the operator console (/api/operator/..., docs/integrity.md). Its token is kept apart from the
// table client's (another localStorage key), so an operator session never mixes with a player session.

const TOKEN_KEY = "rb.operator.token";

export class OpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function opToken() {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

export function setOpToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* storage blocked: the session lasts for this page only */ }
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  const token = opToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new OpError(0, "network", "The server cannot be reached.");
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { message: text }; }
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new OpError(response.status, err.code || "error", err.message || `Request failed (${response.status})`);
  }
  return data;
}

const enc = encodeURIComponent;

export const opApi = {
  login: (username, password) => request("POST", "/api/login", { username, password }),
  logout: () => request("POST", "/api/logout", {}),
  me: () => request("GET", "/api/me"),
  flags: (status = "open") => request("GET", `/api/operator/flags?status=${enc(status)}`),
  flag: (id) => request("GET", `/api/operator/flags/${enc(id)}`),
  voidFlag: (id, reason) => request("POST", `/api/operator/flags/${enc(id)}/void`, { reason }),
  hand: (table, hand) => request("GET", `/api/operator/hands/${enc(table)}/${enc(hand)}`),
  players: (q) => request("GET", `/api/operator/players?q=${enc(q)}`),
  player: (id) => request("GET", `/api/operator/players/${enc(id)}`),
  act: (id, action, body) => request("POST", `/api/operator/players/${enc(id)}/${enc(action)}`, body),
  audit: (playerId = null) => request("GET", `/api/operator/audit${playerId ? `?player_id=${enc(playerId)}` : ""}`),
};
