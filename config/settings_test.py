"""Test settings: the real settings with DEBUG on, fast password hashing and eager-free Celery."""

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
# The suite signs in and calls the API thousands of times a minute as a few users: throttles far above that
# (tests of the throttles set their own rates), and sign-in counts in memory, cleared before each test (a Redis
# "limits" cache is tested on its own database).
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute", "user": "100000/minute"}}  # noqa: F405
CACHES = {**CACHES, "limits": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits"}}  # noqa: F405
# Sessions and remembered pages in memory too, cleared before each test (tests/conftest.py); the Redis backend
# of the "shared" cache is tested on its own database (tests/campaign/web/test_redis_cache.py).
CACHES["shared"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shared"}
