"""The tactical map: terrain, locations, Bases, armies and move orders, the event clock and its hours, fog of war
(selectors.py is the one visibility selector). rules.py, terrain.py and routing.py are pure (no Django). May import
campaign.models, campaign.campaigns, campaign.economy, campaign.live and campaign.web.
"""
