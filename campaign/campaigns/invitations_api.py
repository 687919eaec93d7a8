"""The invitations API: a GM creates, lists and revokes a campaign's invitation links; anyone signed in joins
with a code. Thin like the rest: parse, check the role, call the service."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.campaigns import selectors, services
from campaign.campaigns.api import MemberScopedMixin, MembershipSerializer
from campaign.campaigns.permissions import Action, membership_for, require
from campaign.models import Invitation, Role

DEFAULT_DAYS = 14


class InvitationSerializer(serializers.ModelSerializer):
    link = serializers.SerializerMethodField()
    expires_at = serializers.DateTimeField(required=False, help_text=f"Default: {DEFAULT_DAYS} days from now.")
    valid = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = ["id", "campaign", "role", "code", "link", "expires_at", "max_uses", "uses", "revoked_at",
                  "created_at", "valid"]
        read_only_fields = ["code", "link", "uses", "revoked_at", "created_at", "valid"]

    def get_link(self, invitation: Invitation) -> str:
        return self.context["request"].build_absolute_uri(reverse("join", args=[invitation.code]))

    def get_valid(self, invitation: Invitation) -> bool:
        return not selectors.invitation_refusal(invitation)


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=64)


class InvitationViewSet(MemberScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                        mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Invitation links of the campaigns I am a GM of (``?campaign=<id>``); a player lists none."""

    serializer_class = InvitationSerializer
    visible_to = staticmethod(selectors.invitations_managed_by)
    filter_param = "campaign"
    ordering = ("-created_at", "-id")

    def perform_create(self, serializer):
        data = serializer.validated_data
        require(membership_for(user=self.request.user, campaign=data["campaign"]), Action.MANAGE_MEMBERS)
        serializer.instance = services.invitation_create(
            campaign=data["campaign"], actor=self.request.user, role=data.get("role", Role.PLAYER),
            expires_at=data.get("expires_at") or timezone.now() + timedelta(days=DEFAULT_DAYS),
            max_uses=data.get("max_uses"),
        )

    def get_object(self):
        try:
            return super().get_object()
        except NotFound:
            raise NotFound("No such invitation in the campaigns you are a game master of.") from None

    @extend_schema(request=None, responses=InvitationSerializer)
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, pk: str | None = None) -> Response:
        """Nobody joins with it from now on; those who joined stay. Revoking twice changes nothing."""
        invitation = self.get_object()
        require(membership_for(user=request.user, campaign=invitation.campaign_id), Action.MANAGE_MEMBERS)
        invitation = services.invitation_revoke(invitation=invitation, actor=request.user)
        return Response(self.get_serializer(invitation).data)

    @extend_schema(request=JoinSerializer, responses={
        201: MembershipSerializer, 200: OpenApiResponse(MembershipSerializer, description="Already a member."),
        400: OpenApiResponse(description="Unknown, revoked, expired or used-up code, with what to do.")})
    @action(detail=False, methods=["post"], serializer_class=JoinSerializer)
    def join(self, request: Request) -> Response:
        """Join the campaign with the code's role; joining again changes nothing and answers 200."""
        form = JoinSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        joined = services.invitation_join(code=form.validated_data["code"], user=request.user)
        return Response(MembershipSerializer(joined.membership, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED if joined.new else status.HTTP_200_OK)
