"""Minimal Django settings for the checks of the shop app (the PG* environment names the database)."""
import os

SECRET_KEY = "not-secret: client checks only"
INSTALLED_APPS = ["django.contrib.postgres", "shop"]
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": os.environ["PGDATABASE"]}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
