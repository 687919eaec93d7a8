"""Reversals in the API: a game master lists the records of a campaign that may be reversed (``?campaign=<id>``),
each with why it cannot be now, and reverses one with a reason. Thin: parse, call the service. A retried
reversal answers the reversed record again and changes nothing."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.campaigns import selectors
from campaign.campaigns.api import MemberScopedMixin
from campaign.campaigns.reversals import reversal_refusal, reversible_reverse
from campaign.models import Reversible


class ReversibleSerializer(serializers.ModelSerializer):
    refusal = serializers.SerializerMethodField(help_text="Why it cannot be reversed now (null: it can).")

    class Meta:
        model = Reversible
        fields = ["id", "campaign", "event", "kind", "target_id", "label", "recorded_at", "recorded_by",
                  "transactions", "reversed_at", "reversed_by", "reason", "reversal_transactions", "refusal"]
        read_only_fields = fields

    def get_refusal(self, record: Reversible) -> str | None:
        return None if record.is_reversed else reversal_refusal(record=record)


class ReverseSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="Why it is reversed: the audit trail keeps it.")


class ReversibleViewSet(MemberScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                        viewsets.GenericViewSet):
    """Applied Battle results, processed hours and closed Days of the campaigns I am a game master of, most
    recent first; a player lists none."""

    serializer_class = ReversibleSerializer
    visible_to = staticmethod(selectors.reversibles_managed_by)
    filter_param = "campaign"
    ordering = ("-id",)

    def get_object(self):
        try:
            return super().get_object()
        except NotFound:
            raise NotFound("No such record in the campaigns you are a game master of.") from None

    @extend_schema(request=ReverseSerializer, responses=ReversibleSerializer)
    @action(detail=True, methods=["post"], serializer_class=ReverseSerializer)
    def reverse(self, request: Request, pk: str | None = None) -> Response:
        """Reverse it with correcting records, most recent first; reversing twice changes nothing."""
        record = self.get_object()
        form = ReverseSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        record = reversible_reverse(record=record, actor=request.user, reason=form.validated_data["reason"])
        return Response(ReversibleSerializer(record).data)
