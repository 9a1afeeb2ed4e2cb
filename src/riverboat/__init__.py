"""Riverboat: an open-source online poker room.

Layers (each depends only on those above it): cards, evaluate, games, engine, history, store, room, server, bots/cli.
"""

__version__ = "0.1.0"
