"""Notifications: an in-app list with unread counts, and Web Push and e-mail as each user chooses.

Triggers (`triggers.py`) run in Celery tasks after the happening's transaction commits; each builds its sentences
only from what the recipient may see (the fog of war selector for armies, never a hand or a secret choice) and
tells each happening at most once (`Notification.dedupe_key`). Delivery (`delivery.py`) pushes and mails one
notification at most once each."""
