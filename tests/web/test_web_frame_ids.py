"""Client message ids after a reload (issue #16 part 4b meets the browser client).

Money frames (`sit` with a buy-in, `top_up`, ...) are idempotent by (player, frame id) for 15 minutes
(`riverboat.server.replies`). A page that numbered its frames from 1 again after every reload sent the same ids
as before the reload: a `sit` with the same id and content got the old cached "seated" reply and the player was
not seated. R-CASH-3 / R-BUYIN-1: sitting down again after leaving and reloading must seat the player.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.test_web_live_play import register, sit_down


@pytest.mark.slow
def test_sit_again_after_leave_and_reload_seats_the_player_r_buyin_1(new_page: Any, live_server: Any) -> None:
    """Sit, leave, reload, sit at the same seat with the same buy-in: the second sit is a new request."""
    page = new_page()
    register(page, live_server.url)
    table_id, seat, buy_in = sit_down(page, live_server, "WebHoldem")
    page.click("[data-testid='leave-table']")
    page.wait_for_selector("[data-testid='lobby']")
    page.reload()
    page.wait_for_selector("[data-testid='lobby'] [data-testid='cash-tables']")
    page.wait_for_function("document.getElementById('conn').dataset.status === 'online'")
    again = sit_down(page, live_server, "WebHoldem", amount=buy_in)
    assert again[0] == table_id
    assert page.locator("[data-testid^='seat-'].seat--hero").count() == 1
