"""What every page and endpoint of the app shares: error pages and API error answers, the refusal middleware,
the navigation's context, private media responses, image upload checks and form helpers. Imports no domain
package but campaign.campaigns.permissions (for the refusal it shows).
"""
