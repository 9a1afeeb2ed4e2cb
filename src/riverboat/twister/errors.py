"""Errors of the Twister package."""

from __future__ import annotations


class TwisterError(ValueError):
    """A Twister request that cannot be honoured (unknown type, unpublished buy-in, bad setting)."""
