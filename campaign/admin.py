"""The Django admin, for superusers only (game masters work from the pages): each domain registers its own."""

from campaign.campaigns import admin as campaigns_admin
from campaign.catalogue import admin as catalogue_admin
from campaign.economy import admin as economy_admin
from campaign.map import admin as map_admin

__all__ = ["campaigns_admin", "catalogue_admin", "economy_admin", "map_admin"]
