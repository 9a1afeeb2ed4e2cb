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

import { formatAmount, formatDateTime, separators, t } from "./i18n.js";

const CURRENCY_SYMBOLS = { EUR: "€", USD: "$", GBP: "£" };

/**
 * Format an integer amount of minor units for the player's locale (i18n.js): real-money currencies with 2 decimals
 * (150 EUR -> "€1.50" in English, "1,50 €" in Latvian); play money ("PLAY" or unknown) as whole chips with the
 * locale's grouping. Chips are integers end to end: the decimal string is built with integer arithmetic, never floats.
 */
export function formatMoney(amount, currency = "PLAY") {
  return formatAmount(amount, currency);
}

/**
 * Parse a user-typed amount back to integer minor units, or null if invalid. Accepts the locale's decimal
 * separator ("1,50" in lv/ru/lt/fi, "1.50" in en), a point in every locale, group separators (spaces, and commas in
 * English) and a currency sign.
 */
export function parseMoney(text, currency = "PLAY") {
  const { decimal } = separators();
  let cleaned = String(text).replace(/[€$£\s\u00a0\u202f]/g, "");
  if (decimal === ",") {
    cleaned = cleaned.replace(/\.(?=\d{3}(?:\D|$))/g, "").replace(",", ".");
  } else {
    cleaned = cleaned.replace(/,/g, "");
  }
  if (CURRENCY_SYMBOLS[currency]) {
    const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(cleaned);
    if (!m) return null;
    return Number(m[1]) * 100 + Number((m[2] || "").padEnd(2, "0"));
  }
  return /^\d+$/.test(cleaned) ? Number(cleaned) : null;
}

/** A server time (ISO 8601, UTC) as the locale's short date and time, in the browser's time zone. */
export function localTime(value) {
  return value ? formatDateTime(value) : "";
}

/** Seconds left as "1:05" or "12 s" (the unit from the catalog). */
export function formatSeconds(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : t("time.seconds_short", { n: s });
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
