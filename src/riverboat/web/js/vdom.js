// A very small virtual DOM: views describe what the page should look like with h(), and patch() changes only the
// DOM nodes, attributes and texts that differ from what is already on screen. This is how the table renders only
// what changed (a new bet touches one chip and one stack, not the whole felt), keeps buttons under the pointer,
// and leaves a <details> the player opened alone.
//
//   h("div", {class: "seat", "data-seat": 3, onclick: fn, style: {left: "40%"}}, "text", h("span", {}, ...))
//   h("svg:svg", {viewBox: "0 0 60 84"}, h("svg:rect", {...}))       SVG elements take the "svg:" prefix
//   key: {key: "seat-3"} keeps a child's node when its siblings come and go
//   props: "value", "checked", "disabled", "selected" are set as DOM properties; on* are listeners (swapped
//   without touching the DOM); "ref" is called with the node once it exists.
//
// patch(container, children) reconciles the container's children with the given list.

const SVG_NS = "http://www.w3.org/2000/svg";
const PROPS = new Set(["value", "checked", "disabled", "selected", "indeterminate"]);

export function h(tag, props, ...children) {
  const p = props || {};
  return { tag, props: p, key: p.key ?? null, children: flatten(children) };
}

function flatten(children, out = []) {
  for (const c of children) {
    if (c === null || c === undefined || c === false || c === true) continue;
    if (Array.isArray(c)) flatten(c, out);
    else out.push(typeof c === "object" ? c : String(c));
  }
  return out;
}

const isText = (v) => typeof v === "string";

function create(vnode) {
  if (isText(vnode)) return document.createTextNode(vnode);
  let node;
  if (vnode.tag.startsWith("svg:")) node = document.createElementNS(SVG_NS, vnode.tag.slice(4));
  else node = document.createElement(vnode.tag);
  node.__v = { tag: vnode.tag, props: {}, key: vnode.key };
  setProps(node, {}, vnode.props);
  patchChildren(node, vnode.children);
  if (typeof vnode.props.ref === "function") vnode.props.ref(node);
  return node;
}

function cssName(key) {
  return key.startsWith("--") ? key : key.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`);
}

// Styles go through the CSSOM (node.style), never a `style` attribute: the room's Content-Security-Policy
// (style-src 'self', issue #35) refuses inline style attributes but does not govern the CSSOM.
function applyStyle(node, before, after) {
  const prev = before && typeof before === "object" ? before : {};
  const next = after && typeof after === "object" ? after : {};
  for (const key of Object.keys(prev)) {
    if (next[key] === null || next[key] === undefined || next[key] === "") node.style.removeProperty(cssName(key));
  }
  for (const [key, value] of Object.entries(next)) {
    if (value === null || value === undefined || value === "") continue;
    const text = String(value);
    // compared with the previous render's value, not the node's: a place the page adjusted after drawing (the dealer
    // button moved off a card, dealer_place.js) stays until the render itself changes it
    if (prev[key] === undefined || prev[key] === null || String(prev[key]) !== text) node.style.setProperty(cssName(key), text);
  }
}

function listener(ev) {
  const fn = this.__on && this.__on[ev.type];
  if (fn) fn(ev);
}

function setProps(node, old, props) {
  for (const name of Object.keys(old)) {
    if (name in props || name === "key" || name === "ref") continue;
    if (name.startsWith("on")) { if (node.__on) delete node.__on[name.slice(2)]; continue; }
    if (name === "style") { applyStyle(node, old.style, null); continue; }
    if (PROPS.has(name)) { node[name] = name === "value" ? "" : false; continue; }
    node.removeAttribute(name === "class" && node.namespaceURI === SVG_NS ? "class" : name);
  }
  for (const [name, value] of Object.entries(props)) {
    if (name === "key" || name === "ref") continue;
    if (name.startsWith("on")) {
      const type = name.slice(2);
      if (!node.__on) node.__on = {};
      if (!(type in node.__on)) node.addEventListener(type, listener);
      node.__on[type] = value;
      continue;
    }
    if (PROPS.has(name)) {
      const v = name === "value" ? String(value ?? "") : Boolean(value);
      if (node[name] !== v) node[name] = v;
      continue;
    }
    if (name === "style") { applyStyle(node, old.style, value); continue; }
    const text = value === null || value === undefined || value === false ? null : value === true ? "" : String(value);
    if (text === null) {
      if (node.hasAttribute(name)) node.removeAttribute(name);
    } else if (node.getAttribute(name) !== text) {
      node.setAttribute(name, text);
    }
  }
  node.__v.props = props;
}

function sameKind(node, vnode) {
  if (isText(vnode)) return node.nodeType === 3;
  return node.nodeType === 1 && node.__v && node.__v.tag === vnode.tag && node.__v.key === vnode.key;
}

function update(node, vnode) {
  if (isText(vnode)) {
    if (node.data !== vnode) node.data = vnode;
    return;
  }
  setProps(node, node.__v.props, vnode.props);
  patchChildren(node, vnode.children);
}

/** Make `parent`'s children match `children` (vnodes or strings), reusing every node that can be kept. */
export function patchChildren(parent, children) {
  const list = flatten([children]);
  const existing = [...parent.childNodes].filter((n) => n.nodeType === 3 || (n.nodeType === 1 && n.__v));
  // Nodes the vdom did not create (e.g. a dialog appended by other code) are left where they are.
  const keyed = new Map();
  for (const n of existing) if (n.nodeType === 1 && n.__v.key !== null) keyed.set(n.__v.key, n);
  const used = new Set();
  let cursor = 0;
  const result = [];
  for (const vnode of list) {
    let node = null;
    if (!isText(vnode) && vnode.key !== null) {
      const candidate = keyed.get(vnode.key);
      if (candidate && !used.has(candidate) && sameKind(candidate, vnode)) node = candidate;
    } else {
      while (cursor < existing.length && (used.has(existing[cursor])
        || (existing[cursor].nodeType === 1 && existing[cursor].__v.key !== null))) cursor += 1;
      const candidate = existing[cursor];
      if (candidate && sameKind(candidate, vnode)) { node = candidate; cursor += 1; }
    }
    if (node) update(node, vnode);
    else node = create(vnode);
    used.add(node);
    result.push(node);
  }
  for (const n of existing) if (!used.has(n)) n.remove();
  // Put the nodes in order, moving only those that are out of place.
  let ref = null;
  for (let i = result.length - 1; i >= 0; i -= 1) {
    const node = result[i];
    const wanted = ref;
    if (node.parentNode !== parent || node.nextSibling !== wanted) parent.insertBefore(node, wanted);
    ref = node;
  }
}

/** Render `children` into `container` (the container's own attributes are not touched). */
export function patch(container, ...children) {
  patchChildren(container, children);
  return container;
}

/** A real DOM node from a vnode (for code that appends nodes itself). */
export function toNode(vnode) {
  return create(vnode);
}
