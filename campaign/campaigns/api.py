"""The campaign API: campaigns, events, days and memberships. Thin: parse, check, call a service."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework import mixins, permissions, serializers, viewsets
from rest_framework.exceptions import NotFound

from campaign.campaigns import audit, selectors, services
from campaign.campaigns.permissions import Action, membership_for, require
from campaign.models import Campaign, Day, Event, Membership, Role
from campaign.web.numbers import parse_id


class CampaignSerializer(serializers.ModelSerializer):
    my_role = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = ["id", "name", "slug", "description", "house_rules", "created_at", "my_role"]
        read_only_fields = ["slug", "created_at", "my_role"]

    def get_my_role(self, campaign: Campaign) -> str | None:
        membership = membership_for(user=self.context["request"].user, campaign=campaign)
        return membership.role if membership else None


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = ["id", "campaign", "name", "starts_at", "ends_at", "status", "minutes_per_hour", "current_hour"]
        read_only_fields = ["status", "current_hour"]

    def validate(self, attrs):
        starts = attrs.get("starts_at", getattr(self.instance, "starts_at", None))
        ends = attrs.get("ends_at", getattr(self.instance, "ends_at", None))
        if starts and ends and ends <= starts:
            raise serializers.ValidationError({"ends_at": "An Event must end after it starts: pick a later end."})
        return attrs


class DaySerializer(serializers.ModelSerializer):
    class Meta:
        model = Day
        fields = ["id", "event", "number", "status", "opened_at", "closed_at"]
        read_only_fields = fields


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.SlugRelatedField(source="user", slug_field="username",
                                            queryset=get_user_model().objects.all())

    class Meta:
        model = Membership
        fields = ["id", "campaign", "username", "role", "joined_at"]
        read_only_fields = ["joined_at"]
        validators: list = []  # the service refuses duplicates with a sentence that says what to do


class MemberScopedMixin:
    """Rows of my campaigns only (others are a 404), an optional ``?<filter_param>=<id>`` filter,
    and writable `campaign` fields limited to my campaigns (others read as 'does not exist')."""

    visible_to: staticmethod
    filter_param: str | None = None
    ordering: tuple[str, ...] = ("id",)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return self.get_serializer_class().Meta.model.objects.none()
        queryset = self.visible_to(user=self.request.user)
        value = parse_id(self.request.query_params.get(self.filter_param or ""))
        if self.filter_param and value is not None:
            queryset = queryset.filter(**{f"{self.filter_param}_id": value})
        return queryset.order_by(*self.ordering)

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        if "campaign" in getattr(serializer, "fields", {}) and self.request and self.request.user.is_authenticated:
            serializer.fields["campaign"].queryset = selectors.campaigns_visible_to(user=self.request.user)
        return serializer


class CampaignViewSet(MemberScopedMixin, viewsets.ModelViewSet):
    """Campaigns I am in. Creating one makes me its GM; editing and deleting need the GM role."""

    serializer_class = CampaignSerializer
    permission_classes = [permissions.IsAuthenticated]
    visible_to = staticmethod(selectors.campaigns_visible_to)
    ordering = ("name", "id")

    def perform_create(self, serializer):
        serializer.instance = services.campaign_create(
            name=serializer.validated_data["name"], creator=self.request.user,
            description=serializer.validated_data.get("description", ""),
        )

    def perform_update(self, serializer):
        require(membership_for(user=self.request.user, campaign=serializer.instance), Action.EDIT_CAMPAIGN)
        data = serializer.validated_data
        services.campaign_update(campaign=serializer.instance, actor=self.request.user, name=data.get("name"),
                                 description=data.get("description"), house_rules=data.get("house_rules"))

    def perform_destroy(self, instance):
        require(membership_for(user=self.request.user, campaign=instance), Action.DELETE_CAMPAIGN)
        instance.delete()


class EventViewSet(MemberScopedMixin, viewsets.ModelViewSet):
    """Events of my campaigns (``?campaign=<id>``); GMs create and change them."""

    serializer_class = EventSerializer
    visible_to = staticmethod(selectors.events_visible_to)
    filter_param = "campaign"
    ordering = ("starts_at", "id")

    def perform_create(self, serializer):
        campaign = serializer.validated_data["campaign"]
        require(membership_for(user=self.request.user, campaign=campaign), Action.MANAGE_EVENTS)
        data = serializer.validated_data
        serializer.instance = services.event_create(
            campaign=campaign, name=data["name"], starts_at=data["starts_at"], ends_at=data["ends_at"],
            minutes_per_hour=data.get("minutes_per_hour", 60), actor=self.request.user,
        )

    def perform_update(self, serializer):
        require(membership_for(user=self.request.user, campaign=serializer.instance.campaign_id),
                Action.MANAGE_EVENTS)
        fields = {k: v for k, v in serializer.validated_data.items() if k != "campaign"}
        services.event_update(event=serializer.instance, actor=self.request.user, **fields)

    def perform_destroy(self, instance):
        require(membership_for(user=self.request.user, campaign=instance.campaign_id), Action.MANAGE_EVENTS)
        audit.audit_record(campaign=instance.campaign, actor=self.request.user, action="event.delete",
                           target=instance)
        instance.delete()


class DayViewSet(MemberScopedMixin, viewsets.ReadOnlyModelViewSet):
    """Days of my campaigns' events (``?event=<id>``), opened and closed by the event clock."""

    serializer_class = DaySerializer
    visible_to = staticmethod(selectors.days_visible_to)
    filter_param = "event"
    ordering = ("event_id", "number")


class MembershipViewSet(MemberScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                        mixins.CreateModelMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                        viewsets.GenericViewSet):
    """Who is in my campaigns (``?campaign=<id>``). GMs add, re-role and remove members."""

    serializer_class = MembershipSerializer
    visible_to = staticmethod(selectors.memberships_visible_to)
    filter_param = "campaign"
    ordering = ("campaign_id", "role", "user__username")

    def perform_create(self, serializer):
        campaign = serializer.validated_data["campaign"]
        require(membership_for(user=self.request.user, campaign=campaign), Action.MANAGE_MEMBERS)
        serializer.instance = services.membership_add(
            campaign=campaign, user=serializer.validated_data["user"],
            role=serializer.validated_data.get("role", Role.PLAYER), actor=self.request.user,
        )

    def perform_update(self, serializer):
        membership = serializer.instance
        require(membership_for(user=self.request.user, campaign=membership.campaign_id), Action.MANAGE_MEMBERS)
        if serializer.validated_data.get("campaign", membership.campaign) != membership.campaign or \
                serializer.validated_data.get("user", membership.user) != membership.user:
            raise serializers.ValidationError({"role": "Only the role of a membership can change."})
        role = serializer.validated_data.get("role", membership.role)
        services.membership_set_role(membership=membership, role=role, actor=self.request.user)

    def perform_destroy(self, instance):
        require(membership_for(user=self.request.user, campaign=instance.campaign_id), Action.MANAGE_MEMBERS)
        services.membership_remove(membership=instance, actor=self.request.user)

    def get_object(self):
        try:
            return super().get_object()
        except NotFound:
            raise NotFound("No such membership in your campaigns.") from None
