"""Start and stop the real `riverboat serve` N times from outside: SIGTERM or SIGINT, demo bots or --no-demo, with
or without a WebSocket client; time from the first signal to the exit. Usage: stop20.py RIVERBOAT_BIN N"""
import json, os, signal, socket, subprocess, sys, tempfile, time
import httpx
from websockets.sync.client import connect

rb, n = sys.argv[1], int(sys.argv[2])
tmp = tempfile.mkdtemp(prefix="rb-stop-")
results = []
for i in range(n):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    sig = signal.SIGTERM if i % 2 == 0 else signal.SIGINT
    demo = i % 4 != 2
    client = i % 4 == 3
    args = [rb, "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp}/db{i % 3}.sqlite3"]
    if not demo:
        args.append("--no-demo")
    log = open(f"{tmp}/log{i}.txt", "wb")
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    t0 = time.monotonic()
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if p.poll() is not None or time.monotonic() - t0 > 120:
            raise SystemExit(f"start {i} failed: {open(f'{tmp}/log{i}.txt').read()}")
        time.sleep(0.05)
    ready = time.monotonic() - t0
    time.sleep([0.0, 0.5, 2.0, 1.0][i % 4])
    ws = None
    if client:
      try:
        r = httpx.post(f"http://127.0.0.1:{port}/api/register", json={"username": f"stop{i}x{os.getpid()}", "password": "password-123"}, timeout=60)
        tok = httpx.post(f"http://127.0.0.1:{port}/api/login", json={"username": f"stop{i}x{os.getpid()}", "password": "password-123"}, timeout=60).json()["token"]
        ws = connect(f"ws://127.0.0.1:{port}/ws?token={tok}")
        ws.recv(timeout=30)
      except Exception as exc:
        print("client setup failed:", exc, flush=True)
    t1 = time.monotonic()
    p.send_signal(sig)  # noqa
    try:
        code = p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill(); code = "HUNG"
    took = time.monotonic() - t1
    if ws is not None:
        ws.close()
    results.append({"i": i, "signal": sig.name, "demo": demo, "client": client, "ready_s": round(ready, 2),
                    "stop_s": round(took, 2), "exit": code})
    print(json.dumps(results[-1]), flush=True)
stops = [r["stop_s"] for r in results]
print(json.dumps({"runs": n, "max_stop_s": max(stops), "mean_stop_s": round(sum(stops) / n, 2),
                  "over_5s": sum(s > 5 for s in stops), "nonzero_exit": sum(r["exit"] != 0 for r in results)}))
