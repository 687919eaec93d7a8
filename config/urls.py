"""URLs: pages, the API under /api/ (schema and offline docs), the admin, log in and out."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from battles.api import BattleViewSet, SkirmishOddsView
from campaign.campaigns.api import CampaignViewSet, DayViewSet, EventViewSet, MembershipViewSet
from campaign.campaigns.invitations_api import InvitationViewSet
from campaign.campaigns.reversals_api import ReversibleViewSet
from campaign.catalogue.api import UnitTypeViewSet
from campaign.economy.api import ArrearsViewSet, CommanderViewSet, FundingRequestViewSet, UnitViewSet, UpkeepDayViewSet
from campaign.economy.items_api import ItemViewSet
from campaign.economy.recruit_api import RecruitOfferViewSet
from campaign.map.api import (
    ArmyViewSet,
    BaseViewSet,
    LocationViewSet,
    MoveOrderViewSet,
    RevealViewSet,
    TacticalMapViewSet,
    TerrainRegionViewSet,
)
from campaign.map.clock_api import DueBattleViewSet, EventClockViewSet
from campaign.web import installable
from campaign.web.api_router import IdRouter
from campaign.web.login_limits import LimitedLoginView, LimitedObtainAuthToken
from cardgames.api import ChallengeViewSet, MatchViewSet


def _superusers_only(request) -> bool:
    """Every game master task has a page and an endpoint: the Django admin is kept for superusers."""
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = _superusers_only  # type: ignore[method-assign]

router = IdRouter()
router.register("campaigns", CampaignViewSet, basename="campaign")
router.register("events", EventViewSet, basename="event")
router.register("days", DayViewSet, basename="day")
router.register("memberships", MembershipViewSet, basename="membership")
router.register("invitations", InvitationViewSet, basename="invitation")
router.register("reversals", ReversibleViewSet, basename="reversal")
router.register("commanders", CommanderViewSet, basename="commander")
router.register("units", UnitViewSet, basename="unit")
router.register("items", ItemViewSet, basename="item")
router.register("recruit-offers", RecruitOfferViewSet, basename="recruit-offer")
router.register("unit-types", UnitTypeViewSet, basename="unit-type")
router.register("funding-requests", FundingRequestViewSet, basename="funding-request")
router.register("arrears", ArrearsViewSet, basename="arrears")
router.register("upkeep-days", UpkeepDayViewSet, basename="upkeep-day")
router.register("matches", MatchViewSet, basename="match")
router.register("challenges", ChallengeViewSet, basename="challenge")
router.register("battles", BattleViewSet, basename="battle")
router.register("maps", TacticalMapViewSet, basename="map")
router.register("terrain-regions", TerrainRegionViewSet, basename="terrain-region")
router.register("locations", LocationViewSet, basename="location")
router.register("bases", BaseViewSet, basename="base")
router.register("armies", ArmyViewSet, basename="army")
router.register("move-orders", MoveOrderViewSet, basename="move-order")
router.register("reveals", RevealViewSet, basename="reveal")
router.register("event-clocks", EventClockViewSet, basename="event-clock")
router.register("due-battles", DueBattleViewSet, basename="due-battle")

urlpatterns = [
    path("accounts/login/", LimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("sw.js", installable.service_worker, name="service-worker"),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("api/odds/skirmish/", SkirmishOddsView.as_view(), name="api-skirmish-odds"),
    path("api/", include(router.urls)),
    path("api/token/", LimitedObtainAuthToken.as_view(), name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("", include("cardgames.urls")),
    path("", include("battles.urls")),
    path("", include("campaign.urls")),
]

handler404 = "campaign.web.error_views.not_found"
handler500 = "campaign.web.error_views.server_error"
