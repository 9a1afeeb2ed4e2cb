// Lobby harness: the real lobby view fed from fixtures/lobby.json through a stubbed fetch (no server), so the
// tabs that have no server data yet (Sit & Go, tournaments, Twister) can be rendered and tested.
// ?fixture=lobby_cash_only: what today's server sends (tables and pools only, no tournaments).
// ?player=<id>: a logged-in player (the rows get their Register buttons; frames go to a stub connection).
const params = new URLSearchParams(location.search);
const fixtureName = params.get("fixture") || "lobby";
const player = params.get("player");
const fixture = await (await fetch(`/harness/fixtures/${fixtureName}.json`)).json();
const realFetch = window.fetch.bind(window);
window.fetch = async (url, init) => {
  if (String(url).startsWith("/api/lobby")) {
    return new Response(JSON.stringify(fixture), { status: 200, headers: { "Content-Type": "application/json" } });
  }
  return realFetch(url, init);
};
window.__navigated = [];
const { renderLobby } = await import("/js/lobby_view.js");
const ctx = { navigate: (hash) => window.__navigated.push(hash) };
if (player) {
  await import("/js/tournament_lobby.js");  // the Sit & Go and Tournaments tabs as app.js has them (Register...)
  Object.assign(ctx, {
    session: { loggedIn: true, me: { player_id: Number(player) } },
    connection: { on: () => () => {}, send: async () => ({ type: "ack" }) },
    toast: () => {},
  });
}
await renderLobby(document.getElementById("app"), ctx);
document.body.dataset.ready = "1";
