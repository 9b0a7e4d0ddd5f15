"""The forms' fields, declared as data (FORMS: kind -> fields), and the save through the services;
the dialogs that show them are ui/kit/forms.py."""
from __future__ import annotations

from dataclasses import dataclass

from app.domain.actor import Actor
from app.domain.auth import KIND_PERMISSION
from app.store.db import Database
from models.choices import (ChoiceSet, Cooling, CustomerStatus, DeviceStatus, Face, GpuState, RackStatus, Role,
                            SiteStatus)


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    kind: str = "text"          # text | int | decimal | date | choice | option | bool | memo | password
    choices: type[ChoiceSet] | None = None
    option: str | None = None   # queries.options kind
    required: bool = False
    on_create_only: bool = False
    optional: bool = True       # option/choice: allow "(none)"


def _(s):
    return s


FORMS: dict[str, list[Field]] = {
    "site": [
        Field("code", _("Code"), required=True),
        Field("name", _("Name"), required=True),
        Field("subsidiary_id", _("Subsidiary"), "option", option="subsidiary", required=True, optional=False),
        Field("region_code", _("Region"), "option", option="region", required=True, optional=False),
        Field("address", _("Address")),
        Field("latitude", _("Latitude"), "decimal"),
        Field("longitude", _("Longitude"), "decimal"),
        Field("status", _("Status"), "choice", choices=SiteStatus, optional=False),
        Field("cooling", _("Cooling"), "choice", choices=Cooling, optional=False),
        Field("power_capacity_kw", _("Power capacity (kW)"), "decimal"),
    ],
    "rack": [
        Field("name", _("Name"), required=True),
        Field("room_id", _("Room"), "option", option="room", required=True, optional=False),
        Field("u_height", _("Height (U)"), "int"),
        Field("power_capacity_kw", _("Power capacity (kW)"), "decimal"),
        Field("status", _("Status"), "choice", choices=RackStatus, optional=False),
        Field("asset_tag", _("Asset tag")),
        Field("customer_id", _("Customer"), "option", option="customer"),
        Field("grid_row", _("Grid row"), "int"),
        Field("grid_col", _("Grid column"), "int"),
    ],
    "device": [
        Field("name", _("Name"), required=True),
        Field("device_type_id", _("Type"), "option", option="device_type", required=True, optional=False),
        Field("serial", _("Serial")),
        Field("asset_tag", _("Asset tag")),
        Field("owner_customer_id", _("Owner"), "option", option="customer"),
        Field("rack_id", _("Rack"), "option", option="rack"),
        Field("position", _("Position (U)"), "decimal"),
        Field("face", _("Face"), "choice", choices=Face),
        Field("status", _("Status"), "choice", choices=DeviceStatus, optional=False),
        Field("notes", _("Notes"), "memo"),
    ],
    "gpu": [
        Field("serial", _("Serial"), required=True),
        Field("gpu_model_id", _("Model"), "option", option="gpu_model", required=True, optional=False),
        Field("state", _("State"), "choice", choices=GpuState, optional=False, on_create_only=True),
        Field("purchase_date", _("Purchased"), "date"),
        Field("purchase_cost", _("Cost (CNY)"), "decimal"),
        Field("warranty_end", _("Warranty end"), "date"),
        Field("depreciation_months", _("Depreciation (months)"), "int"),
    ],
    "customer": [
        Field("name", _("Name"), required=True),
        Field("credit_code", _("Credit code"), required=True),
        Field("region_code", _("Region"), "option", option="region"),
        Field("address", _("Address")),
        Field("account_manager_id", _("Account manager"), "option", option="manager"),
        Field("status", _("Status"), "choice", choices=CustomerStatus, optional=False),
    ],
    "user": [
        Field("login", _("Login"), required=True, on_create_only=True),
        Field("display_name", _("Name"), required=True),
        Field("role", _("Role"), "choice", choices=Role, optional=False),
        Field("active", _("Active"), "bool"),
        Field("password", _("Password"), "password"),
    ],
}

PERMISSION = KIND_PERMISSION  # declared once, in app.domain.auth


def save_record(db: Database, actor: Actor, kind: str, id_, values: dict, version: int | None):
    """Create or update through the services; returns the id."""
    from app.services import common, users
    if kind == "user":
        if id_ is None:
            return users.add_user(db, actor, values["login"], values["role"], values.get("password") or "",
                                  values.get("display_name")).id
        users.update_user(db, actor, id_, version, display_name=values.get("display_name"),
                          role=values.get("role"), active=values.get("active"),
                          password=values.get("password") or None)
        return id_
    if kind == "device":
        from app.services import dcim
        if id_ is None:
            return dcim.place_device(db, actor, values)
        dcim.update_device(db, actor, id_, values, version)
        return id_
    if id_ is None:
        return common.create_record(db, actor, kind, values)
    common.update_record(db, actor, kind, id_, values, version)
    return id_
