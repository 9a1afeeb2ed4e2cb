"""Aliases (R-ALIAS-1..5) and the offensive-alias filter, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from riverboat.store import AliasRefused, InvalidRequest, PermissionDenied, Store
from riverboat.store.alias_filter import normal_forms, offensive_word
from riverboat.store.aliases import validate_alias

from .conftest import make_player

PW = "correct horse battery"


def test_r_alias_1_alias_is_assigned_on_first_login(store: Store) -> None:
    """R-ALIAS-1: a player is given an alias on first access (the username when it is a valid free alias)."""
    info = store.accounts.register("River42", PW)
    assert store.accounts.get(info.id).alias is None
    store.accounts.login("River42", PW)
    assert store.accounts.get(info.id).alias == "River42"
    store.accounts.login("River42", PW)
    assert store.accounts.get(info.id).alias == "River42"


def test_r_alias_1_unusable_username_gets_a_neutral_alias(store: Store) -> None:
    """R-ALIAS-1 with R-ALIAS-5: a username that is not a valid alias (here with '_') yields PlayerNNNNNNNN."""
    info = store.accounts.register("no_good_name", PW)
    store.accounts.login("no_good_name", PW)
    alias = store.accounts.get(info.id).alias
    assert alias is not None and alias.startswith("Player") and len(alias) == 14


@pytest.mark.parametrize("alias", ["abc", "a" * 17, "has space", "dash-ed", "ÄÖÜäöü", "under_score", ""])
def test_r_alias_5_format_is_4_to_16_letters_and_digits(alias: str) -> None:
    """R-ALIAS-5: ^[A-Za-z0-9]{4,16}$; each refusal names the rule."""
    with pytest.raises(AliasRefused, match="R-ALIAS-5"):
        validate_alias(alias)


@pytest.mark.parametrize("alias", ["abcd", "A" * 16, "Zz09", "player123"])
def test_r_alias_5_valid_aliases_are_accepted(alias: str) -> None:
    validate_alias(alias)


def test_r_alias_5_store_refuses_bad_format_and_accepts_good(store: Store) -> None:
    """R-ALIAS-5 through the store: a refused alias changes nothing; a valid one is set and found ignoring case."""
    p = make_player(store, "formatter", login=False)
    with pytest.raises(AliasRefused, match="R-ALIAS-5"):
        store.aliases.set(p, "abc")
    assert store.accounts.get(p).alias is None
    assert store.aliases.set(p, "Zz09abcd") == "Zz09abcd"
    assert store.aliases.lookup("ZZ09ABCD") == p


def test_r_alias_3_unique_case_insensitively_and_only_one_per_player(store: Store) -> None:
    """R-ALIAS-3 / R-INTEG-7: one alias per player; aliases are unique ignoring case."""
    a = make_player(store, "first", login=False)
    b = make_player(store, "second", login=False)
    store.aliases.set(a, "Shark")
    with pytest.raises(AliasRefused, match="taken"):
        store.aliases.set(b, "sHARK")
    with pytest.raises(AliasRefused, match="R-ALIAS-3"):
        store.aliases.set(a, "Another")
    assert store.accounts.get(a).alias == "Shark"
    assert store.accounts.get(b).alias is None


def test_r_alias_2_alias_can_be_changed_exactly_once(store: Store) -> None:
    """R-ALIAS-2: one change, then never again."""
    info = store.accounts.register("Changer", PW)
    store.accounts.login("Changer", PW)
    assert store.aliases.change(info.id, "NewName") == "NewName"
    with pytest.raises(AliasRefused, match="R-ALIAS-2"):
        store.aliases.change(info.id, "ThirdName")
    assert store.accounts.get(info.id).alias == "NewName"
    assert store.aliases.lookup("Changer") is None  # the old alias is free again


def test_a_refused_change_does_not_use_up_the_single_change(store: Store) -> None:
    """R-ALIAS-2 with R-ALIAS-4: a refused request changes nothing, so the one change remains."""
    info = store.accounts.register("Patient", PW)
    store.accounts.login("Patient", PW)
    with pytest.raises(AliasRefused, match="R-ALIAS-4"):
        store.aliases.change(info.id, "B1tch")
    assert store.aliases.change(info.id, "Polite") == "Polite"


@pytest.mark.parametrize(
    "alias",
    ["Fuck", "FUCKyou", "B1tch", "biiitch", "BiiiTCH99", "sh1thead", "Fuuuuck", "w4nk3r", "c0cksucker",
     "Ass123", "N1gg3r", "xxWHOORExx", "d1ckhead"],
)
def test_r_alias_4_offensive_aliases_are_refused_after_normalisation(alias: str) -> None:
    """R-ALIAS-4: the filter normalises case, digits for letters and repeated letters."""
    with pytest.raises(AliasRefused, match="offensive.*R-ALIAS-4"):
        validate_alias(alias)


def test_r_alias_4_store_refuses_offensive_aliases(store: Store) -> None:
    """R-ALIAS-4 through the store: refused with the reason, nothing changes."""
    p = make_player(store, "rude", login=False)
    for alias in ("B1tch", "biiitch"):
        with pytest.raises(AliasRefused, match="offensive.*R-ALIAS-4"):
            store.aliases.set(p, alias)
    assert store.accounts.get(p).alias is None


@pytest.mark.parametrize("alias", ["Classic", "Bassist", "Grapefruit", "Hancock", "Torpedo99", "Sukanya", "Dickens1"])
def test_r_alias_4_short_words_only_refused_as_whole_alias(alias: str) -> None:
    """R-ALIAS-4: short words ('ass', 'rape', 'cock'...) only count as the whole alias, so harmless names pass."""
    assert offensive_word(alias) is None


def test_normal_forms_cover_leetspeak_and_repeats() -> None:
    assert "bitch" in normal_forms("B1tch")
    assert "bitch" in normal_forms("biiitch")
    assert "shit" in normal_forms("SH1T")
    assert normal_forms("Aaa1") == {"ai", "al", "a"}


def test_r_alias_4_operator_rejects_and_player_must_choose_again(store: Store) -> None:
    """R-ALIAS-4 / R-OPER-5: the operator judges an alias offensive; it is replaced by a neutral one and the
    player must choose another - even after their one change was used."""
    op = make_player(store, "operator1", role="operator")
    info = store.accounts.register("Sneaky", PW)
    store.accounts.login("Sneaky", PW)
    store.aliases.change(info.id, "Sneakier")
    with pytest.raises(PermissionDenied):
        store.aliases.reject(info.id, info.id, "self")
    neutral = store.aliases.reject(op, info.id, "insulting")
    now = store.accounts.get(info.id)
    assert now.alias == neutral and neutral.startswith("Player") and now.alias_must_change
    assert store.aliases.change(info.id, "Gentle") == "Gentle"
    assert not store.accounts.get(info.id).alias_must_change
    with pytest.raises(AliasRefused, match="R-ALIAS-2"):
        store.aliases.change(info.id, "Gentler")
    with pytest.raises(InvalidRequest):
        store.aliases.reject(op, info.id, "")


def test_r_oper_5_operator_force_renames_any_alias(store: Store) -> None:
    """R-OPER-5: the operator can set an alias directly; format and uniqueness still hold."""
    op = make_player(store, "operator2", role="operator")
    info = store.accounts.register("Rename", PW)
    store.accounts.login("Rename", PW)
    store.aliases.change(info.id, "UsedChange")
    assert store.aliases.force_rename(op, info.id, "Renamed") == "Renamed"
    with pytest.raises(AliasRefused, match="R-ALIAS-5"):
        store.aliases.force_rename(op, info.id, "x")
    with pytest.raises(PermissionDenied):
        store.aliases.force_rename(info.id, info.id, "Selfie")
    assert store.accounts.get(info.id).alias == "Renamed"
