// Refusals in plain words. The server answers a refused command with an error code and a message; the player is
// shown a sentence for the code (what went wrong and what to do), never internal ids, rule ids or raw numbers in
// minor units. Unknown codes fall back to the server's message with any rule id removed.

import { formatMoney } from "./util.js";

const TEXT = {
  insufficient_funds: "Your balance does not cover this amount. Choose a smaller amount or add money in the cashier.",
  buy_in_range: "That amount is outside the table's buy-in range.",
  seat_taken: "Someone has just taken that seat. Choose another one.",
  bad_seat: "That seat does not exist at this table.",
  already_seated: "You already have a seat at this table.",
  not_seated: "You are not seated at this table.",
  not_your_turn: "It is not your turn.",
  illegal_action: "That action is not possible now.",
  bad_amount: "That amount is not possible here.",
  hand_in_progress: "Wait for the end of the hand.",
  table_closed: "This table has closed.",
  no_table: "This table does not exist any more.",
  no_pool: "This Speed Poker pool does not exist any more.",
  rate_limited: "You are sending too fast. Wait a moment and try again.",
  chat_rate_limited: "You are chatting too fast. Wait a few seconds.",
  chat_refused: "That message cannot be sent.",
  too_many_watched: "You are watching too many tables. Close one first.",
  unauthenticated: "Please log in again.",
  bad_token: "Your session has ended. Please log in again.",
  shutting_down: "The server is restarting. Try again in a minute.",
  internal: "Something went wrong on our side. Try again.",
  not_connected: "You are offline. Reconnecting…",
};

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
  if (err.plain && err.message) return cleanMessage(err.message);
  if (TEXT[code]) return TEXT[code];
  if (/connection lost|not connected/i.test(err.message || "")) return TEXT.not_connected;
  return cleanMessage(err.message || String(err)) || "That did not work. Try again.";
}

/** A server notice as shown to the player: the server's message (rule ids removed) starting with a capital letter
 * (the shutdown notice "the server is shutting down" was shown lower-case). */
export function noticeText(frame) {
  if (!frame) return "";
  const text = cleanMessage(frame.message || frame.code || "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Your balance: €12.00" helper for dialogs. */
export function balanceText(balance, currency) {
  return balance === undefined || balance === null ? "" : `Your balance: ${formatMoney(balance, currency)}`;
}
