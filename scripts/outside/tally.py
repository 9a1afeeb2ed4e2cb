import collections, json, sys
by = collections.defaultdict(lambda: [0, 0])
bad = []
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith("{"):
        continue
    r = json.loads(line)
    v = r.get("variant") or "?"
    by[v][0] += 1
    by[v][1] += bool(r.get("match"))
    if not r.get("match"):
        bad.append((r.get("file"), r.get("error"), r.get("finishing_stacks"), r.get("expected")))
tot = sum(a for a, _ in by.values()); ok = sum(b for _, b in by.values())
print(json.dumps({"total": tot, "match": ok, "by_variant": {k: f"{b}/{a}" for k, (a, b) in sorted(by.items())}}))
for b in bad[:20]:
    print("MISMATCH", b)
