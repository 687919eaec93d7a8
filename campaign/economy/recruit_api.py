"""The recruit lists in the API: members read an Event's list (``?event=``) with each offer's price; a game
master adds an offer (POST), changes its terms (PATCH) or removes it (DELETE)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from campaign.catalogue.selectors import unit_types_for_campaign
from campaign.economy import selectors, services
from campaign.economy.api import _valid
from campaign.models import Event, EventRecruitOffer, UnitType
from campaign.web.numbers import MAX_AMOUNT, parse_id


class RecruitOfferSerializer(serializers.ModelSerializer):
    unit_type = serializers.CharField(source="unit_type.name", read_only=True)
    unit_type_id = serializers.IntegerField(read_only=True)
    strength = serializers.IntegerField(source="unit_type.strength", read_only=True, allow_null=True)
    price = serializers.SerializerMethodField(help_text="What recruiting it costs (after its quest for a quest "
                                                        "offer); null until the GMs set a price.")

    class Meta:
        model = EventRecruitOffer
        fields = ["id", "event", "unit_type", "unit_type_id", "strength", "by_quest", "gm_price", "note", "price"]
        read_only_fields = fields

    def get_price(self, offer: EventRecruitOffer) -> int | None:
        return selectors.recruit_offer_quote(offer=offer, quests_done=1)


class RecruitOfferWriteSerializer(serializers.Serializer):
    event = serializers.PrimaryKeyRelatedField(queryset=Event.objects.none())
    unit_type = serializers.PrimaryKeyRelatedField(queryset=UnitType.objects.none(),
                                                   help_text="A unit type of the campaign's catalogue.")
    by_quest = serializers.BooleanField(default=False)
    gm_price = serializers.IntegerField(min_value=0, max_value=MAX_AMOUNT, allow_null=True, default=None)
    note = serializers.CharField(max_length=300, allow_blank=True, default="")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None:
            self.fields["event"].queryset = Event.objects.filter(campaign__memberships__user=request.user)
            self.fields["unit_type"].queryset = UnitType.objects.all()  # the service checks the catalogue

    def validate(self, attrs):
        event, unit_type = attrs.get("event"), attrs.get("unit_type")
        if event and unit_type and not unit_types_for_campaign(campaign=event.campaign).filter(
                pk=unit_type.pk).exists():
            raise serializers.ValidationError({"unit_type": "Pick a unit type of this campaign's catalogue."})
        return attrs


@extend_schema_view(list=extend_schema(parameters=[OpenApiParameter("event", int, description="Only this Event.")]))
class RecruitOfferViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                          viewsets.ReadOnlyModelViewSet):
    serializer_class = RecruitOfferSerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return EventRecruitOffer.objects.none()
        offers = EventRecruitOffer.objects.filter(event__campaign__memberships__user=self.request.user)
        if (event := parse_id(self.request.query_params.get("event"))) is not None:
            offers = offers.filter(event_id=event)
        return offers.select_related("unit_type", "event").order_by("event_id", "unit_type__name", "pk")

    @extend_schema(request=RecruitOfferWriteSerializer, responses={201: RecruitOfferSerializer})
    def create(self, request, *args, **kwargs):
        offer = services.recruit_offer_set(actor=request.user, **_valid(RecruitOfferWriteSerializer,
                                                                       request).validated_data)
        return Response(RecruitOfferSerializer(offer).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RecruitOfferWriteSerializer, responses={200: RecruitOfferSerializer})
    def partial_update(self, request, *args, **kwargs):
        offer = self.get_object()
        body = RecruitOfferWriteSerializer(data=request.data, partial=True, context={"request": request})
        body.is_valid(raise_exception=True)
        terms = {"by_quest": offer.by_quest, "gm_price": offer.gm_price, "note": offer.note,
                 **{k: v for k, v in body.validated_data.items() if k in ("by_quest", "gm_price", "note")}}
        offer = services.recruit_offer_set(event=offer.event, unit_type=offer.unit_type, actor=request.user, **terms)
        return Response(RecruitOfferSerializer(offer).data)

    def perform_destroy(self, instance):
        services.recruit_offer_remove(offer=instance, actor=self.request.user)
