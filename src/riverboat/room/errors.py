"""The one error type of the room: every refused command raises ``RoomError(code, message)`` and changes nothing.

The code is per instance; its HTTP status comes from the error registry (:mod:`riverboat.errors`): 400 unless
declared below. A new code with another status: add a ``declare`` line here.
"""

from __future__ import annotations

from riverboat.errors import RiverboatError, declare, plain_words


class RoomError(RiverboatError):
    """A refused command. ``code`` is a stable machine-readable string, ``message`` says why in plain words."""

    code = "refused"
    status = 400

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = plain_words(message) if message else code

    def __str__(self) -> str:
        return f"{self.code}: {self.args[1] if len(self.args) > 1 else ''}"

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


for _code, _status in (("no_table", 404), ("no_pool", 404), ("not_found", 404), ("no_tournament", 404),
                       ("forbidden", 403), ("unauthenticated", 401), ("insufficient_funds", 409),
                       ("conflict", 409), ("fenced", 409), ("seat_taken", 409), ("already_seated", 409),
                       ("rate_limited", 429), ("chat_rate_limited", 429), ("store_unavailable", 503),
                       ("store_closed", 503), ("table_unavailable", 503), ("table_timeout", 504),
                       ("shutting_down", 503), ("internal", 500)):
    declare(_code, _status)
