"""Fresh random PokerKit hands written as PHH by PokerKit (riverboat.verify.pokerkit_records.pokerkit_record),
one file per hand, plus the issue's merged-pot FO/8 hand verbatim. Usage: phh_gen.py OUTDIR BASE_SEED"""
import sys
from pathlib import Path

from riverboat.verify.pokerkit_records import pokerkit_record
from riverboat.verify.setups import VARIANTS

out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
base = int(sys.argv[2])
n = 0
for code in VARIANTS:
    for i in range(90):
        text, players, _ = pokerkit_record(code, base + i)
        (out / f"{code.replace('/', '_')}-{base + i}-{players}p.phh").write_text(text)
        n += 1
for i in range(100):  # FO/8 with 9 players (the table limit is 8, R-OMAHA-HL; a record may have 9)
    text, players, _ = pokerkit_record("FO/8", base + 10_000 + i, players=9)
    assert players == 9
    (out / f"FO_8-9p-{base + 10_000 + i}.phh").write_text(text)
    n += 1
(out / "issue16-merged-pots.phh").write_text("""variant = 'FO/8'
antes = [0, 0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0, 0, 0]
small_bet = 2
big_bet = 4
starting_stacks = [41, 123, 63, 9, 188, 142, 40]
actions = ['d dh p1 5hJdTd7s', 'd dh p2 9d7cQd5s', 'd dh p3 4c3s6cJc', 'd dh p4 7h5c5d2s', 'd dh p5 3h2h4sTs', 'd dh p6 8sThJsAd', 'd dh p7 9s6s8c7d', 'p3 cc', 'p4 cc', 'p5 cbr 4', 'p6 cc', 'p7 cc', 'p1 f', 'p2 cc', 'p3 cc', 'p4 cc', 'd db Kc6h6d', 'p2 cbr 2', 'p3 cc', 'p4 cc', 'p5 cc', 'p6 cc', 'p7 cc', 'd db 8h', 'p2 cbr 4', 'p3 cc', 'p4 cc', 'p5 cc', 'p6 cc', 'p7 cc', 'd db 4h', 'p2 cc', 'p3 cbr 4', 'p5 cc', 'p6 cbr 8', 'p7 cc', 'p2 cc', 'p3 cc', 'p5 cc', 'p6 sm 8sThJsAd', 'p7 sm 9s6s8c7d', 'p2 sm 9d7cQd5s', 'p3 sm 4c3s6cJc', 'p4 sm 7h5c5d2s', 'p5 sm 3h2h4sTs']
finishing_stacks = [40, 105, 45, 0, 220, 124, 72]
""")
print(n + 1, "records written to", out)
