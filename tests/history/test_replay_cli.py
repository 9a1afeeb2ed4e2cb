"""``riverboat replay``: per-hand lines, ``--json`` (one object per hand with the documented keys), ``--summary``
and exit codes; bad files are reported, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from riverboat.cli import app

runner = CliRunner()
GOOD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 100', 'p1 cc', 'p2 f', 'd db 2c7d9h', 'd db Jc',
           'd db 3s']
finishing_stacks = [202, 98, 0]
"""
KEYS = ["file", "index", "variant", "match", "finishing_stacks", "expected", "error"]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_replay_json_one_object_per_hand_with_documented_keys(tmp_path):
    good = _write(tmp_path, "good.phh", GOOD)
    result = runner.invoke(app, ["replay", "--json", str(good)])
    assert result.exit_code == 0, result.output
    (line,) = result.output.strip().splitlines()
    obj = json.loads(line)
    assert list(obj) == KEYS
    assert obj == {"file": str(good), "index": 0, "variant": "NT", "match": True,
                   "finishing_stacks": [202, 98, 0], "expected": [202, 98, 0], "error": None}


def test_replay_mismatch_exits_non_zero(tmp_path):
    bad = _write(tmp_path, "bad.phh", GOOD.replace("[202, 98, 0]", "[200, 100, 0]"))
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1 and "MISMATCH" in result.output and "expected [200, 100, 0]" in result.output


def test_replay_invalid_file_and_illegal_action_are_reported(tmp_path):
    broken = _write(tmp_path, "broken.phh", "variant = 'NT'\nstarting_stacks = [1, 2")
    illegal = _write(tmp_path, "illegal.phh", GOOD.replace("'p1 cc'", "'p1 cbr 1'"))
    result = runner.invoke(app, ["replay", "--json", str(broken), str(illegal)])
    assert result.exit_code == 1
    objs = [json.loads(x) for x in result.output.strip().splitlines()]
    assert "not valid TOML" in objs[0]["error"] and objs[0]["match"] is False
    assert "action 5 'p1 cbr 1'" in objs[1]["error"]


def test_replay_summary_totals_and_folders(tmp_path):
    _write(tmp_path, "a.phh", GOOD)
    _write(tmp_path, "b.phh", GOOD.replace("'NT'", "'FK'"))  # Kuhn poker: not one of our games
    result = runner.invoke(app, ["replay", "--summary", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "total: 1/1 hands match, 0 mismatches, 1 skipped" in result.output


def test_replay_a_missing_or_binary_file_is_one_plain_error_line(tmp_path):
    """Found by the outside walk (2026-12-03): a file that cannot be read was reported as a hand that did not match,
    ``nope.phh#0 : MISMATCH None expected None error: nope.phh: cannot read: [Errno 2] No such file or directory:
    'nope.phh'``."""
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"\xff\xfe\x00")
    missing = tmp_path / "nope.phh"
    result = runner.invoke(app, ["replay", str(missing), str(binary)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines == [f"ERROR {missing}: cannot read: No such file or directory",
                     f"ERROR {binary}: cannot read: not UTF-8 text"], lines
    summary = runner.invoke(app, ["replay", "--summary", str(missing)])
    assert f"ERROR {missing}: cannot read: No such file or directory" in summary.output
    assert "MISMATCH" not in summary.output
