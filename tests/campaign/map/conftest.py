"""The map tests' shared scene: a player's army, an enemy army revealed to them and one hidden from them."""

import pytest

from campaign.map import services as map_services
from tests.campaign.factories import CommanderFactory
from tests.campaign.map_fixtures import make_army, make_map, ready

HIDDEN = "Shadow Legion of Vashti"


@pytest.fixture
def scene(campaign, event, gm, player):
    ready(event)
    board = make_map(campaign)
    mine = make_army(board, commander=CommanderFactory(campaign=campaign, player=player, name="Amira"),
                     at=(5, 5), name="Ford Guard")
    emir = CommanderFactory(campaign=campaign, name="Emir")
    hidden = make_army(board, commander=emir, at=(30, 30), name=HIDDEN)
    seen = make_army(board, commander=emir, at=(20, 20), name="Banner Host")
    map_services.reveal_create(army=seen, to_commander=mine.commander, what="position", actor=gm)
    return {"map": board, "mine": mine, "hidden": hidden, "seen": seen}
