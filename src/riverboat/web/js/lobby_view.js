// The lobby: tabs for cash games, Speed Poker, Sit & Go, tournaments and Twister; filters by game, structure
// and stakes; seats taken; the "i" breakdown of buy-in and entry fee for tournaments (R-FEE-1).

import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { gameName, gameFamily, structureName } from "./games.js";

const TABS = [
  { id: "cash", label: "Cash games" },
  { id: "speed", label: "Speed Poker" },
  { id: "sng", label: "Sit & Go" },
  { id: "tournaments", label: "Tournaments" },
  { id: "twister", label: "Twister" },
];

const state = { tab: "cash", game: "", structure: "", stakes: "" };

// What each tournament tab lists, for its empty state (the server lists no tournaments of that kind).
const TOURNAMENT_TABS = {
  sng: { what: "Sit & Go tournaments", holds: "Sit & Go tournaments start as soon as their seats are filled" },
  tournaments: { what: "tournaments", holds: "Multi-table tournaments start at a scheduled time" },
  twister: { what: "Twister tournaments", holds: "Twister tournaments are three-player Sit & Gos with a random prize" },
};

// Stud games are described by their small and big bets, blind games by their blinds.
const stakesText = (t) => (gameFamily(t.game) === "stud" && t.small_bet
  ? `${formatMoney(t.small_bet, t.currency)}/${formatMoney(t.big_bet, t.currency)}`
  : `${formatMoney(t.small_blind ?? t.small_bet, t.currency)}/${formatMoney(t.big_blind ?? t.big_bet, t.currency)}`);

function tournamentKind(t) {
  const kind = String(t.kind || t.type || "").toLowerCase();
  if (kind.includes("twister")) return "twister";
  if (kind.includes("sng") || kind.includes("sit")) return "sng";
  return "tournaments";
}

export async function renderLobby(root, ctx) {
  const page = el("div", { class: "page lobby", "data-testid": "lobby" });
  mount(root, page);
  let data;
  try {
    data = await api.lobby();
  } catch (err) {
    mount(page, el("p", { class: "form-error" }, `The lobby cannot be loaded: ${err.message}`));
    return null;
  }
  let tables, pools, tournaments;
  const load = (d) => {
    tables = (d.tables || []).filter((t) => !t.tournament);
    pools = d.pools || [];
    tournaments = [...(d.tournaments || []), ...(d.sit_and_go || []), ...(d.twister || [])];
  };
  load(data);

  const draw = () => {
    const tabs = el("div", { class: "tabs", role: "tablist" }, TABS.map((tab) => el("button", {
      class: "tab", role: "tab", "aria-selected": state.tab === tab.id ? "true" : "false", "data-tab": tab.id,
      onclick: () => { state.tab = tab.id; draw(); },
    }, tab.label)));
    let rows = state.tab === "cash" ? tables : state.tab === "speed" ? pools : tournaments.filter((t) => tournamentKind(t) === state.tab);
    if (!rows.length && TOURNAMENT_TABS[state.tab]) {
      // Nothing of this kind on the server at all: say so plainly (no filters to play with, no made-up rows).
      mount(page, el("h1", { class: "hidden" }, "Lobby"), tabs, emptyTournamentTab(state.tab, tables, pools, (tab) => { state.tab = tab; draw(); }));
      return;
    }
    const games = [...new Set(rows.map((t) => t.game))];
    const structures = [...new Set(rows.map((t) => t.structure))];
    const stakes = [...new Set(rows.map(stakesText))];
    const select = (name, options, label, fmt) => el("select", {
      "aria-label": label, "data-filter": name,
      onchange: (ev) => { state[name] = ev.target.value; draw(); },
    }, el("option", { value: "" }, `All ${label.toLowerCase()}`),
    options.map((o) => el("option", { value: o, selected: state[name] === o }, fmt ? fmt(o) : o)));
    const filters = el("div", { class: "filters" },
      select("game", games, "Games", gameName), select("structure", structures, "Structures", structureName),
      select("stakes", stakes, "Stakes"));
    const listed = rows.length;
    rows = rows.filter((t) => (!state.game || t.game === state.game) && (!state.structure || t.structure === state.structure)
      && (!state.stakes || stakesText(t) === state.stakes));
    let body;
    if (listed && !rows.length) {
      body = el("div", { class: "empty-state", "data-testid": "no-match" },
        el("p", { class: "empty-note" }, "Nothing here matches these filters."),
        el("button", { class: "btn btn-small", "data-testid": "clear-filters",
          onclick: () => { state.game = ""; state.structure = ""; state.stakes = ""; draw(); } }, "Clear filters"));
    } else if (state.tab === "cash") body = cashTable(rows, ctx);
    else if (state.tab === "speed") body = speedTable(rows, ctx);
    else body = tournamentTable(rows, ctx);
    mount(page, el("h1", { class: "hidden" }, "Lobby"), tabs, filters, body);
  };
  draw();
  // Seats taken and average pots change all the time: refresh every 5 s while the lobby is open (keeping the
  // chosen tab and filters; an open "i" breakdown is left alone).
  const timer = setInterval(async () => {
    if (!page.isConnected || page.querySelector(".fee-breakdown:not(.hidden)")) return;
    try { load(await api.lobby()); draw(); } catch { /* keep the last list */ }
  }, 5000);
  return { destroy: () => clearInterval(timer) };
}

function emptyTournamentTab(tab, tables, pools, go) {
  const { what, holds } = TOURNAMENT_TABS[tab];
  const elsewhere = [];
  if (tables.length) elsewhere.push(el("button", { class: "btn btn-small btn-primary", "data-testid": "go-cash", onclick: () => go("cash") }, "See cash games"));
  if (pools.length) elsewhere.push(el("button", { class: "btn btn-small", "data-testid": "go-speed", onclick: () => go("speed") }, "See Speed Poker"));
  return el("div", { class: "empty-state", "data-testid": "empty-tab", role: "status" },
    el("h2", {}, `No ${what} are scheduled on this server yet`),
    el("p", { class: "empty-note" },
      `${holds}. When the operator schedules one it appears here with its buy-in and entry fee, the players `
      + "registered and its status."),
    elsewhere.length ? el("div", { class: "empty-actions" }, el("span", { class: "muted" }, "Meanwhile: "), elsewhere) : null);
}

function cashTable(rows, ctx) {
  if (!rows.length) return el("p", { class: "empty-note" }, "No tables match.");
  return el("table", { class: "list", "data-testid": "cash-tables" },
    el("thead", {}, el("tr", {},
      el("th", {}, "Table"), el("th", {}, "Game"), el("th", { class: "hide-narrow" }, "Limit"), el("th", {}, "Stakes"),
      el("th", { class: "num" }, "Seats"), el("th", { class: "num hide-narrow" }, "Avg pot"), el("th", {}, ""))),
    el("tbody", {}, rows.map((t) => el("tr", { "data-table": t.id },
      el("td", {}, t.name), el("td", {}, gameName(t.game)), el("td", { class: "hide-narrow" }, structureName(t.structure)),
      el("td", {}, stakesText(t)),
      el("td", { class: "num", "data-testid": "seats" }, `${t.seats_taken ?? 0}/${t.max_seats}`),
      el("td", { class: "num hide-narrow" }, formatMoney(t.average_pot ?? 0, t.currency)),
      el("td", {}, el("button", { class: "btn btn-small btn-primary", "data-testid": `open-${t.id}`,
        onclick: () => ctx.navigate(`#/table/${encodeURIComponent(t.id)}`) }, "Open"))))));
}

function speedTable(rows, ctx) {
  if (!rows.length) return el("p", { class: "empty-note" }, "No Speed Poker pools are running.");
  return el("table", { class: "list", "data-testid": "speed-pools" },
    el("thead", {}, el("tr", {}, el("th", {}, "Pool"), el("th", {}, "Game"), el("th", {}, "Stakes"),
      el("th", { class: "num" }, "Players"), el("th", {}, ""))),
    el("tbody", {}, rows.map((p) => el("tr", {},
      el("td", {}, p.name), el("td", {}, `${gameName(p.game)} ${structureName(p.structure)}`), el("td", {}, stakesText(p)),
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
        el("td", {}, t.name), el("td", {}, gameName(t.game)),
        el("td", {}, formatMoney(total, t.currency), " ",
          el("button", { class: "info-i", title: "Buy-in and fee (R-FEE-1)", "aria-label": "Buy-in and fee breakdown",
            onclick: () => details.classList.toggle("hidden") }, "i"), details),
        el("td", { class: "num" }, `${t.registered ?? 0}${t.max_players ? "/" + t.max_players : ""}`),
        el("td", {}, t.status ?? "registering"));
    })));
}
