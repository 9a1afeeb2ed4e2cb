"""Interrupted tournaments (R-TOURN-INT-1..11): one worked example per case INT-2..10, every figure computed by
hand in the docstring from the rule text, plus the pool-conservation identity in each case and the CLI form.

Amounts are cents. Conservation checked everywhere: sum(payouts) == from_pool + from_house, and from_pool never
exceeds what is left in the pool (prize_pool - paid_so_far)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from riverboat.cli import app
from riverboat.room.tournament.compensation import CompensationError, CompensationInput, compensate


def run(data: dict[str, Any]) -> dict[str, Any]:
    result = compensate(CompensationInput.from_dict(data))
    out = result.to_dict()
    assert sum(out["payouts"].values()) == out["from_pool"] + out["from_house"]
    assert 0 <= out["from_pool"] <= data["prize_pool"] - data.get("paid_so_far", 0)
    return out


def players(*chips: int, **kw: Any) -> list[dict[str, Any]]:
    return [{"player": "ABCDE"[i], "chips": c, **kw} for i, c in enumerate(chips)]


def test_r_tourn_int_2_heads_up_both_get_buy_in_and_fee_back() -> None:
    """INT-2: EUR 10 + EUR 0.50 heads-up. Each gets 1000 + 50 = 1050; the pool (2 x 1000) is emptied, the house
    pays back the two fees (100)."""
    out = run({"kind": "heads_up", "buy_in": 1000, "fee": 50, "prize_pool": 2000,
               "remaining": players(1800, 1200)})
    assert out == {"payouts": {"A": 1050, "B": 1050}, "from_pool": 2000, "from_house": 100}


def test_r_tourn_int_3_sng_rules_illustration() -> None:
    """INT-3, the illustration of RULES.md: 6-player SNG at EUR 10 + EUR 1, 2 players out. Each of the 4 gets
    EUR 11 + EUR 20 / 4 = EUR 16 = 1600. Pool 6000: 4 x 1000 refunds + 2000 shared; the house pays 4 x 100."""
    out = run({"kind": "sng", "buy_in": 1000, "fee": 100, "prize_pool": 6000, "eliminated_buy_ins": 2000,
               "remaining": players(4000, 2500, 1500, 1000)})
    assert out == {"payouts": {"A": 1600, "B": 1600, "C": 1600, "D": 1600}, "from_pool": 6000, "from_house": 400}


def test_r_tourn_int_3_sng_after_a_paid_place_shares_only_what_was_not_paid() -> None:
    """INT-3 reading: 9-player SNG 10 + 1 paying 50/30/20; 7 out, 3rd already paid 20% of 9000 = 1800. The
    eliminated buy-ins (7000) less what was paid (1800) = 5200 are shared: 2600 each. Each: 1100 + 2600 = 3700.
    From the pool 2 x 1000 + 5200 = 7200 = 9000 - 1800 (the pool is emptied), house 2 x 100."""
    out = run({"kind": "sng", "buy_in": 1000, "fee": 100, "prize_pool": 9000, "eliminated_buy_ins": 7000,
               "paid_so_far": 1800, "payouts": [4500, 2700, 1800], "remaining": players(9000, 4500)})
    assert out == {"payouts": {"A": 3700, "B": 3700}, "from_pool": 7200, "from_house": 200}


def test_r_tourn_int_11e_equal_share_remainder_goes_to_the_largest_stack() -> None:
    """INT-11(e): 3 remaining share 2000: 666 each, 2 cents left over -> the largest stack (B, 5000 chips).
    A: 1100 + 666 = 1766, B: 1100 + 668 = 1768, C: 1766."""
    out = run({"kind": "sng", "buy_in": 1000, "fee": 100, "prize_pool": 5000, "eliminated_buy_ins": 2000,
               "remaining": players(3000, 5000, 1000)})
    assert out["payouts"] == {"A": 1766, "B": 1768, "C": 1766}


def test_r_tourn_int_4_guaranteed_mtt_before_the_money_after_the_rebuy_period() -> None:
    """INT-4 + INT-11(a)(c): 20 entrants at 10 + 1 (collected 20000), guarantee 30000, re-buy period over ->
    pool = max(30000, 20000) = 30000; 3 places paid, 4 players left (not in the money). Chips 40k/30k/20k/10k.
    Refunds 4 x 1000 from the pool; rest 26000: 13000 equal (3250 each) + 13000 by chips (5200, 3900, 2600, 1300).
    A = 1000 + 100 + 3250 + 5200 = 9550, B = 1100 + 3250 + 3900 = 8250, C = 6950, D = 5650.
    House: 4 fees (400) + overlay 10000 = 10400; pool: 20000 (all of it)."""
    out = run({"kind": "mtt", "buy_in": 1000, "fee": 100, "guarantee": 30000, "rebuy_period_over": True,
               "prize_pool": 20000, "payouts": [15000, 9000, 6000],
               "remaining": players(40000, 30000, 20000, 10000)})
    assert out == {"payouts": {"A": 9550, "B": 8250, "C": 6950, "D": 5650}, "from_pool": 20000,
                   "from_house": 10400}


def test_r_tourn_int_4_during_the_rebuy_period_the_pool_is_what_was_collected() -> None:
    """INT-4: while the re-buy period runs the pool is the buy-ins and add-ons collected (24000 = 20 entries + 4
    re-buys of 1000), not the guarantee. INT-11(b): refunds include re-buys: A (2) 3000, B (1) 2000, C (1) 2000,
    D 1000 = 8000. Rest 16000: 2000 each + by chips 3200/2400/1600/800.
    A = 3000 + 100 + 2000 + 3200 = 8300, B = 2000 + 100 + 2000 + 2400 = 6500, C = 5700, D = 3900.
    No overlay: house 400 (fees), pool 24000."""
    rem = players(40000, 30000, 20000, 10000)
    for r, n in zip(rem, (2, 1, 1, 0), strict=True):
        r["rebuys"] = n
    out = run({"kind": "mtt", "buy_in": 1000, "fee": 100, "guarantee": 30000, "rebuy_period_over": False,
               "rebuy_price": 1000, "prize_pool": 24000, "payouts": [12000, 7200, 4800], "remaining": rem})
    assert out == {"payouts": {"A": 8300, "B": 6500, "C": 5700, "D": 3900}, "from_pool": 24000, "from_house": 400}


def test_r_tourn_int_5_guaranteed_mtt_in_the_money() -> None:
    """INT-5: 20 x (10 + 1), guarantee 30000 (overlay 10000), payouts 12000/8000/6000/4000; 4th already paid
    4000; 3 left (in the money), chips 50k/30k/20k. Each: 1000 + 100 back, the 3rd-place prize 6000, and the rest
    30000 - 4000 - 3000 - 18000 = 5000: 2500 equal (833 each, 1 cent over) + 2500 by chips (1250, 750, 500);
    the 1 cent to the largest stack. A = 1100 + 6000 + 833 + 1250 + 1 = 9184, B = 1100 + 6000 + 833 + 750 = 8683,
    C = 1100 + 6000 + 833 + 500 = 8433. House: 300 fees + 10000 overlay; pool: 20000 - 4000 = 16000."""
    out = run({"kind": "mtt", "buy_in": 1000, "fee": 100, "guarantee": 30000, "prize_pool": 20000,
               "payouts": [12000, 8000, 6000, 4000], "paid_so_far": 4000,
               "remaining": players(50000, 30000, 20000)})
    assert out == {"payouts": {"A": 9184, "B": 8683, "C": 8433}, "from_pool": 16000, "from_house": 10300}


def test_r_tourn_int_6_non_guaranteed_mtt_in_the_money() -> None:
    """INT-6 (as INT-5 without the guarantee): pool 20000, payouts 8000/6000/4000/2000, 4th paid 2000, 3 left.
    Rest = 20000 - 2000 - 3000 - 3 x 4000 = 3000: 500 each + 750/450/300 by chips.
    A = 1100 + 4000 + 500 + 750 = 6350, B = 6050, C = 5900. Pool 18000, house 300."""
    out = run({"kind": "mtt", "buy_in": 1000, "fee": 100, "guarantee": 0, "prize_pool": 20000,
               "payouts": [8000, 6000, 4000, 2000], "paid_so_far": 2000,
               "remaining": players(50000, 30000, 20000)})
    assert out == {"payouts": {"A": 6350, "B": 6050, "C": 5900}, "from_pool": 18000, "from_house": 300}


def test_r_tourn_int_6_non_guaranteed_before_the_money_uses_the_collected_pool() -> None:
    """INT-6 (as INT-4): no guarantee sentence, so the pool stays what was collected (10 x 1000 = 10000), 3 paid,
    4 left with 4000/3000/2000/1000 chips. Refunds 4000, rest 6000: 750 each + 1200/900/600/300.
    A = 1100 + 750 + 1200 = 3050, B = 2750, C = 2450, D = 2150."""
    out = run({"kind": "mtt", "buy_in": 1000, "fee": 100, "prize_pool": 10000, "payouts": [5000, 3000, 2000],
               "remaining": players(4000, 3000, 2000, 1000)})
    assert out == {"payouts": {"A": 3050, "B": 2750, "C": 2450, "D": 2150}, "from_pool": 10000, "from_house": 400}


def test_r_tourn_int_7_freeroll_before_the_money() -> None:
    """INT-7: the room's pool 10000, 3 paid, 5 left (4000/3000/1500/1000/500 chips). Nothing refunded: 5000
    equal (1000 each) + 5000 by chips (2000/1500/750/500/250). A 3000, B 2500, C 1750, D 1500, E 1250."""
    out = run({"kind": "freeroll", "buy_in": 0, "fee": 0, "prize_pool": 10000, "payouts": [5000, 3000, 2000],
               "remaining": players(4000, 3000, 1500, 1000, 500)})
    assert out == {"payouts": {"A": 3000, "B": 2500, "C": 1750, "D": 1500, "E": 1250}, "from_pool": 10000,
                   "from_house": 0}


def test_r_tourn_int_8_freeroll_in_the_money() -> None:
    """INT-8: pool 10000, payouts 4000/3000/2000/1000, 4th paid 1000, 3 left (6000/3000/1000 chips). Each gets
    the 3rd-place prize 2000; rest 10000 - 1000 - 6000 = 3000: 500 each + 900/450/150.
    A = 2000 + 500 + 900 = 3400, B = 2950, C = 2650; pool 9000."""
    out = run({"kind": "freeroll", "buy_in": 0, "fee": 0, "prize_pool": 10000, "paid_so_far": 1000,
               "payouts": [4000, 3000, 2000, 1000], "remaining": players(6000, 3000, 1000)})
    assert out == {"payouts": {"A": 3400, "B": 2950, "C": 2650}, "from_pool": 9000, "from_house": 0}


def test_r_tourn_int_9_twister_under_the_threshold() -> None:
    """INT-9: EUR 5 Twister (fee 25 is not refunded), drawn prize 5 x = 2500 < EUR 1000. Each gets the 500 buy-in
    back; the 1000 left by chips 700/500/300 of 1500: 466, 333, 200 (999), 1 cent to the largest stack.
    A = 500 + 466 + 1 = 967, B = 833, C = 700."""
    out = run({"kind": "twister", "buy_in": 500, "fee": 25, "prize_pool": 2500,
               "remaining": players(700, 500, 300)})
    assert out == {"payouts": {"A": 967, "B": 833, "C": 700}, "from_pool": 2500, "from_house": 0}


def test_r_tourn_int_10_twister_at_or_over_the_threshold() -> None:
    """INT-10 + INT-11(d): EUR 10 Twister drawing 1000 x = 1,000,000. Refunds 3 x 1000; left L = 997,000; each
    player still in gets 10% of L = 99,700; the remaining 697,900 by chips 800/500/200 of 1500: 372,213, 232,633,
    93,053 (697,899), 1 cent to the largest stack. A = 1000 + 99700 + 372213 + 1 = 472,914; B = 333,333;
    C = 193,753 (sum 1,000,000)."""
    out = run({"kind": "twister", "buy_in": 1000, "fee": 0, "prize_pool": 1_000_000,
               "split_threshold": 100_000, "remaining": players(800, 500, 200)})
    assert out == {"payouts": {"A": 472_914, "B": 333_333, "C": 193_753}, "from_pool": 1_000_000, "from_house": 0}


def test_r_tourn_int_11d_twister_third_place_already_paid_keeps_it_and_gets_nothing_more() -> None:
    """INT-11(d): 3rd place already paid 10% (100,000) of the 1,000,000 prize; 2 left (1000/500 chips).
    L = 1,000,000 - 100,000 - 2000 = 898,000; 10% each = 89,800; 718,400 by chips: 478,933 and 239,466, 1 cent to
    A. A = 1000 + 89800 + 478933 + 1 = 569,734; B = 1000 + 89800 + 239466 = 330,266 (= 900,000 left)."""
    out = run({"kind": "twister", "buy_in": 1000, "fee": 0, "prize_pool": 1_000_000, "paid_so_far": 100_000,
               "remaining": players(1000, 500)})
    assert out == {"payouts": {"A": 569_734, "B": 330_266}, "from_pool": 900_000, "from_house": 0}


def test_r_tourn_int_10_exactly_the_threshold_is_the_large_case() -> None:
    """INT-10 says "EUR 1000 or more": a pool of exactly split_threshold takes the 10% shares. 100,000 - 3 x 100
    = 99,700 left; 9,970 each (29,910); 69,790 by equal chips: 23,263 each (69,789), 1 cent to A (first listed).
    A = 100 + 9970 + 23263 + 1 = 33,334, B = C = 33,333."""
    out = run({"kind": "twister", "buy_in": 100, "fee": 0, "prize_pool": 100_000, "split_threshold": 100_000,
               "remaining": players(500, 500, 500)})
    assert out["payouts"] == {"A": 33_334, "B": 33_333, "C": 33_333}


def test_r_tourn_int_5_reading_the_house_covers_a_pool_too_small_for_refunds_and_place_prizes() -> None:
    """Reading (documented): flat payouts 400/350/250 of a 1000 pool, 3 left, 100 + 10 each. The rule promises
    100 back + 250 (3rd prize) each = 1050 > 1000 in the pool: the house pays the 50 short, nothing is left to
    split. Each: 100 + 10 + 250 = 360; pool 1000, house 30 fees + 50."""
    out = run({"kind": "mtt", "buy_in": 100, "fee": 10, "prize_pool": 1000, "payouts": [400, 350, 250],
               "remaining": players(5000, 3000, 2000)})
    assert out == {"payouts": {"A": 360, "B": 360, "C": 360}, "from_pool": 1000, "from_house": 80}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "poker", "buy_in": 1, "fee": 0, "prize_pool": 1, "remaining": []}, "kind must be"),
        ({"kind": "sng", "buy_in": 1.5, "fee": 0, "prize_pool": 1, "remaining": players(1)}, "buy_in"),
        ({"kind": "sng", "buy_in": 1, "fee": 0, "prize_pool": 1, "remaining": []}, "non-empty"),
        ({"kind": "sng", "buy_in": 1, "fee": 0, "prize_pool": 1, "remaining": players(0)}, "positive"),
        ({"kind": "sng", "buy_in": 1, "fee": 0, "prize_pool": 1, "remaining": players(1), "x": 1}, "unknown"),
        ({"kind": "sng", "buy_in": 1, "fee": 0, "prize_pool": 1, "paid_so_far": 2, "remaining": players(1)},
         "paid_so_far"),
        ({"kind": "twister", "buy_in": 1, "fee": 0, "prize_pool": 9, "remaining": players(1, 1, 1, 1)}, "three"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(data: dict[str, Any], message: str) -> None:
    with pytest.raises(CompensationError, match=message):
        compensate(CompensationInput.from_dict(data))


def test_cli_prints_exactly_one_json_object(tmp_path: Any) -> None:
    """`riverboat tournament compensation FILE.json`: one JSON object on stdout, nothing else; errors on stderr
    with exit code 2."""
    f = tmp_path / "int3.json"
    f.write_text(json.dumps({"kind": "sng", "buy_in": 1000, "fee": 100, "prize_pool": 6000,
                             "eliminated_buy_ins": 2000, "remaining": players(4000, 2500, 1500, 1000)}))
    res = CliRunner().invoke(app, ["tournament", "compensation", str(f)])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"payouts": {"A": 1600, "B": 1600, "C": 1600, "D": 1600},
                                      "from_pool": 6000, "from_house": 400}
    assert res.stdout.count("\n") == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    exe = str(Path(sys.executable).with_name("riverboat"))
    proc = subprocess.run([exe, "tournament", "compensation", str(bad)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and proc.stdout == "" and "not JSON" in proc.stderr


def test_cli_a_file_that_is_not_text_is_refused_in_one_line(tmp_path: Path) -> None:
    """Found by the outside walk (2026-12-03): a binary file (not UTF-8) ended in a UnicodeDecodeError traceback."""
    path = tmp_path / "state.json"
    path.write_bytes(b"\xff\xfe\x00binary")
    res = CliRunner().invoke(app, ["tournament", "compensation", str(path)])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "is not JSON: not UTF-8 text" in res.output
