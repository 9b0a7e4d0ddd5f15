"""The permission each kind of record needs is declared once (app.domain.auth.KIND_PERMISSION): the
services' EntitySpec, the console's forms and import/export all read it, so they cannot disagree."""
from __future__ import annotations

from app import importexport
from app.domain.auth import KIND_PERMISSION, PERMISSIONS
from app.services.entities import REGISTRY
import app.services.registry  # noqa: F401  (registers every kind)


def test_every_declared_permission_exists():
    assert set(KIND_PERMISSION.values()) <= set(PERMISSIONS)


def test_services_forms_and_import_read_the_one_declaration():
    from ui.kit.formfields import PERMISSION as FORM_PERMISSION
    for kind, spec in REGISTRY.items():
        assert spec.permission == KIND_PERMISSION[kind], kind
    for kind, perm in FORM_PERMISSION.items():
        assert perm == KIND_PERMISSION[kind], kind
    for kind, perm in importexport.PERMISSION.items():
        assert perm == KIND_PERMISSION[importexport.OBJECT_TYPE[kind]], kind
    # the three sides name the same permission for every kind they share
    assert {spec.kind for spec in REGISTRY.values()} <= set(KIND_PERMISSION)
