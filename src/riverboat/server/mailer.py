"""The hook for a room that can send e-mail (issue #35): the lost-password path without mail infrastructure in the
room itself. Riverboat stores no e-mail address; the operator's sender knows where a username's mail goes."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class ResetMailer(Protocol):
    """``ServerConfig.reset_mailer``: sends a one-time password reset code to the account's owner."""

    async def send_reset_code(self, player_id: int, username: str, code: str, expires_at: datetime) -> None: ...
