// The rules of every game in the player's language (issue #32): #/rules (the list of games) and #/rules/<game>
// (one game's page), and the same page in a dialog from a table's "Rules" button (the game being dealt; at a mixed
// table the current game of the rotation). The pages are web/rules/<locale>.json, generated from the games' data
// (games/catalog.py) and the translated rule texts by `python -m riverboat.games.rules_pages` (docs/rules.md has
// the room's rules in English with every rule ID).

import { el, mount } from "./util.js";
import { getLocale, t } from "./i18n.js";
import { registerView } from "./views.js";

const RULES_URL = new URL("../rules/", import.meta.url);
let loaded = null;

/** The rules document of the current locale (the pseudo-locale reads the English one). */
export function loadRules() {
  if (!loaded) {
    const locale = getLocale() === "qps" ? "en" : getLocale();
    loaded = fetch(new URL(`${locale}.json`, RULES_URL)).then((r) => {
      if (!r.ok) throw new Error(t("rules.unavailable"));
      return r.json();
    });
  }
  return loaded;
}

// The generated texts come from our own rule pages (not from the catalog): the pseudo-locale marks them too, so
// a test can tell them from text that comes from nowhere.
const text = (value) => (getLocale() === "qps" ? `⟦${value}⟧` : value);

function section(sec) {
  return el("section", { class: "rules-section" },
    el("h3", {}, text(sec.heading)),
    (sec.paragraphs || []).map((p) => el("p", {}, text(p))),
    sec.items && sec.items.length ? el(sec.ordered ? "ol" : "ul", {}, sec.items.map((item) => el("li", {}, text(item)))) : null,
    sec.rules && sec.rules.length ? el("p", { class: "rules-ids muted", translate: "no" }, sec.rules.join(" · ")) : null);
}

/** One game's page as a node (or a line saying there is no page for that game). */
export function gamePage(doc, gameId) {
  const game = doc.games[gameId];
  if (!game) return el("p", { class: "muted", "data-testid": "rules-missing" }, t("rules.no_page"));
  return el("article", { class: "rules-page", "data-testid": "rules-page", "data-game": gameId },
    el("h2", { "data-testid": "rules-title" }, text(game.name)),
    game.sections.map(section));
}

function gameList(doc, current) {
  return el("nav", { class: "rules-index", "aria-label": t("rules.games") },
    el("h3", {}, t("rules.games")),
    el("ul", {}, doc.order.map((id) => el("li", {},
      el("a", { href: `#/rules/${id}`, class: id === current ? "active" : "", "data-testid": `rules-link-${id}` }, text(doc.games[id].name))))));
}

/** The #/rules page: the list of games, the chosen game's page (the first game by default), the general rules. */
export async function renderRulesPage(root, gameId = null) {
  mount(root, el("div", { class: "page" }, el("p", { class: "muted" }, t("common.loading"))));
  const doc = await loadRules();
  const id = gameId && doc.games[gameId] ? gameId : doc.order[0];
  mount(root, el("div", { class: "page rules" },
    el("h1", {}, t("rules.title")),
    el("p", { class: "muted" }, text(doc.intro)),
    el("div", { class: "rules-layout" }, gameList(doc, id), gamePage(doc, id))));
  return null;
}

/** The rules of `gameId` in a dialog over the table (the player keeps their seat and their table on screen). */
export async function openRules(gameId) {
  let doc;
  try { doc = await loadRules(); } catch { return; }
  const dialog = el("dialog", { class: "rules-dialog", "data-testid": "rules-dialog" },
    el("form", { method: "dialog", class: "rules-dialog-bar" },
      el("a", { href: `#/rules/${gameId}`, class: "btn btn-small", onclick: () => dialog.close() }, t("rules.all_rules")),
      el("button", { class: "btn btn-small", value: "close", "data-testid": "rules-close" }, t("common.close"))),
    gamePage(doc, gameId));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

registerView("rules", {
  login: false,
  render: (root, ctx, args) => renderRulesPage(root, args[0] || null),
  nav: { label: t("nav.rules"), order: 90 },
});
