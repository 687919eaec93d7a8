"""Test settings: the real settings with DEBUG on, fast password hashing and eager-free Celery."""

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
