"""The campaign app: everything between battles, in domain packages (campaigns, economy, catalogue, map), with
every model in campaign.models and shared web plumbing in campaign.web. The app label is `campaign`.
"""
