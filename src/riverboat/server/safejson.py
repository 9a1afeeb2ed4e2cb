"""JSON from clients (WebSocket frames and REST bodies), read with two limits the standard decoder lacks.

- **Nesting depth**: ``json.loads`` recurses once per array or object level; a 16 KB frame of ``[[[[...`` raises
  ``RecursionError``, which is no ``ValueError`` and used to close the socket (REST: a text/plain 500 and a dropped
  keep-alive connection; issue #16). Documents nesting deeper than :data:`MAX_DEPTH` are refused before decoding.
- **Text that is not Unicode**: a ``\\ud800`` escape decodes to a lone surrogate, which no reply can encode (an
  echoed id, a username written to the database). Documents holding one are refused.

Both raise :class:`JsonRefused` (a ``ValueError``); invalid JSON still raises ``ValueError`` /
``UnicodeDecodeError`` from the decoder.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32  # levels of arrays and objects; every frame and body of the protocol needs 3 at most


class JsonRefused(ValueError):
    """Valid JSON that is refused all the same; ``str()`` says why, for the client."""


def loads(raw: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(raw)`` with the depth and Unicode limits above."""
    text = raw.decode("utf-8") if isinstance(raw, bytes | bytearray) else raw
    if too_deep(text, max_depth):
        raise JsonRefused(f"JSON nested more than {max_depth} levels of arrays and objects is refused")
    value = json.loads(text)
    if "\\u" in text and not _unicode(value):
        raise JsonRefused("text with a lone surrogate escape (such as \\ud800) is not valid Unicode")
    return value


def too_deep(text: str, max_depth: int = MAX_DEPTH) -> bool:
    """True if ``text`` opens more than ``max_depth`` arrays/objects inside one another (outside strings)."""
    if text.count("[") + text.count("{") <= max_depth:  # the common case, at C speed
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _unicode(value: Any) -> bool:
    """Every string (keys included) encodes as UTF-8 (the depth is bounded, so recursion is too)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_unicode(k) and _unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_unicode(v) for v in value)
    return True
