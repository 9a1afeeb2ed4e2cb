// The registry of pages and lobby tabs. A page is `#/<name>/<rest...>`; a module adds its own with registerView()
// and its lobby tab with registerLobbyTab(), and is listed in extensions.js (one import line) — app.js and the lobby
// need no change. See src/riverboat/web/README.md ("Adding a view").

const views = new Map();
const lobbyTabs = [];
const navLinks = [];

/**
 * Register a page.
 * @param {string} name  the first part of the hash: "tournament" for #/tournament/<id>
 * @param {object} spec  {render(root, ctx, args) -> {destroy()} | null (may be async), login: true if it needs an
 *   account (default true), nav: {label, order} to add a link to the top bar}
 */
export function registerView(name, spec) {
  views.set(name, { login: true, ...spec });
  if (spec.nav) {
    navLinks.push({ name, ...spec.nav });
    navLinks.sort((a, b) => (a.order ?? 50) - (b.order ?? 50));
  }
}

export function getView(name) { return views.get(name) || null; }
export function navEntries() { return [...navLinks]; }

/**
 * Register a lobby tab.
 * @param {object} tab  {id, label, order, rows(lobbyData) -> entries of the tab, render(rows, ctx) -> Node,
 *   empty: {title, holds} (the heading and sentence shown when the server lists nothing of the kind), filters: true to show the
 *   game/structure/stakes filters}
 */
export function registerLobbyTab(tab) {
  const at = lobbyTabs.findIndex((t) => t.id === tab.id);
  if (at >= 0) lobbyTabs.splice(at, 1, tab);
  else lobbyTabs.push(tab);
  lobbyTabs.sort((a, b) => (a.order ?? 50) - (b.order ?? 50));
}

export function lobbyTabList() { return [...lobbyTabs]; }
