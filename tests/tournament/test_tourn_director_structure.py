"""Issue #29 item 3: the tournament director split by responsibility. These read the source as a reader would: the
modules of ``room/tournament`` import one another without a cycle (TYPE_CHECKING imports included: ``director.py``
used to sit in a cycle with ``tables.py``, ``flights.py`` and ``variants.py``), no class of the director's parts
or of the cluster's tournament tables is over ~400 lines, and the cluster composes the parts it needs instead of
subclassing the director and switching parts off (no ``ShadowDirector``, no ``cast`` to a hand driver)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "riverboat"
TOURNAMENT = SRC / "room" / "tournament"
CLUSTER_FILES = [SRC / "cluster" / "tourney.py", SRC / "cluster" / "tourney_tables.py"]


def _imports(path: Path) -> set[str]:
    """The ``riverboat.room.tournament`` modules ``path`` imports, anywhere in it (TYPE_CHECKING blocks too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "riverboat.room.tournament":
                out.update(a.name for a in node.names)
            elif node.module.startswith("riverboat.room.tournament."):
                out.add(node.module.split(".")[3])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[3] for a in node.names if a.name.startswith("riverboat.room.tournament."))
    return out


def test_issue_29_no_import_cycle_in_the_tournament_package() -> None:
    """Issue #29 item 3: a depth-first walk of the package's imports finds no cycle."""
    modules = {p.stem for p in TOURNAMENT.glob("*.py") if p.stem != "__init__"}
    graph = {m: _imports(TOURNAMENT / f"{m}.py") & modules for m in modules}
    assert {"state", "purse", "herald", "recorder", "registration"} <= graph["director"]  # it composes its parts
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            assert state.get(n) != 1, f"import cycle: {' -> '.join([*path, m, n])}"
            if n not in state:
                visit(n, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    for low in ("tables", "flights", "variants", "state"):
        assert "director" not in graph[low], f"{low}.py imports the director"


def _classes(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(n.name, (n.end_lineno or n.lineno) - n.lineno + 1) for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]


def test_issue_29_no_class_of_the_director_or_the_cluster_tables_is_over_400_lines() -> None:
    """Issue #29 item 3: the director was one class of 1,268 lines and 95 methods; now no class of the package or of
    the cluster's tournament modules is over ~400 lines."""
    long = [f"{p.name}:{name} ({n} lines)" for p in [*TOURNAMENT.glob("*.py"), *CLUSTER_FILES]
            for name, n in _classes(p) if n > 400]
    assert long == []
    director = dict(_classes(TOURNAMENT / "director.py"))["Director"]
    assert director < 250, f"the Director itself is {director} lines: the parts hold the work"


def test_issue_29_the_cluster_composes_the_parts_it_needs() -> None:
    """Issue #29 item 3: a host dealing another host's tables composes state, tables, herald and presence
    (``ShadowTables``) rather than subclassing the director and switching parts off; hands dealt elsewhere are
    typed by the tables' protocols (``LiveHand``, ``FinishedHand``), not ``cast`` to a hand driver."""
    source = (SRC / "cluster" / "tourney_tables.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    bases = {n.name: [ast.unparse(b) for b in n.bases] for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    assert "ShadowDirector" not in bases and bases["ShadowTables"] == []
    assert "cast(" not in source
    from riverboat.cluster.tourney_tables import ShadowTables
    from riverboat.room.tournament.director import Director

    assert not issubclass(ShadowTables, Director)


def test_issue_29_the_cluster_director_is_the_director_with_the_clusters_dealing() -> None:
    """Issue #29 item 3: a cluster host's tournament is run by the same ``Director`` as one process, given the
    cluster's part (``dealing=``, the ``Dealing`` protocol: its tables, its herald, the history of a hand dealt
    elsewhere, an action sent to the dealing host) instead of a ``ClusterDirector`` subclass overriding
    ``make_table``/``make_herald``/``history``/``act``/``epoch``; the epoch comes typed from the host's fencing
    gateway (no ``getattr`` probing), and the new seams name no ``Any``."""
    from riverboat.cluster.tourney_tables import ClusterDealing
    from riverboat.room.tournament.director import Dealing, Director, LocalDealing

    for path in sorted((SRC / "cluster").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert "Director" not in [ast.unparse(b) for b in node.bases], f"{path.name}: {node.name}"
    for path in CLUSTER_FILES:
        assert "getattr(" not in path.read_text(encoding="utf-8"), path.name
    for name in ("make_table", "make_herald", "history", "epoch"):
        assert not hasattr(Director, name), name
    seams = [getattr(cls, m) for cls in (Dealing, LocalDealing, ClusterDealing)
             for m in ("__init__", "table", "herald", "history", "act") if m in vars(cls)]
    seams += [ClusterDealing.factory, Director.__init__]
    assert len(seams) >= 15
    for seam in seams:
        annotations = inspect.get_annotations(seam)
        assert not [a for a in annotations.values() if "Any" in str(a)], seam
