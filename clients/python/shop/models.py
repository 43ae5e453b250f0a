"""Django models with ulid keys (the Django recipe)."""
from django.contrib.postgres.fields import ArrayField
from django.db import models

from shop.fields import ULIDAutoField, ULIDField


class Event(models.Model):
    id = ULIDAutoField(primary_key=True)
    parent = models.ForeignKey("self", null=True, on_delete=models.CASCADE)
    tags = ArrayField(ULIDField(), null=True)
    what = models.TextField()
