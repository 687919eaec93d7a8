"""Pushed updates over WebSockets (Django Channels): a socket message says only "this topic changed, version N",
never game content; the page then fetches its own view over HTTP, filtered by the fog of war and the engines'
`view` as every page is. push.py (sending after commit) imports only Django and Channels, so any service may
import it; topics.py (who may join which topic) and consumers.py may import campaign.models, campaign.campaigns
and cardgames.models.
"""
