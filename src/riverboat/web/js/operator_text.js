// The operator console's words (issue #32): the server's closed value sets (flag statuses, standings, roles, audit
// actions, patterns, money statuses...) named from the catalog, and refusals shown by their error code. A value the
// catalog does not know (a newer server) is shown as it is, marked translate="no" (it is data, not a sentence).
// tests/web/test_web_i18n_catalog.py checks each family below against the server's own tuple of values.

import { plainError } from "./errors.js";
import { formatAmount, formatDateTime, formatNumber, getLocale, hasKey, intlTag, t } from "./i18n.js";
import { OpError } from "./operator_api.js";

function raw(value) {
  const span = document.createElement("span");
  span.setAttribute("translate", "no");
  span.textContent = String(value ?? "");
  return span;
}

const named = (key, value) => (hasKey(key) ? t(key) : raw(value));

export const flagStatusName = (s) => named(`op.flag_status.${s}`, s);  // i18n-dynamic: op.flag_status.*
export const standingName = (s) => named(`op.standing.${s}`, s);  // i18n-dynamic: op.standing.*
export const roleName = (s) => named(`op.role.${s}`, s);  // i18n-dynamic: op.role.*
export const patternName = (s) => named(`op.pattern.${s}`, s);  // i18n-dynamic: op.pattern.*
export const actionName = (s) => named(`op.action.${s}`, s);  // i18n-dynamic: op.action.*
export const statusName = (s) => named(`op.status.${s}`, s);  // i18n-dynamic: op.status.*
export const categoryName = (s) => named(`op.category.${s}`, s);  // i18n-dynamic: op.category.*
export const changeName = (s) => named(`op.change.${s}`, s);  // i18n-dynamic: op.change.*
export const methodName = (s) => named(`op.method.${s}`, s);  // i18n-dynamic: op.method.*
export const movementName = (s) => named(`movement.${s}`, s);  // i18n-dynamic: movement.*
export const periodName = (s) => named(`cashier.period.${s}`, s);  // i18n-dynamic: cashier.period.*

/** An audit entry's reason (issue #32). One the room wrote carries its code and parameters (``reason_code``,
 * ``reason_args``: store/audit_reasons.py) and is said in the staff member's language; one typed by staff, an entry
 * written before the codes existed or a code this console does not know is shown as written (data). */
export function auditReason(entry) {
  const key = `op.reason.${entry.reason_code}`;  // i18n-dynamic: op.reason.*
  return entry.reason_code && hasKey(key) ? t(key, entry.reason_args || {}) : raw(entry.reason);
}

/** A refusal for staff: English keeps the server's detailed message (which field, which rule); the other
 * languages show the sentence for the error code (errors.js), never a parse of the English text. */
export function consoleError(err) {
  if (!(err instanceof OpError)) return (err && err.message) || t("error.generic");  // the console's own (translated)
  if (getLocale() === "en" && err.message) return err.message;
  return plainError(err);
}

export const when = (iso) => (iso ? formatDateTime(iso) : "");
export const chips = (n) => formatNumber(Number(n || 0));
export const euros = (n) => formatAmount(n, "EUR");  // display only; amounts stay integers of cents
/** An amount of minor units in its currency (PLAY: whole chips), the locale's way. */
export const amountIn = (n, currency) => formatAmount(Number(n || 0), currency || "PLAY");

const decimals = new Map();
/** A score with `digits` decimals, written the locale's way (0,9993 in lv/ru/lt/fi). */
export function score(value, digits) {
  if (!decimals.has(digits)) {
    decimals.set(digits, new Intl.NumberFormat(intlTag(), { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return decimals.get(digits).format(Number(value));
}

/** A value shown as data (ids, usernames, references, free text): never translated, never counted as text. */
export function data(value) { return raw(value); }
