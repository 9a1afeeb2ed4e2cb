"""Table specifications and per-table settings (every CONFLICT of RULES.md is a setting with its default).

``TableSpec`` describes a cash table; ``TableSettings`` holds the rule settings that the sources leave open or
disagree on; ``SpeedSpec`` describes a Speed Poker pool (R-SPEED). All amounts are integer minor units.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from riverboat.games.catalog import OddChip, PostDrawFirst
from riverboat.room.errors import RoomError

STRUCTURES = ("FL", "SL", "PL", "HPL", "NL")
CURRENCY_PLAY = "PLAY"
GAME_DEFAULT = "game"  # a reading setting left to the game's own default (RULES.md's)
#: The values of each reading setting given as text (RULES.md section 27)
READING_CHOICES: dict[str, tuple[str, ...]] = {
    "odd_chip": (GAME_DEFAULT, *(o.value for o in OddChip)),
    "post_draw_first": (GAME_DEFAULT, *(p.value for p in PostDrawFirst)),
    "thirty_two_ties": (GAME_DEFAULT, "split", "suits"),
}


class DisconnectPolicy(StrEnum):
    """R-AAI-6 (CONFLICT C-8): what happens to a disconnected player whose reconnect window runs out."""

    CHECK_FOLD = "check_fold"  # default, 000/001: check if free, else fold
    ARTIFICIAL_ALLIN = "artificial_allin"  # 002/004: all-in for the chips committed (FL/SL real money, R-AAI-4)


class MissedBlindPolicy(StrEnum):
    """R-MISSED-2 (CONFLICT C-5): what a player who missed both blinds posts to come back at once."""

    BB_LIVE_PLUS_SB_DEAD = "bb_plus_dead_sb"  # default, 004
    SB_DEAD_ONLY = "sb_dead"  # 002: a bet equal to the small blind, dead


class AutodrawPriorityOne(StrEnum):
    """R-AUTODRAW-2 (CONFLICT C-9): priority 1 of the automatic-draw keep list."""

    TWO_PAIR_OR_BETTER = "two_pair"  # default, 000
    PAIR_OR_BETTER = "pair"  # 001


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Per-table rule settings. Times in seconds."""

    action_seconds: float = 20.0  # R-TIME-1, R-TIME-2
    draw_seconds: float = 30.0  # R-TIME-4
    timebank_seconds: float = 30.0  # R-TIME-3 reading: a room parameter (size)
    timebank_refill_seconds: float = 5.0  # R-TIME-3 reading: added after every hand the player is dealt into...
    timebank_max_seconds: float = 60.0  # ...up to this maximum
    reconnect_seconds: float = 30.0  # R-DISC-1, R-TIME-5
    sitout_evict_seconds: float = 420.0  # R-SITOUT-3, R-DISC-3, R-TIME-6 (7 minutes)
    disconnect_policy: DisconnectPolicy = DisconnectPolicy.CHECK_FOLD  # the R-AAI-2 allowance is per room
    missed_blind_policy: MissedBlindPolicy = MissedBlindPolicy.BB_LIVE_PLUS_SB_DEAD
    autodraw_priority_one: AutodrawPriorityOne = AutodrawPriorityOne.TWO_PAIR_OR_BETTER
    min_players: int = 2  # R-CASH-2 reading
    between_hands_seconds: float = 2.0  # pause after a hand before the next deal
    allin_runout_seconds: float = 0.0  # R-SHOW-4 reading: the pause per street of an all-in run-out (hands face up)
    cash_out_on_crash: bool = True  # R-SERVER-3; not given: the room's flag (Room(cash_out_on_crash=...))
    straddle: bool = False  # R-STRADDLE (NL hold'em only)
    run_it_twice: bool = True  # R-RIT: offer the vote when all-in before the river (games that allow it)
    rotation_mode: str = "orbit"  # R-HORSE-3: "orbit" or "hands"
    hands_per_game: int = 8  # R-HORSE-3 when rotation_mode == "hands"
    speed_max_wait_seconds: float = 3.0  # R-SPEED-2 reading: deal a short table rather than wait longer
    # The other CONFLICT/UNCLEAR readings of RULES.md section 27 that the engine supports ("game": the game's own
    # reading, RULES.md's default; see riverboat.room.deal.engine_settings / table_game):
    odd_chip: str = GAME_DEFAULT  # C-6, C-7 (R-ODD-1, R-ODD-3): "game" or an OddChip value
    muck_losers: bool = True  # R-SHOW-4: a losing hand that need not be shown is mucked (False: every hand shown)
    stud_community_betting: bool = True  # U-13 (R-INSUF-4): False = no betting after a community seventh card
    post_draw_first: str = GAME_DEFAULT  # C-2 (R-DRAW32-6, R-HOLDEM-8): "game" or a PostDrawFirst value
    thirty_two_ties: str = GAME_DEFAULT  # C-14 (R-RANK-32-9): "game", "split" or "suits" (32-card games)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableSettings:
        if not data:
            return cls()
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RoomError("bad_settings", f"unknown table settings: {', '.join(unknown)}")
        out = cls()
        try:
            conv: dict[str, Any] = {}
            for key, value in data.items():
                default = getattr(out, key)
                if isinstance(default, StrEnum):
                    conv[key] = type(default)(value)
                elif isinstance(default, bool):
                    if not isinstance(value, bool):
                        raise ValueError(f"{key} must be true or false")
                    conv[key] = value
                elif isinstance(default, int):
                    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                        raise ValueError(f"{key} must be a non-negative integer")
                    conv[key] = value
                elif isinstance(default, float):
                    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                        raise ValueError(f"{key} must be a non-negative number of seconds")
                    conv[key] = float(value)
                else:
                    conv[key] = value
            out = replace(out, **conv)
        except ValueError as exc:
            raise RoomError("bad_settings", f"bad table setting: {exc}") from None
        if out.rotation_mode not in ("orbit", "hands"):
            raise RoomError("bad_settings", "rotation_mode must be 'orbit' or 'hands'")
        if out.min_players < 2:
            raise RoomError("bad_settings", "min_players must be at least 2")
        if out.hands_per_game < 1:
            raise RoomError("bad_settings", "hands_per_game must be at least 1")
        for name, allowed in READING_CHOICES.items():
            value = getattr(out, name)
            if value not in allowed:
                raise RoomError("bad_settings", f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        return out


def table_id_for(index: int, name: str, speed: bool) -> str:
    """The id of the ``index``-th table of a room's table list: stable across restarts and cluster hosts (the same
    list gives the same ids), so the chips and seats the store keeps for a table find it again (R-SERVER-3)."""
    slug = "".join(ch for ch in name.lower() if ch.isalnum())[:24] or "table"
    return f"{'s' if speed else 't'}{index + 1}-{slug}"


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A cash table. ``game``/``structure`` name the first game of a mixed table (``mixed``)."""

    name: str
    game: str = "holdem"
    structure: str = "NL"
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0  # FL: defaults to big_blind (R-FL-3 default); stud: the completion
    big_bet: int = 0  # FL: defaults to 2 x small_bet
    spread: tuple[int, ...] = ()  # SL: per-round maximum bets (R-SL-2)
    max_seats: int = 6
    min_buy_in: int = 40
    max_buy_in: int | None = 200  # None: all the player's money (FL/SL only, R-BUYIN-2/3)
    currency: str = "EUR"
    rake: str = "ipoker"  # rake schedule name (R-RAKE-5); play money is never raked
    mixed: str | None = None  # "horse" | "8game"
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def play_money(self) -> bool:
        return self.currency == CURRENCY_PLAY


@dataclass(frozen=True, slots=True)
class SpeedSpec:
    """A Speed Poker pool for one game and stake (R-SPEED-2 reading)."""

    name: str
    game: str = "holdem"
    structure: str = "NL"
    small_blind: int = 1
    big_blind: int = 2
    table_size: int = 6
    min_buy_in: int = 40
    max_buy_in: int | None = 200
    currency: str = "EUR"
    rake: str = "ipoker"
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def play_money(self) -> bool:
        return self.currency == CURRENCY_PLAY

    def table_spec(self) -> TableSpec:
        """The equivalent cash-table spec (stakes, buy-ins, rake) of one pool table."""
        return TableSpec(name=self.name, game=self.game, structure=self.structure, small_blind=self.small_blind,
                         big_blind=self.big_blind, max_seats=self.table_size, min_buy_in=self.min_buy_in,
                         max_buy_in=self.max_buy_in, currency=self.currency, rake=self.rake, settings=self.settings)
