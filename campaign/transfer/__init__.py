"""A campaign taken out and brought in: the export (one versioned JSON document and its files in a zip), the import
into another instance, and a new season copied from a campaign. May import campaign.models, campaign.web and every
domain package (it reads them all); nothing imports it but the URLs and the management commands.
"""
