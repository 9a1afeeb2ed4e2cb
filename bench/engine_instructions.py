"""CPU instructions per pass of ``bench/engine.py``'s hands, under valgrind's callgrind: a figure the machine's load
does not move (issue #33), for an engine change measured on a shared machine. The wall-clock ratio against PokerKit
stays ``bench/engine.py``'s job; this companion counts Riverboat's own work only.

    .venv/bin/python bench/engine_instructions.py --games F2L3D,NT,F7S     # ~1 min per game

The hands are ``bench/engine.py``'s (seed 1, the PokerKit-checked scripts), pickled once; each game is run under
callgrind for one and for three passes of ``Hand(config)`` then ``legal_actions()`` + ``act()`` per recorded action
(a fresh reshuffle source per hand, as the bench does), and instructions per pass = (three - one) / 2, so start-up
and imports cancel out. Ends with one line of JSON.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def child(path: str, passes: int) -> None:
    from riverboat.engine.hand import Hand

    data = pickle.loads(Path(path).read_bytes())
    for _ in range(passes):
        for config, code, seed, actions in data:
            hand = Hand(dataclasses.replace(config, shuffle=random.Random(f"reshuffle:{code}:{seed}").shuffle))
            for action in actions:
                hand.legal_actions()
                hand.act(action)
            if not hand.is_over:
                raise AssertionError("a script did not finish its hand")


def instructions(path: Path, passes: int) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
         "--child", str(path), "--passes", str(passes)],
        capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count: {out.stderr[-500:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="F2L3D,NT,F7S", help="PHH variant codes of bench/engine.py's games")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--passes", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.passes)
        return {}
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (apt-get install valgrind)")
    sys.path.insert(0, str(Path(__file__).parent))
    import engine as bench_engine  # bench/engine.py: the same hands

    report: dict[str, object] = {"bench": "engine_instructions", "hands": args.hands, "seed": 1}
    with tempfile.TemporaryDirectory() as tmp:
        for code in args.games.split(","):
            scripts, _ = bench_engine.make_scripts(code, args.hands, 1)
            path = Path(tmp) / f"{code.replace('/', '_')}.pkl"
            path.write_bytes(pickle.dumps(
                [(dataclasses.replace(s.config, shuffle=None), s.code, s.seed, s.engine_actions) for s in scripts]))
            one, three = instructions(path, 1), instructions(path, 3)
            per_pass = (three - one) // 2
            print(f"{code}: {per_pass:,} instructions per pass of {args.hands} hands "
                  f"({per_pass // args.hands:,} a hand)", flush=True)
            report[code] = {"instructions_per_pass": per_pass, "instructions_per_hand": per_pass // args.hands}
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
