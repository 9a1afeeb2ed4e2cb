"""The room's tables (a part of :class:`~riverboat.room.Room`, issue #29): the cash tables and Speed Poker pools open
here by id, who sits at which cash table, the lobby, and the check of a table's settings against the rules
(:func:`validate_table_spec`: R-TABLE-1, R-BUYIN-2, R-RAKE-5, R-STUD-1)."""

from __future__ import annotations

import secrets

from riverboat.engine import Hand, HandConfig
from riverboat.games import Kind, Structure, get_game
from riverboat.room.actor import Actor
from riverboat.room.deal import stakes_for
from riverboat.room.errors import RoomError
from riverboat.room.frames import LobbyEntry, PoolLobbyEntry, PoolView, TableView
from riverboat.room.rake import get_schedule, load_schedules, rake_key
from riverboat.room.settings import STRUCTURES, SpeedSpec, TableSettings, TableSpec
from riverboat.room.speed import SpeedPool
from riverboat.room.table import Table, TableHost


class Registry:
    """The open tables and pools of one room, and the cash tables of each player. Tables and pools opened before
    :meth:`start` start with it; later ones at once."""

    def __init__(self, host: TableHost) -> None:
        self.host = host  # the room: what every table and pool is opened with
        self.tables: dict[str, Table] = {}
        self.pools: dict[str, SpeedPool] = {}
        self.player_tables: dict[int, set[str]] = {}
        self.started = False
        self._counter = 0

    def start(self) -> None:
        self.started = True
        for t in self.tables.values():
            t.actor.start()
        for p in self.pools.values():
            p.actor.start()

    def actors(self) -> list[Actor]:
        return [t.actor for t in self.tables.values()] + [p.actor for p in self.pools.values()]

    def _new_id(self, prefix: str, name: str) -> str:
        self._counter += 1
        slug = "".join(ch for ch in name.lower() if ch.isalnum())[:24] or prefix
        return f"{prefix}{self._counter}-{slug}-{secrets.token_hex(3)}"

    def open_table(self, spec: TableSpec, table_id: str | None = None) -> str:
        """Open a cash table; ``table_id``: a given id (a cluster's stable one) instead of a new one."""
        settings = TableSettings.from_dict(spec.settings)
        validate_table_spec(spec)
        table_id = table_id or self._new_id("t", spec.name)
        if table_id in self.tables or table_id in self.pools:
            raise RoomError("bad_settings", f"table {table_id!r} is already open")
        table = Table(self.host, table_id, spec, settings)
        self.tables[table_id] = table
        if self.started:
            table.actor.start()
        return table_id

    def open_speed_pool(self, spec: SpeedSpec, pool_id: str | None = None) -> str:
        settings = TableSettings.from_dict(spec.settings)
        validate_table_spec(TableSpec(name=spec.name, game=spec.game, structure=spec.structure,
                                      small_blind=spec.small_blind, big_blind=spec.big_blind,
                                      max_seats=spec.table_size, min_buy_in=spec.min_buy_in,
                                      max_buy_in=spec.max_buy_in, currency=spec.currency, rake=spec.rake))
        if get_game(spec.game).kind is Kind.STUD:
            raise RoomError("bad_settings", "Speed Poker pools deal blind games only")
        pool_id = pool_id or self._new_id("s", spec.name)
        if pool_id in self.tables or pool_id in self.pools:
            raise RoomError("bad_settings", f"pool {pool_id!r} is already open")
        pool = SpeedPool(self.host, pool_id, spec, settings)
        self.pools[pool_id] = pool
        if self.started:
            pool.actor.start()
        return pool_id

    async def drop(self, table_id: str) -> None:
        """Forget a table or pool WITHOUT touching its money; its actor stops at once."""
        table = self.tables.pop(table_id, None)
        pool = self.pools.pop(table_id, None)
        for thing in (table, pool):
            if thing is None:
                continue
            thing.closed = True
            await thing.actor.stop()
            await thing.close()
        if table is not None:
            for st in table.seats.values():
                self.unseated(st.player_id, table_id)

    def table(self, table_id: object) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise RoomError("no_table", f"no table {table_id!r}")
        return table

    def pool(self, pool_id: object) -> SpeedPool:
        pool = self.pools.get(pool_id) if isinstance(pool_id, str) else None
        if pool is None:
            raise RoomError("no_pool", f"no Speed Poker pool {pool_id!r}")
        return pool

    def lobby(self) -> list[LobbyEntry]:
        entries: list[LobbyEntry] = [t.lobby_entry() for t in self.tables.values()]
        return entries + [p.lobby_entry() for p in self.pools.values()]

    def lobby_entry(self, table_id: str) -> LobbyEntry | None:
        """The lobby entry of one open cash table or Speed Poker pool (None: not open here)."""
        thing: Table | SpeedPool | None = self.tables.get(table_id) or self.pools.get(table_id)
        return thing.lobby_entry() if thing is not None else None

    def table_info(self, table_id: str) -> TableView | PoolLobbyEntry:
        """Spectator view of a cash table; for a Speed Poker pool id, the pool's lobby entry."""
        if isinstance(table_id, str) and table_id in self.pools:
            return self.pools[table_id].lobby_entry()
        return self.table(table_id).view_for(None)

    def speed_view(self, player_id: int, pool_id: str) -> PoolView:
        """A pool player's view: stack, waiting or the hand they are in (own cards only)."""
        return self.pool(pool_id).view_for(player_id)

    # ------------------------------------------------------------------ who sits where
    def seated(self, player_id: int, table_id: str) -> None:
        self.player_tables.setdefault(player_id, set()).add(table_id)

    def unseated(self, player_id: int, table_id: str) -> None:
        tables = self.player_tables.get(player_id)
        if tables is not None:
            tables.discard(table_id)
            if not tables:
                del self.player_tables[player_id]

    def tables_of(self, player_id: int) -> list[str]:
        return sorted(self.player_tables.get(player_id, ()))


def validate_table_spec(spec: TableSpec) -> None:
    """Refuse a table the rules do not allow (R-TABLE-1, R-BUYIN-2, R-RAKE-5...) with ``bad_settings``."""
    def bad(msg: str) -> RoomError:
        return RoomError("bad_settings", msg)

    if spec.mixed is not None:
        from riverboat.games import MIXED_ROTATIONS

        if spec.mixed not in MIXED_ROTATIONS:
            raise bad(f"unknown mixed game {spec.mixed!r}; known: {', '.join(MIXED_ROTATIONS)}")
        games = [(get_game(g), s) for g, s in MIXED_ROTATIONS[spec.mixed]]
    else:
        try:
            game = get_game(spec.game)
        except KeyError as exc:
            raise bad(str(exc.args[0])) from None
        if spec.structure not in STRUCTURES:
            raise bad(f"unknown structure {spec.structure!r}; known: {', '.join(STRUCTURES)}")
        structure = Structure(spec.structure)
        if structure not in game.structures:
            raise bad(f"{game.name} is not played {spec.structure}")
        games = [(game, structure)]
    for name in ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet", "min_buy_in"):
        v = getattr(spec, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise bad(f"{name} must be a non-negative integer (minor units), got {v!r}")
    if spec.max_buy_in is not None and (
        isinstance(spec.max_buy_in, bool) or not isinstance(spec.max_buy_in, int) or spec.max_buy_in < spec.min_buy_in
    ):
        raise bad("max_buy_in must be an integer not below min_buy_in")
    if spec.min_buy_in <= 0:
        raise bad("min_buy_in must be positive (R-BUYIN-2)")
    if not isinstance(spec.currency, str) or not spec.currency:
        raise bad("currency must be a code such as 'EUR' or 'PLAY'")
    if spec.rake not in load_schedules():
        raise bad(f"unknown rake schedule {spec.rake!r}; known: {', '.join(sorted(load_schedules()))}")
    for game, structure in games:
        if not 2 <= spec.max_seats <= game.max_players:
            raise bad(f"{game.name} seats 2 to {game.max_players} players (R-TABLE-1), not {spec.max_seats}")
        if structure.value in ("PL", "HPL", "NL") and spec.max_buy_in is None:
            raise bad("pot-limit, half-pot-limit and no-limit tables need a maximum buy-in (R-BUYIN-2)")
        stakes = stakes_for(spec, game, structure)
        if game.kind is Kind.STUD and spec.ante <= 0:
            where = f"the stud games of {spec.mixed}" if spec.mixed else game.name
            raise bad(f"{where}: every stud hand has antes (R-STUD-1, R-STUD-HL-1, R-ANTE-1); give the table an ante")
        if game.kind is not Kind.STUD and (spec.big_blind <= 0 or spec.small_blind <= 0):
            raise bad("blind games need positive blinds")
        if not spec.play_money:
            schedule = get_schedule(spec.rake)
            if not schedule.covers(structure.value, rake_key(stakes), spec.max_seats):
                raise bad(f"the {spec.rake} rake table has no row for {structure.value} at these stakes (R-RAKE-5)")
        try:  # a dry run of the engine with these stakes
            Hand(HandConfig(game=game, structure=structure, stakes=stakes, seats=[0, 1], stacks=[10**6, 10**6],
                            button=1, deck=list(game.deck.cards)))
        except ValueError as exc:
            raise bad(f"the engine refuses these stakes: {exc}") from None
