"""Signals other apps listen to, so this app never needs to know about them."""

from django.dispatch import Signal

match_finished = Signal()
"""A match has just ended (sent once the ending action is committed). Keyword argument: ``match``."""
