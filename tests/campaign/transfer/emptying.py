"""Emptying the instance inside a test, so an export is imported as into a new server."""

from __future__ import annotations

from django.core.management import call_command
from django.db import connection


def empty_instance() -> None:
    """Every table flushed. The foreign-key checks PostgreSQL deferred to the commit run first (a TRUNCATE refuses
    a table with checks pending), as they would have at the end of the writes' own transactions."""
    connection.check_constraints()
    call_command("flush", interactive=False, verbosity=0)
