// Refusals in plain words. The server answers a refused command with an error code and a message; the player is
// shown a sentence for the code (what went wrong and what to do), never internal ids, rule ids or raw numbers in
// minor units. Unknown codes fall back to the server's message with any rule id removed.

import { formatMoney } from "./util.js";
import { getLocale, hasKey, t } from "./i18n.js";

// The codes of the error registry (errors.py) and the client's own (not_connected, network...) each have a catalog
// entry "error.<code>" (tests/web/test_web_i18n_catalog.py checks every registry code has one in every locale).
// English shows the server's own words for the codes whose message carries the detail (which field, which rule);
// other languages show the catalog's sentence for the code: a refusal is never translated by parsing its text.
const DETAILED = new Set(["invalid", "account_locked", "play_blocked", "deposit_limit", "refused", "bad_state", "bad_request", "alias_refused", "conflict", "bad_option",
  "bad_settings", "not_found", "forbidden", "not_offered", "not_here", "bad_password", "username_taken",
  "account_blocked", "registration_closed", "rebuy_closed", "not_registered", "already_registered", "not_started",
  "not_running", "not_in_hand", "not_at_table", "no_tournament"]);

function codeText(code) {
  return code && hasKey(`error.${code}`) ? t(`error.${code}`) : null;  // i18n-dynamic: error.*
}

/** Remove rule ids ("(R-ALIAS-2)", "R-BUYIN-2:") and internal table ids from a server message. */
export function cleanMessage(message) {
  return String(message || "")
    .replace(/\s*\((?:R-[A-Z0-9-]+(?:,\s*)?)+\)/g, "")
    .replace(/\bR-[A-Z][A-Z0-9-]*\b:?\s*/g, "")
    .replace(/\b[ts]\d+-[a-z0-9]+-[0-9a-f]{6}\b/g, "this table")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/**
 * The sentence to show for a refusal. `err` has `code` and `message` (an error frame, an ApiError, an Error).
 * The server's own message is used when it is already written for players (`plain: true` on the frame).
 */
export function plainError(err) {
  if (!err) return "";
  const code = err.code || "";
  const english = getLocale() === "en";
  if (english && err.plain && err.message) return cleanMessage(err.message);
  if (english && DETAILED.has(code) && err.message) return cleanMessage(err.message);
  const known = codeText(code);
  if (known) return known;
  if (/connection lost|not connected/i.test(err.message || "")) return t("error.not_connected");
  if (!english) return t("error.generic");
  return cleanMessage(err.message || String(err)) || t("error.generic");
}

/** A server notice as shown to the player: the server's message (rule ids removed) starting with a capital letter
 * (the shutdown notice "the server is shutting down" was shown lower-case). */
export function noticeText(frame) {
  if (!frame) return "";
  if (getLocale() !== "en" && frame.code) return codeText(frame.code) || t("error.generic");
  const text = cleanMessage(frame.message || frame.code || "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Your balance: €12.00" helper for dialogs. */
export function balanceText(balance, currency) {
  return balance === undefined || balance === null ? "" : t("money.your_balance", { amount: formatMoney(balance, currency) });
}
