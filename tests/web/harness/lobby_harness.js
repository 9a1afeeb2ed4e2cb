// Lobby harness: the real lobby view fed from fixtures/lobby.json through a stubbed fetch (no server), so the
// tabs that have no server data yet (Sit & Go, tournaments, Twister) can be rendered and tested.
// ?fixture=lobby_cash_only: what today's server sends (tables and pools only, no tournaments).
const fixtureName = new URLSearchParams(location.search).get("fixture") || "lobby";
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
await renderLobby(document.getElementById("app"), { navigate: (hash) => window.__navigated.push(hash) });
document.body.dataset.ready = "1";
