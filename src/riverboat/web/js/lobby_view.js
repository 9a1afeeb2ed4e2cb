// The lobby: one tab per kind of game (the registry of views.js: cash games, Speed Poker and the tournament tabs
// here; other modules add or replace tabs), filters by game, structure and stakes, and for every cash table its
// stakes, seats, players per flop, average pot, hands per hour, the mixed game's rotation and, when it is full,
// the waiting list. Tournament tabs show the "i" breakdown of buy-in and entry fee (R-FEE-1).

import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { gameName, gameFamily, structureName, lobbyStakes } from "./games.js";
import { registerLobbyTab, lobbyTabList } from "./views.js";
import { plainError } from "./errors.js";

const state = { tab: "cash", game: "", structure: "", stakes: "" };
const DEFAULT_FILTERS = [
  { name: "game", label: "Games", value: (t) => t.mixed || t.game, fmt: gameName },
  { name: "structure", label: "Structures", value: (t) => t.structure, fmt: structureName },
  { name: "stakes", label: "Stakes", value: lobbyStakes },
];

/** The game column: a mixed table says which rotation it plays and what is dealt now. */
export function lobbyGame(entry) {
  if (entry.mixed) {
    const now = entry.current_game ? gameName(entry.current_game) : "";
    return `${gameName(entry.mixed)}${now ? ` (now ${now})` : ""}`;
  }
  return gameName(entry.game);
}

function lobbyStructure(entry) {
  return structureName(entry.current_structure || entry.structure);
}

function tournamentKind(t) {
  const kind = String(t.kind || t.type || "").toLowerCase();
  if (kind.includes("twister")) return "twister";
  if (kind.includes("sng") || kind.includes("sit")) return "sng";
  return "tournaments";
}
const allTournaments = (d) => [...(d.tournaments || []), ...(d.sit_and_go || []), ...(d.twister || [])];

registerLobbyTab({ id: "cash", label: "Cash games", order: 10, filters: true,
  rows: (d) => (d.tables || []).filter((t) => !t.tournament), render: (rows, ctx, reload) => cashTable(rows, ctx, reload) });
registerLobbyTab({ id: "speed", label: "Speed Poker", order: 20, filters: true,
  rows: (d) => d.pools || [], render: (rows, ctx) => speedTable(rows, ctx) });
registerLobbyTab({ id: "sng", label: "Sit & Go", order: 30, filters: true,
  rows: (d) => allTournaments(d).filter((t) => tournamentKind(t) === "sng"), render: (rows) => tournamentTable(rows),
  empty: { what: "Sit & Go tournaments", holds: "Sit & Go tournaments start as soon as their seats are filled" } });
registerLobbyTab({ id: "tournaments", label: "Tournaments", order: 40, filters: true,
  rows: (d) => allTournaments(d).filter((t) => tournamentKind(t) === "tournaments"), render: (rows) => tournamentTable(rows),
  empty: { what: "tournaments", holds: "Multi-table tournaments start at a scheduled time" } });
registerLobbyTab({ id: "twister", label: "Twister", order: 50, filters: true,
  rows: (d) => allTournaments(d).filter((t) => tournamentKind(t) === "twister"), render: (rows) => tournamentTable(rows),
  empty: { what: "Twister tournaments", holds: "Twister tournaments are three-player Sit & Gos with a random prize" } });

export async function renderLobby(root, ctx) {
  const page = el("div", { class: "page lobby", "data-testid": "lobby" });
  mount(root, page);
  let data;
  try {
    data = await api.lobby();
  } catch (err) {
    mount(page, el("p", { class: "form-error" }, `The lobby cannot be loaded: ${plainError(err)}`));
    return null;
  }

  const draw = () => {
    const tabs = lobbyTabList();
    if (!tabs.find((t) => t.id === state.tab)) state.tab = tabs[0].id;
    const tab = tabs.find((t) => t.id === state.tab);
    const tabBar = el("div", { class: "tabs", role: "tablist" }, tabs.map((t) => el("button", {
      class: "tab", role: "tab", "aria-selected": state.tab === t.id ? "true" : "false", "data-tab": t.id,
      onclick: () => { state.tab = t.id; draw(); },
    }, t.label)));
    let rows = tab.rows(data) || [];
    if (!rows.length && tab.empty) {
      // Nothing of this kind on the server at all: say so plainly (no filters to play with, no made-up rows).
      mount(page, el("h1", { class: "hidden" }, "Lobby"), tabBar, emptyTab(tab, data, (id) => { state.tab = id; draw(); }));
      return;
    }
    let filters = null;
    const listed = rows.length;
    if (tab.filters) {
      // a tab may bring its own filters ({name, label, value(row) -> value or list of values, fmt}); else games,
      // structures and stakes
      const specs = Array.isArray(tab.filters) ? tab.filters : DEFAULT_FILTERS;
      const valuesOf = (spec, t) => [].concat(spec.value(t)).filter((v) => v !== null && v !== undefined).map(String);
      const select = (spec) => {
        const options = [...new Set(rows.flatMap((t) => valuesOf(spec, t)))];
        if (spec.sort) options.sort(spec.sort);
        return el("select", {
          "aria-label": spec.label, "data-filter": spec.name,
          onchange: (ev) => { state[spec.name] = ev.target.value; draw(); },
        }, el("option", { value: "" }, `All ${spec.label.toLowerCase()}`),
        options.map((o) => el("option", { value: o, selected: state[spec.name] === o }, spec.fmt ? spec.fmt(o) : o)));
      };
      filters = el("div", { class: "filters" }, specs.map(select));
      rows = rows.filter((t) => specs.every((spec) => !state[spec.name] || valuesOf(spec, t).includes(state[spec.name])));
    }
    let body;
    if (listed && !rows.length) {
      body = el("div", { class: "empty-state", "data-testid": "no-match" },
        el("p", { class: "empty-note" }, "Nothing here matches these filters."),
        el("button", { class: "btn btn-small", "data-testid": "clear-filters",
          onclick: () => { for (const key of Object.keys(state)) if (key !== "tab") state[key] = ""; draw(); } }, "Clear filters"));
    } else {
      body = tab.render(rows, ctx, reload);
    }
    mount(page, el("h1", { class: "hidden" }, "Lobby"), tabBar, filters, body);
  };
  const reload = async () => { try { data = await api.lobby(); draw(); } catch { /* keep the last list */ } };
  draw();
  // Seats taken and average pots change all the time: refresh every 5 s while the lobby is open (keeping the
  // chosen tab and filters; an open "i" breakdown is left alone).
  const timer = setInterval(() => {
    if (!page.isConnected || page.querySelector(".fee-breakdown:not(.hidden), [data-keep-open]")) return;
    reload();
  }, 5000);
  return { destroy: () => clearInterval(timer) };
}

function emptyTab(tab, data, go) {
  const { what, holds } = tab.empty;
  const elsewhere = [];
  if ((data.tables || []).length) elsewhere.push(el("button", { class: "btn btn-small btn-primary", "data-testid": "go-cash", onclick: () => go("cash") }, "See cash games"));
  if ((data.pools || []).length) elsewhere.push(el("button", { class: "btn btn-small", "data-testid": "go-speed", onclick: () => go("speed") }, "See Speed Poker"));
  return el("div", { class: "empty-state", "data-testid": "empty-tab", role: "status" },
    el("h2", {}, `No ${what} are scheduled on this server yet`),
    el("p", { class: "empty-note" },
      `${holds}. When the operator schedules one it appears here with its buy-in and entry fee, the players `
      + "registered and its status."),
    elsewhere.length ? el("div", { class: "empty-actions" }, el("span", { class: "muted" }, "Meanwhile: "), elsewhere) : null);
}

function rotationText(t) {
  if (!t.mixed || !Array.isArray(t.rotation) || !t.rotation.length) return null;
  return t.rotation.map((g) => (typeof g === "string" ? gameName(g) : `${gameName(g.game)}${g.structure ? ` ${g.structure}` : ""}`)).join(" → ");
}

/** The tables this tab put the player on the waiting list of (the lobby itself is public, it does not say). */
export const WAITLISTED = new Set();

async function joinWaitlist(t, ctx, reload) {
  try {
    const reply = await ctx.connection.send(t.waiting_you ? "unwaitlist" : "waitlist", { table: t.id });
    if (reply && reply.type === "ack") {
      if (t.waiting_you) WAITLISTED.delete(t.id); else WAITLISTED.add(t.id);
      ctx.toast(t.waiting_you ? "You left the waiting list." : `You are on the waiting list for ${t.name}: a seat is offered to you as soon as one is free.`, "ok");
    }
    reload();
  } catch (err) {
    ctx.toast(plainError(err));
  }
}

function cashTable(rows, ctx, reload) {
  if (!rows.length) return el("p", { class: "empty-note" }, "No tables match.");
  const pct = (v) => (v === undefined || v === null ? "" : `${v}%`);
  return el("table", { class: "list", "data-testid": "cash-tables" },
    el("thead", {}, el("tr", {},
      el("th", {}, "Table"), el("th", {}, "Game"), el("th", { class: "hide-narrow" }, "Limit"), el("th", {}, "Stakes"),
      el("th", { class: "num" }, "Seats"), el("th", { class: "num hide-narrow", title: "Players who saw the flop (or the next card)" }, "Plrs/flop"),
      el("th", { class: "num hide-narrow" }, "Avg pot"), el("th", { class: "num hide-narrow" }, "Hands/h"), el("th", {}, ""))),
    el("tbody", {}, rows.map((t) => {
      const full = (t.seats_taken ?? 0) >= t.max_seats;
      t.waiting_you = WAITLISTED.has(t.id);
      const rotation = rotationText(t);
      return el("tr", { "data-table": t.id },
        el("td", {}, t.name),
        el("td", { "data-testid": "lobby-game" }, lobbyGame(t), rotation ? el("div", { class: "muted rotation", "data-testid": "rotation" }, rotation) : null),
        el("td", { class: "hide-narrow" }, lobbyStructure(t)),
        el("td", { "data-testid": "lobby-stakes" }, lobbyStakes(t)),
        el("td", { class: "num", "data-testid": "seats" }, `${t.seats_taken ?? 0}/${t.max_seats}`,
          t.waiting ? el("div", { class: "muted", "data-testid": "waiting" }, `${t.waiting} waiting`) : null),
        el("td", { class: "num hide-narrow", "data-testid": "players-per-flop" },
          t.mixed || gameFamily(t.current_game || t.game) === "flop" ? pct(t.players_per_flop_pct) : "—"),
        el("td", { class: "num hide-narrow" }, formatMoney(t.average_pot ?? 0, t.currency)),
        el("td", { class: "num hide-narrow", "data-testid": "hands-per-hour" }, t.hands_per_hour === undefined ? "" : String(t.hands_per_hour)),
        el("td", { class: "lobby-actions" },
          el("button", { class: "btn btn-small btn-primary", "data-testid": `open-${t.id}`,
            onclick: () => ctx.navigate(`#/table/${encodeURIComponent(t.id)}`) }, full ? "Watch" : "Open"),
          full && ctx.session && ctx.session.loggedIn ? el("button", { class: "btn btn-small", "data-testid": `waitlist-${t.id}`,
            onclick: () => joinWaitlist(t, ctx, reload) }, t.waiting_you ? "Leave list" : "Waiting list") : null));
    })));
}

function speedTable(rows, ctx) {
  if (!rows.length) return el("p", { class: "empty-note" }, "No Speed Poker pools are running.");
  return el("table", { class: "list", "data-testid": "speed-pools" },
    el("thead", {}, el("tr", {}, el("th", {}, "Pool"), el("th", {}, "Game"), el("th", {}, "Stakes"),
      el("th", { class: "num" }, "Players"), el("th", {}, ""))),
    el("tbody", {}, rows.map((p) => el("tr", {},
      el("td", {}, p.name), el("td", {}, `${gameName(p.game)} ${structureName(p.structure)}`), el("td", {}, lobbyStakes(p)),
      el("td", { class: "num" }, String(p.players ?? p.seats_taken ?? 0)),
      el("td", {}, el("button", { class: "btn btn-small btn-primary", onclick: () => ctx.navigate(`#/speed/${encodeURIComponent(p.id)}`) }, "Play"))))));
}

function tournamentTable(rows) {
  if (!rows.length) return el("p", { class: "empty-note" }, "Nothing scheduled here yet.");
  return el("table", { class: "list", "data-testid": "tournaments" },
    el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Game"), el("th", {}, "Buy-in"),
      el("th", { class: "num" }, "Players"), el("th", {}, "Status"))),
    el("tbody", {}, rows.map((t) => {
      const total = (t.buy_in ?? 0) + (t.fee ?? 0);
      const details = el("div", { class: "fee-breakdown hidden", "data-testid": "fee-breakdown" },
        `Buy-in to the prize pool: ${formatMoney(t.buy_in ?? 0, t.currency)} · entry fee to the house: ${formatMoney(t.fee ?? 0, t.currency)} · total ${formatMoney(total, t.currency)}`);
      return el("tr", {},
        el("td", {}, t.name), el("td", {}, lobbyGame(t)),
        el("td", {}, formatMoney(total, t.currency), " ",
          el("button", { class: "info-i", title: "Buy-in and fee", "aria-label": "Buy-in and fee breakdown",
            onclick: () => details.classList.toggle("hidden") }, "i"), details),
        el("td", { class: "num" }, `${t.registered ?? 0}${t.max_players ? "/" + t.max_players : ""}`),
        el("td", {}, t.status ?? "registering"));
    })));
}
