"""The message catalogs of the browser client (issue #32): web/locales/{en,lv,ru,lt,fi}.json.

- every key is in every locale, and nothing else is;
- every key the client asks for with t("...") (or names in markup with data-i18n*) exists, and no catalog key is
  unused: a key counts as used when its exact text appears as a string literal in web/js or web/*.html, or when
  it falls under a family the code builds at run time and declares with an ``i18n-dynamic: <prefix>*`` comment
  (each such family is checked here against its source of truth: the error registry's codes, the evaluators' hand
  categories...);
- placeholders ``{name}`` are the same in every locale;
- a plural entry (an object) has exactly the CLDR plural categories of its language (Babel's CLDR data), "other"
  included: Latvian zero/one/other, Russian and Lithuanian one/few/many/other, English and Finnish one/other;
- no text is empty, and a translated text is not left in English where English words would show (spot check on the
  action buttons, which must read as the rooms of each language write them).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from pathlib import Path

import pytest
from babel import Locale

import riverboat
from riverboat.errors import STATUS_BY_CODE

WEB = Path(__file__).resolve().parents[2] / "src" / "riverboat" / "web"
LOCALES = ("en", "lv", "ru", "lt", "fi")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
T_CALL = re.compile(r"""(?<![\w$.])t\(\s*(?:"([^"]+)"|'([^']+)'|`([^`]+)`)""")
DYNAMIC = re.compile(r"i18n-dynamic:\s*([\w.]+)\*")


def _catalogs() -> dict[str, dict[str, object]]:
    return {loc: json.loads((WEB / "locales" / f"{loc}.json").read_text(encoding="utf-8")) for loc in LOCALES}


def _sources(with_i18n: bool = False) -> list[Path]:
    """The client's scripts and pages (i18n.js's own comments only document the call form: it is scanned for the
    keys it uses, not for the keys it asks for)."""
    return [p for p in sorted((WEB / "js").glob("*.js")) + sorted(WEB.glob("*.html"))
            if with_i18n or p.name != "i18n.js"]


def _used_as_literal(keys: list[str]) -> set[str]:
    """The keys that appear quoted ("key", 'key' or `key`) somewhere in the client's sources."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in _sources(with_i18n=True))
    return {k for k in keys if any(f"{q}{k}{q}" in text for q in "\"'`")}


def _dynamic_prefixes() -> set[str]:
    return {m.group(1) for path in _sources() for m in DYNAMIC.finditer(path.read_text(encoding="utf-8"))}


def _forms(entry: object) -> dict[str, str]:
    if isinstance(entry, str):
        return {"": entry}
    assert isinstance(entry, dict) and all(isinstance(v, str) for v in entry.values()), entry
    return dict(entry)


def _required_categories(locale: str) -> set[str]:
    return set(Locale.parse(locale).plural_form.tags) | {"other"}


def _registry_codes() -> set[str]:
    for info in pkgutil.walk_packages(riverboat.__path__, "riverboat."):
        if not info.name.startswith(("riverboat.__main__", "riverboat.store.migrations")):
            importlib.import_module(info.name)
    codes = set(STATUS_BY_CODE)
    raised = re.compile(r'(?:RoomError|TwisterError|ApiError|SpecError|error_response)\(\s*(?:\d+,\s*)?"([a-z_]+)"')
    for path in (WEB.parent).rglob("*.py"):
        codes.update(m.group(1) for m in raised.finditer(path.read_text(encoding="utf-8")))
    return codes


def test_every_locale_has_exactly_the_same_keys() -> None:
    """Issue #32: every key in every locale (no key missing in one language, none left over)."""
    cats = _catalogs()
    english = set(cats["en"])
    for loc in LOCALES[1:]:
        assert set(cats[loc]) - english == set(), f"{loc}: keys not in en"
        assert english - set(cats[loc]) == set(), f"{loc}: keys missing"


def test_every_key_the_client_asks_for_exists() -> None:
    """Issue #32: t("key") and data-i18n="key" name keys of the catalog (a typo would show the raw key)."""
    english = _catalogs()["en"]
    asked: dict[str, str] = {}
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        for m in T_CALL.finditer(text):
            key = next(g for g in m.groups() if g is not None)
            if "${" in key:
                continue  # a built key: its family is declared i18n-dynamic and checked below
            asked[key] = path.name
        for m in re.finditer(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', text):
            asked[m.group(1)] = path.name
    missing = {k: where for k, where in asked.items() if k not in english}
    assert missing == {}
    assert len(asked) > 50  # the scan finds the client's keys (a broken regex would pass vacuously)


def test_no_catalog_key_is_unused() -> None:
    """Issue #32: no unused key: each appears as a literal in the client, or under a declared dynamic family."""
    keys = list(_catalogs()["en"])
    used = _used_as_literal(keys)
    prefixes = _dynamic_prefixes()
    unused = sorted(k for k in keys if k not in used and not any(k.startswith(p) for p in prefixes))
    assert unused == []


def test_built_key_families_are_declared() -> None:
    """A key built at run time (t(`error.${code}`)) must belong to a family declared with i18n-dynamic."""
    prefixes = _dynamic_prefixes()
    undeclared = []
    for path in _sources():
        for m in T_CALL.finditer(path.read_text(encoding="utf-8")):
            key = next(g for g in m.groups() if g is not None)
            if "${" in key and not any(key.startswith(p) for p in prefixes):
                undeclared.append((path.name, key))
    assert undeclared == []


def test_every_error_code_of_the_registry_has_a_sentence() -> None:
    """Issue #32: refusals are translated by their error code (errors.py's registry), never by parsing English."""
    cats = _catalogs()
    codes = _registry_codes()
    assert {"insufficient_funds", "not_your_turn", "username_taken"} <= codes
    for loc in LOCALES:
        missing = sorted(c for c in codes if f"error.{c}" not in cats[loc])
        assert missing == [], loc


def test_placeholders_are_identical_across_locales() -> None:
    """Issue #32: {name} placeholders the same in every locale (and within a plural entry, in every form)."""
    cats = _catalogs()
    for key, entry in cats["en"].items():
        want = {p for text in _forms(entry).values() for p in PLACEHOLDER.findall(text)}
        for loc in LOCALES:
            forms = _forms(cats[loc][key])
            got = {p for text in forms.values() for p in PLACEHOLDER.findall(text)}
            assert got == want, (loc, key)
            for form, text in forms.items():
                missing = want - set(PLACEHOLDER.findall(text)) - {"count"}
                assert not missing, (loc, key, form)


def test_plural_entries_have_every_cldr_category_of_their_language() -> None:
    """Issue #32: plural forms complete per language (CLDR through Babel): ru/lt one-few-many-other, lv
    zero-one-other, en/fi one-other; a string in one locale is a plural entry in all."""
    cats = _catalogs()
    plural_keys = [k for k, v in cats["en"].items() if isinstance(v, dict)]
    assert plural_keys, "the catalog has plural entries"
    assert _required_categories("ru") == {"one", "few", "many", "other"}
    assert _required_categories("lv") == {"zero", "one", "other"}
    for loc in LOCALES:
        for key in plural_keys:
            entry = cats[loc][key]
            assert isinstance(entry, dict), (loc, key)
            assert set(entry) == _required_categories(loc), (loc, key)


def test_no_text_is_empty() -> None:
    for loc, cat in _catalogs().items():
        for key, entry in cat.items():
            for text in _forms(entry).values():
                assert text.strip(), (loc, key)


ROOM_TERMS = {
    # the Russian rules page (seed 001, "Раунды торгов") names the actions Чек, Фолд, Колл, Бет, Рейз
    "ru": {"action.fold": "Фолд", "action.check": "Чек", "action.call_amount": "Колл ", "action.bet_amount": "Бет ",
           "action.raise_to": "Рейз ", "sizing.all_in": "Олл-ин"},
    # the Lithuanian page (seed 003): Atsisakyti („Fold“), Praleisti („Check“), Statyti/atsakyti („Call“),
    # Statyti („Bet“), Didinti („Raise“)
    "lt": {"action.fold": "Atsisakyti", "action.check": "Praleisti", "action.call_amount": "Atsakyti ",
           "action.bet_amount": "Statyti ", "action.raise_to": "Didinti "},
    # the Latvian pages (seeds 000, 002) head the actions with the English words Check, Fold, Call, Bet, Raise
    "lv": {"action.fold": "Fold", "action.check": "Check", "action.call_amount": "Call ", "action.bet_amount": "Bet ",
           "action.raise_to": "Raise "},
    # the Finnish page (seed 004): panostus (bet), korotus (raise), maksaa (call), All-in
    "fi": {"action.call_amount": "Maksa ", "action.bet_amount": "Panosta ", "action.raise_to": "Korota ",
           "sizing.all_in": "All-in"},
}


@pytest.mark.parametrize("loc", sorted(ROOM_TERMS))
def test_action_buttons_use_the_rooms_own_terms(loc: str) -> None:
    """Issue #32: the action buttons read as the rooms of the language write them (the original rule pages in
    ../shared/seeds), not a literal translation (Russian Сбросить / Уравнять / Повысить would be)."""
    cat = _catalogs()[loc]
    for key, word in ROOM_TERMS[loc].items():
        text = cat[key]
        assert isinstance(text, str) and text.startswith(word), (key, text)


def test_every_key_shaped_literal_in_the_client_is_in_the_catalog() -> None:
    """Issue #32: a key the client picks at run time (``tr(broken ? "tournament.moved_broken" : ...)``, through a
    local alias of t) is not seen by the t("...") scan; any string literal shaped like a key of one of the catalog's
    namespaces must be a key, or the page shows the raw key to the player (it did: 'tournament.moved_broken')."""
    catalog = _catalogs()["en"]
    namespaces = "|".join(sorted({key.split(".")[0] for key in catalog}))
    literal = re.compile(rf"""["'`]((?:{namespaces})\.[a-z0-9_]+(?:\.[a-z0-9_]+)*)["'`]""")
    missing = sorted({f"{path.name}: {m.group(1)}" for path in _sources()
                      for m in literal.finditer(path.read_text(encoding="utf-8")) if m.group(1) not in catalog})
    assert not missing, missing


def _console_families() -> dict[str, set[str]]:
    """The operator console's value families (web/js/operator_text.js) and the server's own values for each."""
    from riverboat.integrity import PATTERNS
    from riverboat.store import accounts, adjustments, cashier, integrity, withdrawals
    from riverboat.store.audit_reasons import REASONS

    store = WEB.parent / "store"
    audited = re.compile(r'\baudit\(\s*s,\s*[^,]+,\s*[^,]+,\s*"([a-z0-9_]+)"')
    actions = set(integrity.ACTIONS)
    changes = {"timeout", "self_exclusion"}  # the block kinds (store.protections: timeout | self_exclusion)
    for path in store.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        actions.update(audited.findall(text))
        changes.update(re.findall(r'record_change\(\s*s,\s*[^,]+,\s*[^,]+,\s*[^,]+,\s*"([a-z_]+)"', text))
    hand_statuses = {"started", "settled", "void", "recorded"}  # store.models.Hand.status
    return {
        "op.flag_status.": {*integrity.FLAG_STATUSES, "all"},
        "op.standing.": set(integrity.STATUSES),
        "op.role.": set(accounts.ROLES),
        "op.pattern.": set(PATTERNS),
        "op.action.": actions,
        "op.status.": {*withdrawals.STATUSES, *adjustments.STATUSES, "pending", "credited", *hand_statuses, "all"},
        "op.category.": set(adjustments.CATEGORIES),
        "op.change.": changes,
        "op.method.": {cashier.BANK},
        "op.reason.": set(REASONS),
    }


def test_console_value_families_name_every_value_the_server_uses() -> None:
    """Issue #32: the console names the server's closed value sets from the catalog (flag statuses, standings,
    roles, integrity patterns, every audit action the store writes, money statuses, adjustment categories,
    protection changes): each value has its entry, and no entry names a value the server does not have."""
    catalog = _catalogs()["en"]
    families = _console_families()
    assert {"staff_login", "2fa_enrolled", "unlock", "deposit", "ban"} <= families["op.action."]
    assert {"deposit_limit", "reality_check", "verified"} <= families["op.change."]
    for prefix, values in families.items():
        named = {key[len(prefix):] for key in catalog if key.startswith(prefix)}
        assert values - named == set(), prefix
        assert named - values == set(), prefix


def test_audit_reasons_the_room_writes_have_a_sentence_with_their_parameters() -> None:
    """Issue #32: each reason the room writes into the audit log (store/audit_reasons.py) is said in every language
    with exactly the parameters the store records ({address}, {reference}), so the console can render it from the
    code instead of showing the stored English text."""
    from riverboat.store.audit_reasons import REASONS, placeholders

    cats = _catalogs()
    assert {"login_from", "bank_transfer", "hole_card_review"} <= set(REASONS)
    for code, english in REASONS.items():
        for loc in LOCALES:
            entry = cats[loc].get(f"op.reason.{code}")
            assert isinstance(entry, str), (loc, code)
            assert set(PLACEHOLDER.findall(entry)) == placeholders(english), (loc, code)


COUNTED = re.compile(r"\{\w+\} (?:chips?|minutes?|hands?|players?|hours?|days?|levels?|entrants?|tables?|seats?|"
                     r"rebuys?|add-ons?|weeks?|months?|points?|games?|cards?)\b")


def test_a_counted_noun_is_a_plural_entry() -> None:
    """Issue #32 ("plurals by the language's rules"): an English text that puts a number before the noun it counts
    ("{chips} chips", "{minutes} minutes") is a plural entry chosen by ``count``, so every language can say 1, 2,
    5 and 21 of it correctly (before, "{chips} фишек" and "{minutes} minūtes" were wrong for 21 and 1,501)."""
    plain = sorted(k for k, v in _catalogs()["en"].items() if isinstance(v, str) and COUNTED.search(v))
    assert plain == [], plain
