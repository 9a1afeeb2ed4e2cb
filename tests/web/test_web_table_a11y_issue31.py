"""Issue 31 "Keyboard and screen-reader basics at the table", on the fixture-rendered table (tests/web/harness):
cards are named for screen readers in the page's language through the i18n catalog ("Ace of hearts"; a back is a
"Face-down card"), and the decision can be taken from the keyboard alone (Tab to a button, Enter; the F / C / R
shortcuts are tested in test_web_table_layout.py)."""

from __future__ import annotations

from typing import Any

DESKTOP = {"width": 1366, "height": 768}


def open_table(new_page: Any, static_url: str) -> Any:
    page = new_page(DESKTOP)
    page.goto(f"{static_url}/harness/table.html?fixture=holdem_action")
    page.wait_for_selector("body[data-ready='1']")
    return page


def test_issue_31_cards_are_named_for_screen_readers(new_page: Any, static_url: str) -> None:
    """The player's Ah Kd are "Ace of hearts" and "King of diamonds", the flop Kh 7d 2c likewise (English catalog),
    every other seat's card is a "Face-down card"; the card's picture is hidden from the reader."""
    page = open_table(new_page, static_url)
    hero = page.eval_on_selector_all(".seat--hero .seat-cards .card", "es => es.map(e => e.getAttribute('aria-label'))")
    board = page.eval_on_selector_all("[data-testid='board'] .card", "es => es.map(e => e.getAttribute('aria-label'))")
    backs = page.eval_on_selector_all(".seat:not(.seat--hero) .seat-cards .card", "es => es.map(e => e.getAttribute('aria-label'))")
    assert hero == ["Ace of hearts", "King of diamonds"]
    assert board == ["King of hearts", "Seven of diamonds", "Deuce of clubs"]
    assert backs and set(backs) == {"Face-down card"}
    assert page.eval_on_selector_all(".card svg", "es => es.every(e => e.getAttribute('aria-hidden') === 'true')")


def test_issue_31_card_names_follow_the_language(new_page: Any, static_url: str) -> None:
    """The same names from the Russian, Latvian, Lithuanian and Finnish catalogs (the suit in its genitive form),
    the page opened in that language (?lang=)."""
    expected = {
        "ru": ["Туз червей", "Король бубен", "Закрытая карта"],
        "lv": ["Ercena dūzis", "Kārava kungs", "Aizklāta kārts"],
        "lt": ["Širdžių tūzas", "Būgnų karalius", "Užversta korta"],
        "fi": ["Herttaässä", "Ruutukuningas", "Kuvapuoli alaspäin oleva kortti"],
    }
    for loc, names in expected.items():
        page = new_page(DESKTOP)
        page.goto(f"{static_url}/harness/table.html?fixture=holdem_action&lang={loc}")
        page.wait_for_selector("body[data-ready='1']")
        hero = page.eval_on_selector_all(".seat--hero .seat-cards .card", "es => es.map(e => e.getAttribute('aria-label'))")
        back = page.eval_on_selector(".seat:not(.seat--hero) .seat-cards .card", "e => e.getAttribute('aria-label')")
        assert [*hero, back] == names, loc
        page.close()


def test_issue_31_decision_by_keyboard_alone(new_page: Any, static_url: str) -> None:
    """Tab reaches Fold, Call and Raise (each named by its text) and Enter on Call sends the call."""
    page = open_table(new_page, static_url)
    reached = []
    for _ in range(60):
        page.keyboard.press("Tab")
        action = page.evaluate("document.activeElement && document.activeElement.dataset.action || null")
        if action:
            reached.append(action)
        if action == "call":
            break
    assert {"fold", "call"} <= set(reached), reached
    names = page.eval_on_selector_all(".action-bar button[data-action]", "bs => bs.map(b => b.textContent.trim())")
    assert all(names), names
    page.keyboard.press("Enter")
    assert page.evaluate("window.__sent") == [{"type": "act", "table": "t1", "kind": "call"}]
