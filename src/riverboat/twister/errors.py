"""Errors of the Twister package (a refusal: its wire code and status are declared for the error registry,
:mod:`riverboat.errors`)."""

from __future__ import annotations

from riverboat.errors import RiverboatError


class TwisterError(RiverboatError, ValueError):
    """A Twister request that cannot be honoured (unknown type, unpublished buy-in, bad setting)."""

    code = "invalid"
    status = 422
