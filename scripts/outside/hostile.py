"""The hostile inputs of issue #16 against a running `riverboat serve` (black box), plus the money-frame id check
and logout. Usage: hostile.py RIVERBOAT_BIN"""
import json, signal, socket, subprocess, sys, tempfile, time, uuid
import httpx
from websockets.sync.client import connect

rb = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="rb-hostile-")
with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
p = subprocess.Popen([rb, "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp}/db.sqlite3", "--no-bots",
                      "--login-rate", "1000", "--frame-rate", "1000"], stdout=open(f"{tmp}/log.txt", "wb"),
                     stderr=subprocess.STDOUT)
base = f"http://127.0.0.1:{port}"
for _ in range(2400):
    try:
        if httpx.get(base + "/health", timeout=1).status_code == 200:
            break
    except httpx.HTTPError:
        time.sleep(0.05)
out = {}
http = httpx.Client(base_url=base, timeout=10)
name = "h" + uuid.uuid4().hex[:8]
assert http.post("/api/register", json={"username": name, "password": "password-123"}).status_code in (200, 201)
tok = http.post("/api/login", json={"username": name, "password": "password-123"}).json()["token"]
H = {"Authorization": f"Bearer {tok}"}

def answer(ws):
    while True:
        f = json.loads(ws.recv(timeout=10))
        if f.get("type") in ("error", "pong", "ack"):
            return f

with connect(f"ws://127.0.0.1:{port}/ws?token={tok}", max_size=2**22) as ws:
    ws.recv(timeout=10)
    for label, raw in [("brackets_8000", "[" * 8000 + "]" * 8000),
                       ("ping_1200_deep", '{"v":1,"type":"ping","id":"d","x":' + "[" * 1200 + "]" * 1200 + "}"),
                       ("lone_surrogate_id", '{"v":1,"type":"ping","id":"\\ud800"}')]:
        ws.send(raw)
        a = answer(ws)
        ws.send('{"v":1,"type":"ping","id":"after"}')
        alive = answer(ws) == {"v": 1, "type": "pong", "ref": "after"}
        out[label] = {"reply": f"{a['type']}:{a.get('code')}", "connection_kept": alive}
deep = "[" * 2500 + "]" * 2500
for label, method, path in [("register", "POST", "/api/register"), ("login", "POST", "/api/login"),
                            ("alias", "PUT", "/api/alias")]:
    r = http.request(method, path, content=deep, headers={**H, "Content-Type": "application/json"})
    again = http.get("/health")
    out[f"rest_deep_{label}"] = {"status": r.status_code, "json": r.headers.get("content-type", "").startswith("application/json"),
                                 "code": (r.json().get("error") or {}).get("code") if r.headers.get("content-type", "").startswith("application/json") else None,
                                 "keepalive_next_ok": again.status_code == 200}
for v in ("9223372036854775808", str(10**30)):
    r = http.get(f"/api/cashier?before={v}", headers=H)
    out[f"cashier_before_{len(v)}digits"] = r.status_code
lobby = http.get("/api/lobby").json()
play = next(t for t in lobby["tables"] if t.get("currency") == "PLAY" and t.get("structure") == "NL")
with connect(f"ws://127.0.0.1:{port}/ws?token={tok}") as ws:
    ws.recv(timeout=10)
    def send(f):
        ws.send(json.dumps({"v": 1, **f}))
        while True:
            a = json.loads(ws.recv(timeout=20))
            if a.get("ref") == f.get("id") and a.get("type") in ("ack", "error"):
                return a
    free = next(s for s in range(play["max_seats"]) if True)
    sat = send({"type": "sit", "id": "s1", "table": play["id"], "seat": 0, "buy_in": play["min_buy_in"], "wait_for_bb": True})
    before = http.get("/api/me", headers=H).json()["balances"]["PLAY"]
    a1 = send({"type": "top_up", "id": "t1", "table": play["id"], "amount": 100})
    a2 = send({"type": "top_up", "id": "t1", "table": play["id"], "amount": 100})
    mid = http.get("/api/me", headers=H).json()["balances"]["PLAY"]
    a3 = send({"type": "top_up", "id": "t1", "table": play["id"], "amount": 50})
    a4 = send({"type": "top_up", "id": "t2", "table": play["id"], "amount": 100})
    after = http.get("/api/me", headers=H).json()["balances"]["PLAY"]
    out["top_up_same_id"] = {"sit": sat["type"], "first": a1["type"], "same_reply": a1 == a2, "moved_once": before - mid == 100,
                             "other_content": f"{a3['type']}:{a3.get('code')}", "new_id_moves": mid - after == 100}
    http.post("/api/logout", headers=H)
    try:
        ws.send(json.dumps({"v": 1, "type": "ping", "id": "x"}))
        f = json.loads(ws.recv(timeout=10))
        out["logout_closes_ws"] = f.get("type") == "notice" or False
        ws.recv(timeout=10)
        out["logout_closes_ws"] = False
    except Exception as exc:
        out["logout_closes_ws"] = type(exc).__name__
p.send_signal(signal.SIGTERM)
out["exit"] = p.wait(30)
print(json.dumps(out, indent=1))
