"""The economy: commanders, items, units, recruiting, training, upkeep, Morale, retinues, funding, the ledger.
rules.py is pure (no Django); ledger.py is the only code that moves lunari. May import campaign.models,
campaign.campaigns, campaign.catalogue, campaign.live and campaign.web.
"""
