"""House style (issue #10 item 8): no function in ``room/`` or ``server/`` is longer than 60 lines (its whole body,
nested functions included, from ``def`` to the last line). A long function is split into named steps."""

from __future__ import annotations

import ast
from pathlib import Path

import riverboat

MAX_LINES = 60
PACKAGES = ("room", "server")


def long_functions() -> list[str]:
    root = Path(riverboat.__file__).parent
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > MAX_LINES:
                        found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_in_room_or_server_is_over_60_lines() -> None:
    assert long_functions() == []
