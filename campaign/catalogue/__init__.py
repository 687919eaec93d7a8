"""The unit catalogue: unit types (shared defaults and a campaign's own), artwork, printable unit cards (PDF).
May import campaign.models, campaign.campaigns, campaign.web and the battle engine's effect compiler.
"""
