"""Qt's item roles as plain ints, for models' data(): a PySide6 enum member looked up in a comparison
costs microseconds (Qt.DisplayRole: 6.8 µs on PySide6 6.12, against 0.08 for an int), and a view asks
data() for every role of every cell it measures or draws (the GPU list's first fit: 0.7 s; a 2,000-row
cross-connect list's: 0.66 s, issue 26)."""
from __future__ import annotations

from PySide6.QtCore import Qt

DISPLAY, ALIGN, TOOLTIP, DECORATION = (int(Qt.DisplayRole), int(Qt.TextAlignmentRole), int(Qt.ToolTipRole),
                                       int(Qt.DecorationRole))
BACKGROUND, FOREGROUND, FONT, USER = (int(Qt.BackgroundRole), int(Qt.ForegroundRole), int(Qt.FontRole),
                                      int(Qt.UserRole))
HORIZONTAL = Qt.Orientation.Horizontal
