"""The one error type of the room: every refused command raises ``RoomError(code, message)`` and changes nothing."""

from __future__ import annotations


class RoomError(Exception):
    """A refused command. ``code`` is a stable machine-readable string, ``message`` says why in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
