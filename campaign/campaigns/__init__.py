"""Campaigns, Events and Days, memberships and roles (permissions), the audit trail and the home pages.
May import campaign.models and campaign.web; the other domain packages build on this one, never the reverse,
except the chronicle (chronicle_sources.py), which reads every domain's records, and the pages that show them.
"""
