"""Campaigns, Events and Days, memberships and roles (permissions), the audit trail and the home pages.
May import campaign.models, campaign.web and campaign.live.push (the audit trail tells the GMs' open pages); the
other domain packages build on this one, never the reverse, except the chronicle (chronicle_sources.py), which
reads every domain's records, and the pages that show them.
"""
