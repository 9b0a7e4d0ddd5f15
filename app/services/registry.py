"""Importing this module registers every entity kind with services.common."""
from . import customers, dcim, gpus, reference  # noqa: F401
