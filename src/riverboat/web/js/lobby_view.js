// The lobby: one tab per kind of game (the registry of views.js: cash games, Speed Poker and the tournament tabs
// here; other modules add or replace tabs), filters by game, structure, stakes and table size, and for every cash table its
// stakes, seats, players per flop, average pot, hands per hour, the mixed game's rotation and, when it is full,
// the waiting list. Tournament tabs show the "i" breakdown of buy-in and entry fee (R-FEE-1).

import { el, mount, formatMoney } from "./util.js";
import { api } from "./api.js";
import { gameName, gameFamily, structureLabel, structureName, lobbyStakes } from "./games.js";
import { registerLobbyTab, lobbyTabList } from "./views.js";
import { plainError } from "./errors.js";
import { t as tr } from "./i18n.js";

const state = { tab: "cash", game: "", structure: "", stakes: "", seats: "" };
/** A table's size class (issue #31, filters by seats): heads-up (2 seats), 6-max (3–6), full ring (7 and more). */
export function seatsClass(entry) {
  const n = Number(entry.max_seats);
  if (!Number.isFinite(n) || n < 2) return null;
  return n === 2 ? "hu" : n <= 6 ? "short" : "full";
}
const SEATS_ORDER = ["hu", "short", "full"];
const DEFAULT_FILTERS = [
  { name: "game", label: tr("lobby.filter_games"), all: tr("lobby.all_games"), value: (t) => t.mixed || t.game, fmt: gameName },
  { name: "structure", label: tr("lobby.filter_structures"), all: tr("lobby.all_structures"), value: (t) => t.structure, fmt: structureLabel },
  { name: "stakes", label: tr("lobby.filter_stakes"), all: tr("lobby.all_stakes"), value: lobbyStakes },
  { name: "seats", label: tr("lobby.filter_seats"), all: tr("lobby.all_seats"), value: seatsClass,
    fmt: (c) => tr(`lobby.seats_${c}`), sort: (a, b) => SEATS_ORDER.indexOf(a) - SEATS_ORDER.indexOf(b) },  // i18n-dynamic: lobby.seats_*
];

/** The game column: a mixed table says which rotation it plays and what is dealt now. */
export function lobbyGame(entry) {
  if (entry.mixed) {
    const now = entry.current_game ? gameName(entry.current_game) : "";
    return now ? tr("lobby.mixed_now", { rotation: gameName(entry.mixed), game: now }) : gameName(entry.mixed);
  }
  return gameName(entry.game);
}

function lobbyStructure(entry) {
  // a mixed game of several structures (8-Game: Fixed, No and Pot Limit) is "Mixed limits", not its current one
  const structures = new Set(entry.rotation_structures || []);
  if (entry.mixed && structures.size > 1) return tr("lobby.mixed_limits");
  return structureLabel(entry.current_structure || entry.structure);
}

function tournamentKind(t) {
  const kind = String(t.kind || t.type || "").toLowerCase();
  if (kind.includes("twister")) return "twister";
  if (kind.includes("sng") || kind.includes("sit")) return "sng";
  return "tournaments";
}
const allTournaments = (d) => [...(d.tournaments || []), ...(d.sit_and_go || []), ...(d.twister || [])];

registerLobbyTab({ id: "cash", label: tr("lobby.tab_cash"), order: 10, filters: true,
  rows: (d) => (d.tables || []).filter((t) => !t.tournament), render: (rows, ctx, reload) => cashTable(rows, ctx, reload) });
registerLobbyTab({ id: "speed", label: tr("lobby.tab_speed"), order: 20, filters: true,
  rows: (d) => d.pools || [], render: (rows, ctx) => speedTable(rows, ctx) });
registerLobbyTab({ id: "sng", label: tr("lobby.tab_sng"), order: 30, filters: true,
  rows: (d) => allTournaments(d).filter((t) => tournamentKind(t) === "sng"), render: (rows) => tournamentTable(rows),
  empty: { title: tr("lobby.empty_sng"), holds: tr("lobby.holds_sng") } });
registerLobbyTab({ id: "tournaments", label: tr("lobby.tab_tournaments"), order: 40, filters: true,
  rows: (d) => allTournaments(d).filter((t) => tournamentKind(t) === "tournaments"), render: (rows) => tournamentTable(rows),
  empty: { title: tr("lobby.empty_tournaments"), holds: tr("lobby.holds_tournaments") } });
registerLobbyTab({ id: "twister", label: tr("nav.twister"), order: 50, filters: true,
  rows: (d) => allTournaments(d).filter((t) => tournamentKind(t) === "twister"), render: (rows) => tournamentTable(rows),
  empty: { title: tr("lobby.empty_twister"), holds: tr("lobby.holds_twister") } });

export async function renderLobby(root, ctx) {
  const page = el("div", { class: "page lobby", "data-testid": "lobby" });
  mount(root, page);
  let data;
  try {
    data = await api.lobby();
  } catch (err) {
    mount(page, el("p", { class: "form-error" }, tr("lobby.cannot_load", { reason: plainError(err) })));
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
      mount(page, el("h1", { class: "hidden" }, tr("nav.lobby")), tabBar, emptyTab(tab, data, (id) => { state.tab = id; draw(); }));
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
        }, el("option", { value: "" }, spec.all || spec.label),
        options.map((o) => el("option", { value: o, selected: state[spec.name] === o }, spec.fmt ? spec.fmt(o) : o)));
      };
      filters = el("div", { class: "filters" }, specs.map(select));
      rows = rows.filter((t) => specs.every((spec) => !state[spec.name] || valuesOf(spec, t).includes(state[spec.name])));
    }
    let body;
    if (listed && !rows.length) {
      body = el("div", { class: "empty-state", "data-testid": "no-match" },
        el("p", { class: "empty-note" }, tr("lobby.no_match")),
        el("button", { class: "btn btn-small", "data-testid": "clear-filters",
          onclick: () => { for (const key of Object.keys(state)) if (key !== "tab") state[key] = ""; draw(); } }, tr("lobby.clear_filters")));
    } else {
      body = tab.render(rows, ctx, reload);
    }
    mount(page, el("h1", { class: "hidden" }, tr("nav.lobby")), tabBar, filters, body);
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
  const { title, holds } = tab.empty;
  const elsewhere = [];
  if ((data.tables || []).length) elsewhere.push(el("button", { class: "btn btn-small btn-primary", "data-testid": "go-cash", onclick: () => go("cash") }, tr("lobby.see_cash")));
  if ((data.pools || []).length) elsewhere.push(el("button", { class: "btn btn-small", "data-testid": "go-speed", onclick: () => go("speed") }, tr("lobby.see_speed")));
  return el("div", { class: "empty-state", "data-testid": "empty-tab", role: "status" },
    el("h2", {}, title),
    el("p", { class: "empty-note" }, `${holds} ${tr("lobby.empty_when")}`),
    elsewhere.length ? el("div", { class: "empty-actions" }, el("span", { class: "muted" }, `${tr("lobby.meanwhile")} `), elsewhere) : null);
}

/** A mixed table's rotation, each game with its structure (issue #31 item 9: 8-Game deals Hold'em twice), the game
 * dealt now marked and the next one named ("next game" marker). */
function rotationText(t) {
  if (!t.mixed || !Array.isArray(t.rotation) || !t.rotation.length) return null;
  const structures = t.rotation_structures || [];
  const names = t.rotation.map((g, i) => (typeof g === "string"
    ? `${gameName(g)}${structures[i] ? ` ${structureLabel(structures[i])}` : ""}`
    : `${gameName(g.game)}${g.structure ? ` ${structureLabel(g.structure)}` : ""}`));
  const now = Number.isInteger(t.rotation_index) ? t.rotation_index : -1;
  const next = now >= 0 ? (now + 1) % names.length : -1;
  const list = [];
  names.forEach((name, i) => {
    if (i) list.push(" → ");
    list.push(el("span", { class: i === now ? "rotation-now" : i === next ? "rotation-next" : "" }, name));
  });
  // on a phone the whole rotation is too long for the row: the next game is what is said there
  const parts = [el("span", { class: "rotation-list hide-narrow" }, list)];
  if (next >= 0) parts.push(el("div", { "data-testid": "next-game" }, tr("lobby.next_game", { game: names[next] })));
  return parts;
}

/** The tables this tab put the player on the waiting list of (the lobby itself is public, it does not say). */
export const WAITLISTED = new Set();

async function joinWaitlist(t, ctx, reload) {
  try {
    const reply = await ctx.connection.send(t.waiting_you ? "unwaitlist" : "waitlist", { table: t.id });
    if (reply && reply.type === "ack") {
      if (t.waiting_you) WAITLISTED.delete(t.id); else WAITLISTED.add(t.id);
      ctx.toast(t.waiting_you ? tr("lobby.waitlist_left") : tr("lobby.waitlist_joined", { table: t.name }), "ok");
    }
    reload();
  } catch (err) {
    ctx.toast(plainError(err));
  }
}

/** The table preview (issue #31): who sits where with what stack, under the row, before joining. */
async function togglePreview(button, t) {
  const row = button.closest("tr");
  const open = row.nextElementSibling && row.nextElementSibling.dataset.previewOf === t.id;
  if (open) {
    row.nextElementSibling.remove();
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const cell = el("td", { colspan: String(row.children.length) }, tr("common.loading"));
  row.after(el("tr", { class: "table-preview", "data-preview-of": t.id, "data-testid": `preview-row-${t.id}` }, cell));
  button.setAttribute("aria-expanded", "true");
  try {
    const view = await api.table(t.id);
    const seats = new Map((view.seats || []).filter((s) => s && s.player !== null && s.player !== undefined)
      .map((s) => [Number(s.seat), s]));
    const items = [];
    for (let i = 0; i < (t.max_seats || 0); i += 1) {
      const s = seats.get(i);
      items.push(el("li", { "data-seat": String(i) }, s
        ? tr("lobby.preview_seat", { seat: i + 1, name: s.alias || "?", stack: formatMoney(s.stack ?? 0, t.currency) })
        : tr("lobby.preview_free", { seat: i + 1 })));
    }
    cell.replaceChildren(el("ul", { class: "preview-seats", "data-testid": "preview-seats" }, items));
  } catch (err) {
    cell.replaceChildren(plainError(err));
  }
}

function cashTable(rows, ctx, reload) {
  if (!rows.length) return el("p", { class: "empty-note" }, tr("lobby.no_tables"));
  const pct = (v) => (v === undefined || v === null ? "" : `${v}%`);
  return el("table", { class: "list", "data-testid": "cash-tables" },
    el("thead", {}, el("tr", {},
      el("th", {}, tr("lobby.col_table")), el("th", {}, tr("lobby.col_game")), el("th", { class: "hide-narrow" }, tr("lobby.col_limit")), el("th", {}, tr("lobby.col_stakes")),
      el("th", { class: "num" }, tr("lobby.col_seats")), el("th", { class: "num hide-narrow", title: tr("lobby.col_plrs_flop_title") }, tr("lobby.col_plrs_flop")),
      el("th", { class: "num hide-narrow" }, tr("lobby.col_avg_pot")), el("th", { class: "num hide-narrow" }, tr("lobby.col_hands_h")), el("th", {}, ""))),
    el("tbody", {}, rows.map((t) => {
      const full = (t.seats_taken ?? 0) >= t.max_seats;
      t.waiting_you = WAITLISTED.has(t.id);
      const rotation = rotationText(t);
      return el("tr", { "data-table": t.id },
        el("td", { translate: "no" }, t.name),
        el("td", { "data-testid": "lobby-game" }, lobbyGame(t), rotation ? el("div", { class: "muted rotation", "data-testid": "rotation" }, ...rotation) : null),
        el("td", { class: "hide-narrow" }, lobbyStructure(t)),
        el("td", { "data-testid": "lobby-stakes" }, lobbyStakes(t)),
        el("td", { class: "num", "data-testid": "seats" }, `${t.seats_taken ?? 0}/${t.max_seats}`,
          t.waiting ? el("div", { class: "muted", "data-testid": "waiting" }, tr("lobby.n_waiting", { count: t.waiting })) : null),
        el("td", { class: "num hide-narrow", "data-testid": "players-per-flop" },
          t.mixed || gameFamily(t.current_game || t.game) === "flop" ? pct(t.players_per_flop_pct) : "—"),
        el("td", { class: "num hide-narrow" }, formatMoney(t.average_pot ?? 0, t.currency)),
        el("td", { class: "num hide-narrow", "data-testid": "hands-per-hour" }, t.hands_per_hour === undefined ? "" : String(t.hands_per_hour)),
        el("td", { class: "lobby-actions" },
          ctx.session && ctx.session.loggedIn ? el("button", { class: "btn btn-small", "data-testid": `preview-${t.id}`,
            "aria-expanded": "false", onclick: (ev) => togglePreview(ev.currentTarget, t) }, tr("lobby.preview")) : null,
          el("button", { class: "btn btn-small btn-primary", "data-testid": `open-${t.id}`,
            onclick: () => ctx.navigate(`#/table/${encodeURIComponent(t.id)}`) }, full ? tr("lobby.watch") : tr("lobby.open")),
          full && ctx.session && ctx.session.loggedIn ? el("button", { class: "btn btn-small", "data-testid": `waitlist-${t.id}`,
            onclick: () => joinWaitlist(t, ctx, reload) }, t.waiting_you ? tr("lobby.leave_list") : tr("lobby.waiting_list")) : null));
    })));
}

function speedTable(rows, ctx) {
  if (!rows.length) return el("p", { class: "empty-note" }, tr("lobby.no_pools"));
  return el("table", { class: "list", "data-testid": "speed-pools" },
    el("thead", {}, el("tr", {}, el("th", {}, tr("lobby.col_pool")), el("th", {}, tr("lobby.col_game")), el("th", {}, tr("lobby.col_stakes")),
      el("th", { class: "num" }, tr("lobby.col_players")), el("th", {}, ""))),
    el("tbody", {}, rows.map((p) => el("tr", {},
      el("td", { translate: "no" }, p.name), el("td", {}, `${gameName(p.game)} ${structureLabel(p.structure)}`), el("td", {}, lobbyStakes(p)),
      el("td", { class: "num" }, String(p.players ?? p.seats_taken ?? 0)),
      el("td", {}, el("button", { class: "btn btn-small btn-primary", onclick: () => ctx.navigate(`#/speed/${encodeURIComponent(p.id)}`) }, tr("lobby.play")))))));
}

function tournamentTable(rows) {
  if (!rows.length) return el("p", { class: "empty-note" }, tr("lobby.nothing_scheduled"));
  return el("table", { class: "list", "data-testid": "tournaments" },
    el("thead", {}, el("tr", {}, el("th", {}, tr("lobby.col_name")), el("th", {}, tr("lobby.col_game")), el("th", {}, tr("lobby.col_buy_in")),
      el("th", { class: "num" }, tr("lobby.col_players")), el("th", {}, tr("lobby.col_status")))),
    el("tbody", {}, rows.map((t) => {
      const total = (t.buy_in ?? 0) + (t.fee ?? 0);
      const details = el("div", { class: "fee-breakdown hidden", "data-testid": "fee-breakdown" },
        tr("lobby.fee_breakdown", { buy_in: formatMoney(t.buy_in ?? 0, t.currency), fee: formatMoney(t.fee ?? 0, t.currency), total: formatMoney(total, t.currency) }));
      return el("tr", {},
        el("td", { translate: "no" }, t.name), el("td", {}, lobbyGame(t)),
        el("td", {}, formatMoney(total, t.currency), " ",
          el("button", { class: "info-i", title: tr("lobby.fee_title"), "aria-label": tr("lobby.fee_label"),
            onclick: () => details.classList.toggle("hidden") }, tr("lobby.info_i")), details),
        el("td", { class: "num" }, `${t.registered ?? 0}${t.max_players ? "/" + t.max_players : ""}`),
        el("td", {}, tr(`status.${t.status ?? "registering"}`)));  // i18n-dynamic: status.*
    })));
}
