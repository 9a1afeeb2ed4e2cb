"""The one error registry: every refusal Riverboat sends to a client has one wire code and one HTTP status.

Every refusal class derives from :class:`RiverboatError` and declares its ``code`` and ``status`` in its class body
(a subclass that declares nothing inherits them: the lookup goes along the class hierarchy, the MRO). REST
(``server/rest.py``), the WebSocket (``server/ws.py``), the cluster's command replies and the room's store gateway
(``room/gateway.py``) all turn an exception into a :class:`WireError` with :func:`wire_error`, so one class gives one
code everywhere. This module sits in the lowest layer (it imports nothing of Riverboat): the store, room, twister,
cluster and server errors all build on it.

To add a refusal: subclass the nearest base (``StoreError``, ``RoomError``, ``TwisterError``...) and declare
``code`` (a stable ``snake_case`` string) and ``status`` (the HTTP status REST answers); give ``player_message``
plain words when the text the raiser writes is for operators, not players. ``RoomError`` carries its code per
instance (``RoomError("no_table", ...)``): the status of such a code comes from :data:`STATUS_BY_CODE` (add it with
:func:`declare` if it is not 400).

Messages reach players as they are (the web client shows ``message``): :func:`plain_words` removes rule ids
("(R-ALIAS-2)") from them, and classes whose raisers write operator texts (balances of internal accounts,
idempotency keys, epochs) send their fixed ``player_message`` instead; the full text stays in ``str(exc)`` for logs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: HTTP status of every code that is not 400, filled by the class declarations and :func:`declare`
STATUS_BY_CODE: dict[str, int] = {}


def declare(code: str, status: int) -> None:
    """Declare the HTTP status of a wire code raised per instance (``RoomError(code, ...)``)."""
    known = STATUS_BY_CODE.get(code)
    if known is not None and known != status:
        raise ValueError(f"wire code {code!r} already has status {known}, not {status}")
    STATUS_BY_CODE[code] = status


def status_of(code: str) -> int:
    """The HTTP status of a wire code (400 unless declared)."""
    return STATUS_BY_CODE.get(code, 400)


_RULE_ID = re.compile(r"\s*\((?:see\s+)?R-[A-Z0-9]+(?:-[A-Z0-9]+)*(?:\s*[,/;]\s*R-[A-Z0-9]+(?:-[A-Z0-9]+)*)*\)"
                      r"|\bR-[A-Z]+(?:-[A-Z0-9]+)+\b:?\s*")


def plain_words(text: str) -> str:
    """``text`` without rule ids (they are for the docs and the logs, not for players)."""
    out = _RULE_ID.sub("", text).strip()
    out = re.sub(r"\s{2,}", " ", out)
    out = re.sub(r"\s+([.,;:])", r"\1", out)
    return out or text


class RiverboatError(Exception):
    """Base of every refusal that can reach a client. ``code`` and ``status`` are declared per class;
    ``player_message`` (class level, optional) replaces the raiser's text on the wire. ``message`` is what the
    player is told (plain words); ``str(exc)`` keeps the raiser's full text for the logs."""

    code: str = "refused"
    status: int = 400
    player_message: str | None = None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        own_code = cls.__dict__.get("code")
        if isinstance(own_code, str):
            declare(own_code, cls.status)

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        text = str(args[0]) if args else ""
        self.message: str = self.player_message or (plain_words(text) if text else type(self).__name__)


@dataclass(frozen=True, slots=True)
class WireError:
    """One refusal as clients see it: ``{"error": {"code", "message"}}`` with ``status`` over REST, an ``error``
    frame over the WebSocket."""

    code: str
    status: int
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def wire_error(exc: BaseException) -> WireError | None:
    """The wire form of a refusal, or None for an exception that is no refusal (a bug: the caller answers
    ``internal``). The code is the instance's (``RoomError``) or its class's, found along the MRO."""
    if not isinstance(exc, RiverboatError):
        return None
    own = vars(exc)
    code = exc.code
    if "status" in own:  # a per-instance status (the server's ApiError)
        status = exc.status
    elif "code" in own:  # a per-instance code (RoomError): the code's status
        status = status_of(code)
    else:
        status = type(exc).status
    return WireError(code, status, exc.message)


declare("refused", 400)
