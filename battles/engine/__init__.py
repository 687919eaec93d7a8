"""The Army Combat battle engine: pure rules, no Django. `GAME` implements the shared game protocol."""

from .game import GAME, BattleGame

__all__ = ["GAME", "BattleGame"]
