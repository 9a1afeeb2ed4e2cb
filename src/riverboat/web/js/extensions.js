// Views added by other parts of Riverboat (tournaments, Twister, the operator console...): one import line each.
// A module registers its pages and lobby tabs when it is imported (views.js: registerView, registerLobbyTab).
// Keep this list in the order the modules should register (a later lobby tab with the same id replaces an earlier).
import "./twister_page.js";
import "./tournament_lobby.js";
import "./tournament_detail.js";
import "./tournament_table.js";
import "./rules_view.js";
import "./account_security.js";
