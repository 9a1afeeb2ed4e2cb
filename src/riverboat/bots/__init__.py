"""Bot players that connect over the same WebSocket protocol as the browser (docs/protocol.md).

Layer 9 (above the server). ``ProtocolClient`` is a plain protocol client; ``Bot`` plays one account at one or
more tables with a strategy: ``CallingStation`` (check/call down, for tests), ``RandomBot`` (random legal actions)
or ``StrengthBot`` (equity against random hands via ``riverboat.evaluate``). ``riverboat.bots.demo`` creates bot
accounts and seats them at the demo tables of ``riverboat serve``.
"""

from riverboat.bots.client import CommandRefused, ProtocolClient
from riverboat.bots.strategies import CallingStation, Decision, Move, RandomBot, Strategy

__all__ = ["CallingStation", "CommandRefused", "Decision", "Move", "ProtocolClient", "RandomBot", "Strategy"]
