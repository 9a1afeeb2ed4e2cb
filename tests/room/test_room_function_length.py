"""House style (issue #10 item 8, issue #29): no function in ``room/``, ``server/`` or ``cluster/`` is longer than 60
lines (its whole body, nested functions included, from ``def`` to the last line), and no class there is longer than
400 (issue #29: "no god classes"; ``Room`` was 581 lines and the cluster's ``TableHostNode`` 633 before they were
split into composed parts). A long function is split into named steps, a long class into parts by responsibility."""

from __future__ import annotations

import ast
from pathlib import Path

import riverboat

MAX_LINES = 60
MAX_CLASS_LINES = 400
PACKAGES = ("room", "server", "cluster")
ROOT = Path(riverboat.__file__).parent


def _lines(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    return (node.end_lineno or node.lineno) - node.lineno + 1


def _too_long(root: Path, classes: bool, limit: int) -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    continue
                if isinstance(node, ast.ClassDef) == classes and _lines(node) > limit:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({_lines(node)} lines)")
    return found


def long_functions(root: Path = ROOT) -> list[str]:
    return _too_long(root, False, MAX_LINES)


def long_classes(root: Path = ROOT) -> list[str]:
    return _too_long(root, True, MAX_CLASS_LINES)


def test_no_function_in_room_server_or_cluster_is_over_60_lines() -> None:
    assert long_functions() == []


def test_issue_29_no_class_in_room_server_or_cluster_is_over_400_lines() -> None:
    assert long_classes() == []


def test_issue_29_the_checks_find_a_class_and_a_function_one_line_too_long(tmp_path: Path) -> None:
    """The walk reads every package named (cluster/ too) and counts as the checks above do."""
    (tmp_path / "room").mkdir()
    (tmp_path / "cluster" / "deep").mkdir(parents=True)
    (tmp_path / "server").mkdir()
    (tmp_path / "room" / "big.py").write_text(
        "class Big:\n" + "".join(f"    x{i} = {i}\n" for i in range(MAX_CLASS_LINES)))
    (tmp_path / "cluster" / "deep" / "long.py").write_text(
        "def long():\n" + "".join(f"    y{i} = {i}\n" for i in range(MAX_LINES)))
    (tmp_path / "server" / "fine.py").write_text(
        "class Fine:\n" + "".join(f"    x{i} = {i}\n" for i in range(MAX_CLASS_LINES - 1)))
    assert long_classes(tmp_path) == [f"room/big.py:1 Big ({MAX_CLASS_LINES + 1} lines)"]
    assert long_functions(tmp_path) == [f"cluster/deep/long.py:1 long ({MAX_LINES + 1} lines)"]
