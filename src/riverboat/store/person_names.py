"""Names like people's for the room's bots (R-ALIAS-5: 4 to 16 letters and digits), instead of ``PlayerNNNNNNNN``:
the demo's table bots, its tournament and Twister fill bots. Plain data, here so that every layer that makes bots
(store, room, server, bots) can use it."""

from __future__ import annotations

import random

FIRST = (
    "Anna", "Arturs", "Baiba", "Dainis", "Egle", "Elina", "Gints", "Helmi", "Ilze", "Janis", "Jonas", "Karlis",
    "Kristi", "Laura", "Liene", "Lukas", "Maris", "Marta", "Mikk", "Oskars", "Paula", "Peeter", "Raimo", "Rasa",
    "Rihards", "Sandra", "Santa", "Tanel", "Toomas", "Ugne", "Vaida", "Viktor", "Zane", "Agnes", "Bruno", "Clara",
    "Dmitri", "Emil", "Freya", "Greta", "Hugo", "Iris", "Jakob", "Klara", "Leon", "Mila", "Nora", "Otto", "Petra",
    "Quinn", "Rosa", "Sven", "Tilda", "Ulla", "Vera", "Walt", "Yara", "Zoltan",
)
STYLE = ("", "", "River", "Ace", "Lucky", "Big", "Mr")


def person_alias(rng: random.Random, taken: set[str]) -> str:
    """A fresh alias such as ``Marta``, ``Jonas77`` or ``LuckyIlze`` not in ``taken`` (case-insensitive)."""
    for attempt in range(200):
        name = rng.choice(STYLE) + rng.choice(FIRST)
        if attempt > 0 or rng.random() < 0.4:
            name += str(rng.randint(1, 99))
        name = name[:16]
        if len(name) >= 4 and name.lower() not in taken:
            taken.add(name.lower())
            return name
    raise RuntimeError("no free alias")  # pragma: no cover - 58 names x 7 styles x 99 numbers
