// Small DOM and formatting helpers shared by every view. No framework: plain ES modules.

/** Create an element: el("button", {class: "x", onclick: fn, dataset: {k: v}}, "text", child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  appendAll(node, children);
  return node;
}

function appendAll(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `node`. */
export function mount(node, ...children) {
  node.replaceChildren();
  appendAll(node, children);
  return node;
}

const CURRENCY_SYMBOLS = { EUR: "€", USD: "$", GBP: "£" };

/**
 * Format an integer amount of minor units. Real-money currencies have 2 decimals (150 -> "€1.50");
 * play money ("PLAY" or unknown) is shown as whole chips with thousands separators.
 * Chips are integers end to end: this is the only place a decimal point appears, and it is built
 * with integer arithmetic, never floats.
 */
export function formatMoney(amount, currency = "PLAY") {
  if (amount === null || amount === undefined || Number.isNaN(Number(amount))) return "";
  const value = BigInt(Math.trunc(Number(amount)));
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const symbol = CURRENCY_SYMBOLS[currency];
  let text;
  if (symbol) {
    const units = abs / 100n;
    const cents = (abs % 100n).toString().padStart(2, "0");
    text = `${symbol}${groupDigits(units.toString())}.${cents}`;
  } else {
    text = groupDigits(abs.toString());
  }
  return negative ? `-${text}` : text;
}

function groupDigits(digits) {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Parse a user-typed amount ("1.50", "€2", "1,000") back to integer minor units, or null if invalid. */
export function parseMoney(text, currency = "PLAY") {
  const cleaned = String(text).replace(/[€$£,\s]/g, "");
  if (CURRENCY_SYMBOLS[currency]) {
    const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(cleaned);
    if (!m) return null;
    return Number(m[1]) * 100 + Number((m[2] || "").padEnd(2, "0"));
  }
  return /^\d+$/.test(cleaned) ? Number(cleaned) : null;
}

/** A server time (ISO 8601, UTC) as local "YYYY-MM-DD HH:MM". */
export function localTime(value) {
  const d = value ? new Date(value) : null;
  if (!d || Number.isNaN(d.getTime())) return value || "";
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function formatSeconds(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s}s`;
}

/** A tiny event emitter used by the connection and the stores. */
export class Emitter {
  constructor() { this.listeners = new Map(); }
  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type).delete(fn);
  }
  emit(type, payload) {
    for (const fn of this.listeners.get(type) || []) fn(payload);
    for (const fn of this.listeners.get("*") || []) fn(type, payload);
  }
}
