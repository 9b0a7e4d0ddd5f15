"""The forms behind the elevation's right-click: place a device, reserve units.

Both save through app.services.dcim; a refusal stays in the form with the service's message.
"""
from __future__ import annotations


from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit,
                               QVBoxLayout, QWidget)

from app.read import queries
from app.domain.rating import local_today
from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError, ValidationError
from models.choices import Face

from ui.kit.dialogs import (date_edit, error_label, field_box, get_date, options_combo, parse_decimal, refused_text,
                            why_not_text)
from ui.shell.i18n import choice_label
from ui.shell.operations import apply


class _RackForm(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.layout_ = QVBoxLayout(self)
        self.form = QFormLayout()
        self.layout_.addLayout(self.form)
        self.editors: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        self.message = error_label("formMessage")

    def row(self, key: str, label: str, w: QWidget) -> QWidget:
        w.setObjectName(f"edit_{key}")
        err = error_label(f"error_{key}")
        self.form.addRow(label, field_box(w, err))
        self.editors[key], self.errors[key] = w, err
        return w

    def options(self, kind: str, optional: bool) -> QComboBox:
        return options_combo(self.db, kind, self.tr("(none)") if optional else None)

    def finish(self, ok_text: str) -> None:
        self.layout_.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText(ok_text)
        self.buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.layout_.addWidget(self.buttons)
        self.resize(480, self.sizeHint().height())

    def clear_errors(self) -> None:
        for lbl in self.errors.values():
            lbl.hide()
        self.message.hide()

    def show_errors(self, errors: dict[str, str]) -> None:
        rest = []
        for key, msg in errors.items():
            if key in self.errors:
                self.errors[key].setText(msg)
                self.errors[key].show()
            else:
                rest.append(msg)
        if rest:
            self.show_message("; ".join(rest))

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()

    def save(self) -> None:
        self.clear_errors()
        try:
            self.saved_id = apply(self.write)
        except ValidationError as exc:
            self.show_errors(exc.errors)
            return
        except DomainError as exc:
            self.show_message(refused_text(exc))
            return
        except ValueError as exc:
            self.show_message(str(exc))
            return
        self.accept()


class PlaceDeviceDialog(_RackForm):
    """A new device at a free unit: type, name, serial, owner; face and position prefilled."""

    def __init__(self, db: Database, actor: Actor, rack_id: int, face: str, unit: int, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.rack_id = db, actor, rack_id
        self.setObjectName("placeDeviceDialog")
        self.saved_id = None
        where = queries.rack_site(db, rack_id)
        self.setWindowTitle(self.tr("Place a device in %1").replace("%1", " / ".join(where) if where else str(rack_id)))
        self.row("device_type_id", self.tr("Device type *"), self.options("device_type", False))
        self.row("name", self.tr("Name *"), QLineEdit())
        self.row("serial", self.tr("Serial"), QLineEdit())
        self.row("owner_customer_id", self.tr("Owner"), self.options("customer", True))
        self._owner_from_lease(rack_id, face, unit)
        face_box = QComboBox()
        for v in Face.values():
            face_box.addItem(choice_label(Face, v), v)
        face_box.setCurrentIndex(max(0, face_box.findData(face)))
        self.row("face", self.tr("Face"), face_box)
        self.row("position", self.tr("Position (lowest U)"), QLineEdit(str(unit)))
        self.override = self.row("power_override", self.tr("Power"), QCheckBox(self.tr("Override the power budget")))
        self.reason = self.row("reason", self.tr("Reason for the override"), QLineEdit())
        reason = why_not_text(actor, "override_power")
        self.override.setEnabled(reason is None)
        self.override.setToolTip(reason or self.tr("Place even if the rack's typical power would exceed its capacity"))
        self.reason.setEnabled(False)
        self.override.toggled.connect(self.reason.setEnabled)
        self.finish(self.tr("Place"))

    def _owner_from_lease(self, rack_id: int, face: str, unit: int) -> None:
        """Units leased to a customer take that customer's devices only (app/services/space.py)."""
        from app.services.space import unit_offer_at
        offer = unit_offer_at(self.db, rack_id, face, unit, unit)
        box = self.editors["owner_customer_id"]
        if offer.lessee_id is not None:
            box.setCurrentIndex(max(0, box.findData(offer.lessee_id)))
            box.setEnabled(False)
            box.setToolTip(self.tr("U%1 is leased to %2: only %2's devices go there")
                           .replace("%1", str(unit)).replace("%2", offer.lessee))

    def write(self) -> int:
        from app.services.dcim import place_device
        e = self.editors
        try:
            position = parse_decimal(e["position"].text())
        except ValueError:
            raise ValidationError({"position": self.tr("a number, e.g. 12.5")}) from None
        values = {"name": e["name"].text().strip(), "device_type_id": e["device_type_id"].currentData(),
                  "serial": e["serial"].text().strip() or None,
                  "owner_customer_id": e["owner_customer_id"].currentData(), "rack_id": self.rack_id,
                  "position": position, "face": e["face"].currentData()}
        override = self.override.isChecked()
        return place_device(self.db, self.actor, values, power_override=override,
                            reason=self.reason.text().strip() or None if override else None)


class ReserveDialog(_RackForm):
    """Hold units for a customer: customer, dates, note."""

    def __init__(self, db: Database, actor: Actor, rack_id: int, face: str, u_from: int, u_to: int, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.rack_id, self.face = db, actor, rack_id, face
        self.setObjectName("reserveDialog")
        self.saved_id = None
        where = queries.rack_site(db, rack_id)
        self.setWindowTitle(self.tr("Reserve units in %1").replace("%1", " / ".join(where) if where else str(rack_id)))
        self.form.addRow(self.tr("Units"), QLabel(f"U{u_from}–U{u_to} ({choice_label(Face, face)})"))
        self.u_from, self.u_to = u_from, u_to
        self.row("customer_id", self.tr("Customer *"), self.options("customer", False))
        self.row("start_date", self.tr("From *"), date_edit(local_today()))
        self.row("end_date", self.tr("Until"), date_edit(optional=True))
        self.editors["end_date"].setToolTip(self.tr("Empty: open-ended"))
        self.row("note", self.tr("Note"), QLineEdit())
        self.finish(self.tr("Reserve"))

    def write(self) -> int:
        from app.services.dcim import reserve_units
        e = self.editors
        return reserve_units(self.db, self.actor, self.rack_id, e["customer_id"].currentData(), self.face,
                             self.u_from, self.u_to, get_date(e["start_date"]), get_date(e["end_date"]),
                             e["note"].text().strip() or None)
