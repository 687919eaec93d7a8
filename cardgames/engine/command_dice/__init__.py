"""The Command Dice battle (shared/rules/command-dice-battle.txt, with RULINGS.md)."""

from cardgames.engine.command_dice.game import GAME, QUIET, CommandDiceGame, CommandDiceState
from cardgames.engine.command_dice.rules import DEFAULT_CONFIG, Rules, full_config, shuffle_outcomes

__all__ = ["DEFAULT_CONFIG", "GAME", "QUIET", "CommandDiceGame", "CommandDiceState", "Rules", "full_config",
           "shuffle_outcomes"]
