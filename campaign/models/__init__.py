"""Every model of the campaign app, one module per domain, re-exported here: `from campaign.models import Army`.

The app label stays `campaign` and the migrations are as before; Django finds the models through this module.
Migrations 0003 and 0004 name the upload paths `campaign.models._artwork_path` and `_map_picture_path`, so
those two are re-exported too. The model modules import Django, each other and the pure economy rules
(campaign.economy.rules), nothing else of the project.
"""

from __future__ import annotations

from campaign.models.campaigns import AuditEntry, Campaign, Day, Event, Heartbeat, Invitation, Membership, Role
from campaign.models.catalogue import UnitPath, UnitRole, UnitType, _artwork_path
from campaign.models.chronicle import FeedToken
from campaign.models.commanders import (
    POWER_CHOICES,
    TACTICIAN_CHOICE_CHOICES,
    Army,
    ArmyDayActivity,
    Commander,
    Item,
    Unit,
    UnitTraining,
)
from campaign.models.economy import (
    EventRecruitOffer,
    FundingRequest,
    QuestCompletion,
    UpkeepArrears,
    UpkeepBill,
    UpkeepLine,
    UpkeepMoralePledge,
)
from campaign.models.idempotency import IdempotentRequest
from campaign.models.ledger import (
    Account,
    EscrowHold,
    ImmutableLedgerError,
    LedgerEntry,
    LedgerEntryQuerySet,
    LedgerTransaction,
)
from campaign.models.map import (
    Base,
    DueBattle,
    HourLog,
    Location,
    MoveOrder,
    Reveal,
    TacticalMap,
    TerrainRegion,
    _map_picture_path,
)
from campaign.models.notifications import Notification, NotificationPreference, PushSubscription
from campaign.models.reversals import Reversible

__all__ = [
    "POWER_CHOICES", "TACTICIAN_CHOICE_CHOICES", "Account", "Army", "ArmyDayActivity", "AuditEntry", "Base",
    "Campaign", "Commander", "Day", "DueBattle", "EscrowHold", "Event", "EventRecruitOffer", "FeedToken",
    "FundingRequest",
    "Heartbeat", "HourLog", "IdempotentRequest", "ImmutableLedgerError", "Invitation", "Item", "LedgerEntry",
    "LedgerEntryQuerySet",
    "LedgerTransaction",
    "Location", "Membership", "MoveOrder", "Notification", "NotificationPreference", "PushSubscription",
    "QuestCompletion", "Reveal", "Reversible", "Role", "TacticalMap", "TerrainRegion",
    "Unit", "UnitPath", "UnitRole", "UnitTraining", "UnitType", "UpkeepArrears", "UpkeepBill", "UpkeepLine",
    "UpkeepMoralePledge",
    "_artwork_path", "_map_picture_path",
]
