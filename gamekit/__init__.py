"""The game kit every engine shares: seeded dice, rule errors, events, the game protocol, replay, the random,
greedy and search (ISMCTS) players and the simulator. Pure: imports the standard library only, never Django,
battles or cardgames (battles/engine and cardgames/engine import it, never each other).
"""
