// Multi-tabling: the table switcher (every table open in this tab, with a "your turn" highlight, always at the top
// of the page) and the tile view (#/tables) showing up to four tables at once, each fully playable. The tile where
// it is the player's turn is focused (the keyboard shortcuts act there); a click focuses a tile.

import { t } from "./i18n.js";
import { h, patch } from "./vdom.js";
import { MAX_TILES } from "./desk.js";
import { TablePage } from "./table_page.js";
import { settings } from "./settings.js";

export class Switcher {
  constructor(node, ctx) {
    this.node = node;
    this.ctx = ctx;
    const redraw = () => this.render();
    ctx.desk.on("tables", redraw);
    ctx.desk.on("turns", redraw);
    window.addEventListener("hashchange", redraw);
    settings.on("change", redraw);
    this.render();
  }

  render() {
    const desk = this.ctx.desk;
    const ids = [...new Set([...desk.open, ...desk.seatedTables()])];
    const here = decodeURIComponent(location.hash.replace(/^#\/table\//, ""));
    const tiles = location.hash.startsWith("#/tables");
    this.node.classList.toggle("hidden", ids.length === 0);
    // the "your turn" highlight is one attribute per table (data-turn); the alerts setting styles it
    patch(this.node, ids.length ? h("nav", { class: `switcher-bar${settings.get("alerts") ? " switcher-bar--alerts" : ""}`,
      "aria-label": t("switcher.label"), "data-testid": "switcher" },
      ids.map((id) => {
        const model = desk.stores.get(id) && desk.stores.get(id).model;
        const turn = desk.turns.has(id);
        const current = !tiles && here === id;
        return h("span", { key: id, class: `switch${current ? " switch--on" : ""}`,
          "data-table": id, "data-turn": turn ? "1" : "0" },
        h("a", { href: `#/table/${encodeURIComponent(id)}`, "data-testid": `switch-${id}` },
          h("span", { translate: "no" }, model ? model.name : id), h("span", { class: "turn-dot", "aria-label": t("switcher.your_turn") }, " ●")),
        desk.open.includes(id) && !(model && model.hero) ? h("button", {
          class: "switch-close", type: "button", "aria-label": t("switcher.close_table"), title: t("common.close"),
          onclick: () => { desk.closeTable(id); if (current) this.ctx.navigate("#/lobby"); },
        }, "×") : null);
      }),
      ids.length > 1 ? h("a", { key: "tile", class: `btn btn-small${tiles ? " btn-primary" : ""}`, href: "#/tables", "data-testid": "tile-tables" },
        t("switcher.tile", { count: Math.min(ids.length, MAX_TILES) })) : null,
      h("a", { key: "add", class: "btn btn-small", href: "#/lobby", title: t("switcher.add_title") }, t("switcher.add"))) : null);
  }
}

export class MultiTablePage {
  constructor(root, ctx) {
    this.ctx = ctx;
    this.root = root;
    this.pages = new Map();
    this.focus = null;
    this.grid = document.createElement("div");
    this.grid.className = "tiles";
    this.grid.dataset.testid = "tiles";
    root.replaceChildren(this.grid);
    this.offs = [
      ctx.desk.on("tables", () => this.layout()),
      ctx.desk.on("turn", (id) => this.onTurn(id)),
    ];
    this.layout();
  }

  ids() {
    const desk = this.ctx.desk;
    return [...new Set([...desk.open, ...desk.seatedTables()])].slice(0, MAX_TILES);
  }

  layout() {
    const ids = this.ids();
    this.grid.dataset.count = String(ids.length);
    for (const [id, entry] of this.pages) {
      if (!ids.includes(id)) { if (entry.page) entry.page.destroy(); entry.node.remove(); this.pages.delete(id); }
    }
    for (const id of ids) {
      if (this.pages.has(id)) continue;
      const node = document.createElement("div");
      node.className = "tile";
      node.dataset.table = id;
      node.addEventListener("pointerdown", () => this.setFocus(id));
      this.grid.append(node);
      // registered before the page is built: opening the table announces it ("tables"), which lays out again
      // (after a reload the desk learns the player's tables one by one: each was tiled twice)
      const entry = { node, page: null };
      this.pages.set(id, entry);
      entry.page = new TablePage(node, this.ctx, id, { tile: true });
    }
    if (!ids.length && !this.emptyNote) {
      this.emptyNote = Object.assign(document.createElement("p"), {
        className: "empty-note", textContent: t("switcher.empty"),
      });
      this.grid.append(this.emptyNote);
    } else if (ids.length && this.emptyNote) {
      this.emptyNote.remove();
      this.emptyNote = null;
    }
    if (!this.focus || !this.pages.has(this.focus)) this.setFocus(ids[0] || null);
  }

  setFocus(id) {
    this.focus = id;
    for (const [tid, entry] of this.pages) entry.node.classList.toggle("tile--focus", tid === id);
  }

  /** Your turn at a tiled table: focus it unless the focused tile is waiting for a decision too. */
  onTurn(id) {
    if (!this.pages.has(id)) return;
    if (this.focus && this.focus !== id && this.ctx.desk.turns.has(this.focus)) return;
    this.setFocus(id);
  }

  destroy() {
    for (const off of this.offs) off();
    for (const entry of this.pages.values()) entry.page.destroy();
    this.pages.clear();
  }
}
