"""Table chat: a player seated at a table or watching it sends a line (``chat`` frame); everyone at the table and
its spectators receive it (``chat`` server frame) with the sender's public alias (R-ALIAS-1).

- rate limit per player: a burst of ``CHAT_RATE.burst`` lines, then one every ``1 / per_second`` seconds
  (``chat_rate_limited``; the line is not sent);
- the word filter of the aliases (R-ALIAS-4, ``store.alias_filter``): an offensive word is replaced by asterisks;
- at most ``MAX_CHAT`` characters, no control characters; an empty line is refused (``chat_refused``).

The dealer's messages are the table's own events, which every client already receives (the browser shows them in
the chat, with a switch to hide them); a per-player mute is kept in the player's notes (``store.notes``) and applied
by the client.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

from riverboat.room.errors import RoomError
from riverboat.room.port import RoomPort
from riverboat.store.alias_filter import offensive_word

from . import protocol
from .ratelimit import Rate, RateLimiter

MAX_CHAT = 200
CHAT_RATE = Rate(burst=5, per_second=0.5)
_WORD = re.compile(r"[A-Za-z0-9@$!|]+")


def filter_words(text: str) -> str:
    """Every word the alias filter finds offensive, as asterisks of the same length."""
    return _WORD.sub(lambda m: "*" * len(m.group()) if offensive_word(m.group()) else m.group(), text)


def clean_line(text: str) -> str:
    """The line as it is sent: control characters dropped, whitespace collapsed, the word filter applied."""
    if not isinstance(text, str):
        raise RoomError("chat_refused", "a chat message is text")
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    line = " ".join(kept.split())
    if not line:
        raise RoomError("chat_refused", "an empty message is not sent")
    if len(line) > MAX_CHAT:
        raise RoomError("chat_refused", f"a chat message holds at most {MAX_CHAT} characters")
    return filter_words(line)


class TableChat:
    """Chat for every table of the room; one rate limit per player across all tables."""

    def __init__(self, room: RoomPort, now: Any) -> None:
        self.room = room
        self.limiter = RateLimiter(CHAT_RATE, now, max_keys=100_000)

    async def say(self, player_id: int, alias: str | None, table_id: str, text: str) -> dict[str, Any]:
        line = clean_line(text)
        wait = self.limiter.check(str(player_id))
        if wait > 0:
            raise RoomError("chat_rate_limited", f"you are chatting too fast; wait {wait:.0f} s")
        message = protocol.chat_message(table_id, player_id, alias, line, datetime.now(UTC).isoformat(timespec="seconds"))
        # the room sends it to the table's audience if the player is in it (``not_at_table``, ``no_table``); a
        # cluster gateway's room asks the table's host, which knows the audience
        await self.room.relay(player_id, table_id, dict(message))
        return {"table": table_id, "text": line}
