// The client's languages (issue #32): every visible string comes from a catalog per locale (web/locales/<xx>.json),
// looked up with t("key", {params}). Plurals follow the language's CLDR rules through Intl.PluralRules (a plural
// entry is an object {one, few, many, other, zero...} chosen by params.count); numbers, money and dates are
// formatted with Intl for the locale (1 234,56 € in lv/lt/fi).
//
// The locale: ?lang=xx in the URL first (it also sets <html lang>), then the choice remembered on this device
// (localStorage "rb.lang"), then the browser's languages, then English. A logged-in player's choice is also kept
// on the account (GET/PUT /api/locale): app.js applies it after login. The pseudo-locale "qps" (?lang=qps) shows
// the English text wrapped in ⟦…⟧, so a test can find any text that does not come from the catalog.
//
// This module loads its catalogs with a top-level await: every module that imports t() runs after the catalog is
// in, so even module-level constants may call t(). Catalogs are fetched as JSON (no inline script: CSP-friendly).

export const LOCALES = ["en", "lv", "ru", "lt", "fi"];
export const PSEUDO = "qps";
const STORE_KEY = "rb.lang";

function storedLocale() {
  try { return localStorage.getItem(STORE_KEY); } catch { return null; }
}

function urlLocale() {
  try { return new URLSearchParams(location.search).get("lang"); } catch { return null; }
}

/** The locale to use, from a requested tag ("ru-RU" -> "ru"), or null if none of ours. */
export function matchLocale(tag) {
  if (!tag) return null;
  const lower = String(tag).toLowerCase();
  if (lower === PSEUDO) return PSEUDO;
  const base = lower.split(/[-_]/)[0];
  return LOCALES.includes(base) ? base : null;
}

function chooseLocale() {
  const fromUrl = matchLocale(urlLocale());
  if (fromUrl) return { locale: fromUrl, forced: true };
  const stored = matchLocale(storedLocale());
  if (stored) return { locale: stored, forced: false };
  for (const tag of (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language])) {
    const found = matchLocale(tag);
    if (found) return { locale: found, forced: false };
  }
  return { locale: "en", forced: false };
}

/** The folder of the catalogs, next to js/ (works for the app, the operator console and the test harness). */
const LOCALES_URL = new URL("../locales/", import.meta.url);

async function loadCatalog(locale) {
  try {
    const response = await fetch(new URL(`${locale}.json`, LOCALES_URL));
    if (!response.ok) return {};
    return await response.json();
  } catch {
    return {};
  }
}

const choice = chooseLocale();
let current = choice.locale;
const english = await loadCatalog("en");
const catalog = current === "en" || current === PSEUDO ? english : await loadCatalog(current);
// English is written the European way (the rooms are European): dates day/month/year, 24-hour clock.
const intlLocale = current === PSEUDO || current === "en" ? "en-GB" : current;
const plurals = new Intl.PluralRules(intlLocale);

try { document.documentElement.lang = current === PSEUDO ? "en" : current; } catch { /* no document (worker) */ }
try { document.documentElement.dataset.locale = current; } catch { /* idem */ }

/** The locale in use ("en", "lv", "ru", "lt", "fi" or "qps"). */
export function getLocale() { return current; }

/** True when the locale came from ?lang= in the URL (it then wins over the account's choice). */
export function localeForcedByUrl() { return choice.forced; }

/** The locale for Intl (the pseudo-locale formats as English). */
export function intlTag() { return intlLocale; }

// A number placeholder gets the locale's grouping (issue #31 item 9: "9,000 hands", not "9000"); text (ids, amounts
// already formatted) goes in as it is.
function placeholder(value) {
  return typeof value === "number" && Number.isInteger(value) && Math.abs(value) >= 1000
    ? new Intl.NumberFormat(intlLocale).format(value) : String(value);
}

function interpolate(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && params[name] !== undefined && params[name] !== null
    ? placeholder(params[name]) : whole));
}

function pick(entry, params) {
  if (typeof entry === "string") return entry;
  if (!entry || typeof entry !== "object") return null;
  const count = Number(params && params.count);
  const category = Number.isFinite(count) ? plurals.select(count) : "other";
  return entry[category] ?? entry.other ?? null;
}

/**
 * The text of `key` in the current locale, `{name}` placeholders filled from `params`; a plural entry is chosen by
 * `params.count`. A key missing in the locale falls back to English, then to the key itself (so it shows).
 */
export function t(key, params = {}) {
  let text = pick(catalog[key], params);
  if (text === null) text = pick(english[key], params);
  if (text === null) text = key;
  const out = interpolate(text, params);
  return current === PSEUDO ? `⟦${out}⟧` : out;
}

/** True if the catalog (or English) has `key`: for texts chosen by a server code with a fallback. */
export function hasKey(key) {
  return Object.prototype.hasOwnProperty.call(catalog, key) || Object.prototype.hasOwnProperty.call(english, key);
}

// ---- numbers, money, dates -------------------------------------------------------------------------------

const numberFormat = new Intl.NumberFormat(intlLocale);
const MONEY_DIGITS = { EUR: 2, USD: 2, GBP: 2 };

/** An integer (or BigInt) with the locale's grouping: 12 345 in lv, 12,345 in en. */
export function formatNumber(value) {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "bigint") return numberFormat.format(value);
  const n = Number(value);
  return Number.isFinite(n) ? numberFormat.format(n) : String(value);
}

const moneyFormats = new Map();
function moneyFormat(currency) {
  if (!moneyFormats.has(currency)) {
    moneyFormats.set(currency, new Intl.NumberFormat(intlLocale, {
      style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2,
    }));
  }
  return moneyFormats.get(currency);
}

/**
 * An amount of integer minor units as money for the locale: 123456 EUR -> "€1,234.56" (en), "1 234,56 €" (lv).
 * Play money (any currency without minor units) is whole chips with grouping. No float ever carries the amount:
 * Intl formats the exact decimal string built here with integer arithmetic.
 */
export function formatAmount(amount, currency = "PLAY") {
  if (amount === null || amount === undefined || amount === "" || Number.isNaN(Number(amount))) return "";
  const value = typeof amount === "bigint" ? amount : BigInt(Math.trunc(Number(amount)));
  const digits = MONEY_DIGITS[currency];
  if (!digits) return numberFormat.format(value);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(digits);
  const text = `${negative ? "-" : ""}${abs / scale}.${(abs % scale).toString().padStart(digits, "0")}`;
  return moneyFormat(currency).format(text);
}

/** The locale's decimal and group separators (for parsing what a player types). */
export function separators() {
  const parts = new Intl.NumberFormat(intlLocale).formatToParts(12345.6);
  return {
    decimal: (parts.find((p) => p.type === "decimal") || { value: "." }).value,
    group: (parts.find((p) => p.type === "group") || { value: "," }).value,
  };
}

const dateTimeFormat = new Intl.DateTimeFormat(intlLocale, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
const dateFormat = new Intl.DateTimeFormat(intlLocale, { dateStyle: "medium" });
const timeFormat = new Intl.DateTimeFormat(intlLocale, { timeStyle: "short" });

function asDate(value) {
  const d = value instanceof Date ? value : value !== null && value !== undefined && value !== "" ? new Date(value) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

/** A server time (ISO 8601, or epoch ms) as the locale's short date and time, in the browser's time zone. */
export function formatDateTime(value) {
  const d = asDate(value);
  return d ? dateTimeFormat.format(d) : String(value ?? "");
}

export function formatDate(value) {
  const d = asDate(value);
  return d ? dateFormat.format(d) : String(value ?? "");
}

export function formatTime(value) {
  const d = asDate(value);
  return d ? timeFormat.format(d) : String(value ?? "");
}

/** A list joined the locale's way ("a, b and c" / "a, b и c"). */
export function formatList(items) {
  return new Intl.ListFormat(intlLocale, { style: "long", type: "conjunction" }).format(items.map(String));
}

// ---- choosing the language -------------------------------------------------------------------------------

/** The name of each language in itself (the selector's options). */
export const AUTONYMS = { en: "English", lv: "Latviešu", ru: "Русский", lt: "Lietuvių", fi: "Suomi" };

/**
 * Switch to `locale`: remembered on this device, ?lang= dropped from the URL, and the page reloaded so that every
 * view is drawn in the new language. `persist` (optional) is awaited first (the account's PUT /api/locale).
 */
export async function setLocale(locale, persist = null) {
  const chosen = matchLocale(locale);
  if (!chosen) return;
  try { localStorage.setItem(STORE_KEY, chosen); } catch { /* storage blocked: this page only */ }
  if (persist) {
    try { await persist(chosen); } catch { /* the device keeps the choice even if the account cannot */ }
  }
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  if (url.href !== location.href) location.replace(url.href);
  else location.reload();
}

/** The language selector for the top bar: a <select> of the five languages in their own names. */
export function languageSelect(onChange) {
  const select = document.createElement("select");
  select.className = "lang-select";
  select.dataset.testid = "lang-select";
  select.setAttribute("aria-label", t("topbar.language"));
  select.title = t("topbar.language");
  for (const code of LOCALES) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = AUTONYMS[code];
    option.setAttribute("translate", "no");
    if (code === current) option.selected = true;
    select.append(option);
  }
  if (current === PSEUDO) {
    const option = document.createElement("option");
    option.value = PSEUDO;
    option.textContent = "⟦qps⟧";
    option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => onChange(select.value));
  return select;
}

/**
 * Translate the static markup of a page: elements with data-i18n="key" get the text, data-i18n-title,
 * data-i18n-aria-label and data-i18n-placeholder the attribute. Also sets the document title from
 * <html data-i18n-title-key>.
 */
export function translateStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const [attr, data] of [["title", "i18nTitle"], ["aria-label", "i18nAriaLabel"], ["placeholder", "i18nPlaceholder"]]) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const node of root.querySelectorAll(selector)) node.setAttribute(attr, t(node.dataset[data]));
  }
  const titleKey = document.documentElement.dataset.titleKey;
  if (titleKey) document.title = t(titleKey);
}

const ordinals = new Intl.PluralRules("en", { type: "ordinal" });
const EN_ORDINAL = { one: "st", two: "nd", few: "rd", other: "th" };

/** A place as an ordinal: 1st/2nd/3rd (en), 1. (lv, fi), 1-е (ru, a place: место), 1 (lt: "1 vieta"). */
export function formatOrdinal(n) {
  const value = Number(n);
  if (current === "ru") return `${value}-е`;
  if (current === "lv" || current === "fi") return `${value}.`;
  if (current === "lt") return `${value}`;
  const out = `${value}${EN_ORDINAL[ordinals.select(value)]}`;
  return current === PSEUDO ? `⟦${out}⟧` : out;
}
