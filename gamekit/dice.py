"""The only source of chance in a game: seeded or scripted dice whose every outcome is logged, so a game
can be stored and replayed; and dice in words for the logs.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Any

from gamekit.errors import RuleError
from gamekit.words import and_list


class DiceScriptExhausted(RuleError):
    """Scripted dice ran out: a test or a replayed record supplied fewer outcomes than the game drew."""

    def __init__(self) -> None:
        super().__init__("dice", "The scripted dice ran out: supply more outcomes for this game.")


class Dice:
    """The only source of chance in a game.

    Seeded (``Dice(seed=7)``) or scripted (``Dice.scripted([5, 2, 4])``: the outcomes
    people rolled at a table, or a test's dice). Every outcome drawn is appended to
    ``log`` unless logging is off (``log=None``), so a game can be stored and replayed.
    A scripted die that does not fit the dice asked for is refused.
    """

    __slots__ = ("_random", "_script", "log", "seed")

    def __init__(self, seed: int | None = None, *, script: Iterable[int] | None = None,
                 log: bool = True) -> None:
        self.seed = seed
        self._random = random.Random(seed).random
        self._script: deque[int] | None = deque(script) if script is not None else None
        self.log: list[int] | None = [] if log else None

    @classmethod
    def scripted(cls, outcomes: Iterable[int]) -> Dice:
        return cls(script=outcomes)

    def roll(self, sides: int) -> int:
        """One die with `sides` faces: 1..sides."""
        if self._script is not None:
            if not self._script:
                raise DiceScriptExhausted()
            value = self._script.popleft()
            if not 1 <= value <= sides:
                raise RuleError("dice", f"A scripted d{sides} showed {value}: it must be 1 to {sides}.")
        else:
            value = int(self._random() * sides) + 1
        if self.log is not None:
            self.log.append(value)
        return value

    def rolls(self, sides: int, n: int) -> list[int]:
        """`n` dice with `sides` faces, as `n` calls of roll would give them (the same draws, the same log), in
        one call: the engines that roll handfuls at a time spend less of their time calling. A plain loop, not a
        comprehension: handfuls are small, and a comprehension is one more call to make."""
        if self._script is not None:
            return [self.roll(sides) for _ in range(n)]
        draw, faces = self._random, []
        for _ in range(n):
            faces.append(int(draw() * sides) + 1)
        if self.log is not None:
            self.log.extend(faces)
        return faces

    def d6(self) -> int:
        return self.roll(6)

    def below(self, n: int) -> int:
        """A uniform index 0..n-1 (recorded as a d`n` outcome 1..n)."""
        return self.roll(n) - 1

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place; each swap index is one recorded outcome. Unscripted dice draw every index first
        (the same draws `roll` makes, in the same order), so a shuffled deck costs no call per card."""
        tops = range(len(items) - 1, 0, -1)
        if self._script is not None:
            for i in tops:
                j = self.roll(i + 1) - 1
                items[i], items[j] = items[j], items[i]
            return
        draw = self._random
        faces = [int(draw() * (i + 1)) + 1 for i in tops]
        if self.log is not None:
            self.log.extend(faces)
        for i, face in zip(tops, faces, strict=True):
            items[i], items[face - 1] = items[face - 1], items[i]

    @classmethod
    def drawing_from(cls, rng: random.Random) -> Dice:
        """Unlogged dice that draw from `rng` itself: the chance of a search's determinized world, drawn
        from the search's own generator. Seeding a generator of its own costs as much as a search step."""
        dice = cls.__new__(cls)
        dice.seed, dice._random, dice._script, dice.log = None, rng.random, None, None
        return dice

    def fork(self, seed: int) -> Dice:
        """A new, independent, unlogged stream (for clones used by search and simulation)."""
        return Dice(seed, log=False)

    @property
    def scripted_left(self) -> int:
        return len(self._script) if self._script is not None else 0

    def dump(self) -> dict[str, Any]:
        """JSON-able: the seed, the log, what is left of a script, and (when nothing was logged)
        the generator's state, so `load` resumes the same stream."""
        data: dict[str, Any] = {"seed": self.seed, "log": None if self.log is None else list(self.log),
                                "script": None if self._script is None else list(self._script)}
        if self.log is None and self._script is None:
            version, internal, gauss = self._random.__self__.getstate()  # type: ignore[attr-defined]
            data["state"] = [version, list(internal), gauss]
        return data

    @classmethod
    def load(cls, data: dict[str, Any]) -> Dice:
        """The dice `dump` described, resuming where they left off."""
        dice = cls(data.get("seed"), script=data.get("script"), log=data.get("log") is not None)
        if data.get("state") is not None:
            version, internal, gauss = data["state"]
            dice._random.__self__.setstate((version, tuple(internal), gauss))  # type: ignore[attr-defined]
        elif dice._script is None and data.get("log"):
            draw = dice._random
            for _ in data["log"]:  # one draw per outcome, whatever the die
                draw()
        if data.get("log") is not None:
            dice.log = list(data["log"])
        return dice


def dice_text(faces: Iterable[int]) -> str:
    """Dice as a person reads them in a log: '5', '2 and 2', '6, 3 and 1' ('no dice' for none)."""
    return and_list([str(f) for f in faces]) or "no dice"
