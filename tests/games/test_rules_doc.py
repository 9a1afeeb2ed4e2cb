"""docs/rules.md, the room's rules in the repository (issue #32 item 3: "every rule with its ID, so the project
stands alone").

- Every rule ID that the code, the tests, the client or the docs cite is defined in docs/rules.md (an area such as
  ``R-TOURN`` or ``R-RANK-*`` counts when the area has rules), so nobody needs a file outside the repository to
  look a rule up.
- Part 3 ("Every rule by ID") carries each rule of the consolidated specification (``../shared/RULES.md``, when it
  is beside the repository) in full, not condensed: its text is the specification's, with the source pages named by
  the labels of part 3's table (``UVS-LV`` for ``002_756d5c0151e394b2.txt``...) and ``Src:`` written ``Sources:``.
  Without ``../shared`` that comparison is skipped (the other checks still run).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS_RULES = ROOT / "docs" / "rules.md"
SPEC = ROOT.parent / "shared" / "RULES.md"
PART_3 = "## 3. Every rule by ID"

#: the source rule pages by the label docs/rules.md gives them
SOURCE_LABELS = {
    "000_419ffa030b79cc95.txt": "iPoker-LV",
    "001_94eaffc5ba582e10.txt": "iPoker-RU",
    "002_756d5c0151e394b2.txt": "UVS-LV",
    "003_9f4508d968df5cdf.txt": "LT",
    "004_73226ad02f084b94.txt": "UVS-FI",
}
RULE = re.compile(r"^- \*\*(R-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+)\*\*")
CITED = re.compile(r"(?<![\w-])R-[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*(?:-\*)?")


def from_spec(text: str) -> str:
    """The specification's wording as docs/rules.md writes it: source labels instead of file names."""
    for name, label in SOURCE_LABELS.items():
        text = text.replace(name, label)
    return re.sub(r"\bSrc: ", "Sources: ", text)


def rules(text: str) -> dict[str, str]:
    """Each rule's text by ID: its bullet and everything under it up to the next rule, heading or rule line."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        m = RULE.match(line)
        if m:
            current = out.setdefault(m.group(1), [])
            current.append(line)
        elif line.startswith(("#", "---")):
            current = None
        elif current is not None:
            current.append(line)
    return {rid: "\n".join(lines).strip() for rid, lines in out.items()}


def _part_3() -> str:
    text = DOCS_RULES.read_text(encoding="utf-8")
    assert PART_3 in text
    return text[text.index(PART_3):]


def test_every_cited_rule_id_is_defined_in_docs_rules_issue_32() -> None:
    """Issue #32 item 3: the repository stands alone: each rule ID cited in src/, tests/ and docs/ is in
    docs/rules.md."""
    defined = set(rules(_part_3()))
    areas = {re.sub(r"-\d+$", "", rid) for rid in defined}
    areas |= {a.rsplit("-", 1)[0] for a in areas if "-" in a[2:]}  # R-RANK for R-RANK-32, R-TOURN for R-TOURN-SNG
    assert len(defined) >= 379
    sources = [*(ROOT / "src").rglob("*.py"), *(ROOT / "src" / "riverboat" / "web" / "js").glob("*.js"),
               *(ROOT / "tests").rglob("*.py"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    missing: dict[str, str] = {}
    for path in sources:
        for m in CITED.finditer(path.read_text(encoding="utf-8", errors="replace")):
            rid = m.group(0).removesuffix("-*")
            if rid not in defined and rid not in areas:
                missing.setdefault(rid, str(path.relative_to(ROOT)))
    assert missing == {}


def test_docs_rules_name_no_file_outside_the_repository_issue_32() -> None:
    """Issue #32 item 3: part 3 names the source pages by their labels (its table says what each page is), not by
    files of ../shared; it says where each rule comes from (Sources:)."""
    part = _part_3()
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", part)
    assert "Src:" not in part
    table = part[:part.index("### 1. General rules")]
    assert all(f"| {label} |" in table for label in SOURCE_LABELS.values())
    with_sources = [rid for rid, text in rules(part).items() if "Sources: " in text]
    assert len(with_sources) >= 370


@pytest.mark.skipif(not SPEC.exists(), reason="../shared/RULES.md is not beside the repository (the comparison "
                    "with the consolidated specification needs it; the checks above do not)")
def test_every_rule_of_the_specification_is_in_docs_rules_in_full_issue_32() -> None:
    """Issue #32 item 3: part 3 is not condensed: each of the specification's rules is there word for word (source
    files named by their labels), CONFLICT versions, readings, tables and lists included."""
    spec = rules(SPEC.read_text(encoding="utf-8"))
    docs = rules(_part_3())
    assert len(spec) >= 379
    missing = sorted(rid for rid in spec if rid not in docs)
    assert missing == []
    different = sorted(rid for rid, text in spec.items() if docs[rid] != from_spec(text))
    assert different == [], f"{len(different)} rules differ from the specification: {different[:10]}"
