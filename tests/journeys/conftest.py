"""The role days are console tests: the same fixtures as tests/ui (private settings, a fresh change
bus, no modal error boxes, the PySide work-around, the small estate)."""
from tests.ui.conftest import (estate, fresh_change_bus, no_modal_error_boxes, private_settings,  # noqa: F401
                               shielded_singletons)
