"""A campaign's export as bytes, for tests that take it apart or upload it again."""

from __future__ import annotations

import io

from campaign.transfer.export import campaign_export


def export_bytes(campaign, actor=None) -> bytes:
    buffer = io.BytesIO()
    campaign_export(campaign=campaign, actor=actor, into=buffer)
    return buffer.getvalue()
