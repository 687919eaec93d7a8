"""Item cards in the API: list the cards of my commanders (a GM: of every commander), ``?commander=<id>``;
a GM adds one (POST); the holder gives one (`give`) or destroys one (`destroy`). Destroyed cards are listed
with ``?destroyed=1``, for the record.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaign.economy import items, selectors
from campaign.economy.api import CampaignFilterMixin, _valid
from campaign.economy.serializers import ItemSerializer, OtherCommanderSerializer
from campaign.models import Item


@extend_schema(parameters=[OpenApiParameter("commander", int, description="Only this commander's cards."),
                           OpenApiParameter("destroyed", bool, description="1: also the destroyed cards.")])
class ItemViewSet(CampaignFilterMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = ItemSerializer
    filter_param = "commander"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Item.objects.none()
        if self.action == "give":  # a retried give finds the card with its new holder; the service decides
            return Item.objects.filter(commander__campaign__memberships__user=self.request.user).distinct()
        held = Item.objects.filter(commander__in=selectors.commanders_visible_to(user=self.request.user))
        if self.action == "list" and self.request.query_params.get("destroyed") != "1":
            held = held.filter(destroyed_at__isnull=True)
        return self.filtered(held).select_related("commander").order_by("commander_id", "name", "id")

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        if not getattr(self, "swagger_fake_view", False) and hasattr(serializer, "fields"):
            serializer.fields["commander"].queryset = selectors.commanders_visible_to(user=self.request.user)
        return serializer

    def perform_create(self, serializer):
        """A game master hands a commander a card (a player is refused with a 403)."""
        data = serializer.validated_data
        serializer.instance = items.item_add(commander=data["commander"], name=data["name"],
                                             kind=data.get("kind", Item.Kind.OTHER), actor=self.request.user)

    @extend_schema(request=OtherCommanderSerializer, responses={200: ItemSerializer})
    @action(detail=True, methods=["post"])
    def give(self, request, pk=None):
        """The holder gives the card to another commander of the campaign (`to`)."""
        item = self.get_object()
        to = _valid(OtherCommanderSerializer, request, campaign=item.commander.campaign_id).validated_data["to"]
        return Response(ItemSerializer(items.item_give(item=item, to=to, actor=request.user)).data)

    @extend_schema(request=None, responses={200: ItemSerializer})
    @action(detail=True, methods=["post"], url_path="destroy")
    def destroy_card(self, request, pk=None):
        """The holder (or a GM) destroys the card; it stays on record, destroyed."""
        return Response(ItemSerializer(items.item_destroy(item=self.get_object(), actor=request.user)).data,
                        status=status.HTTP_200_OK)
