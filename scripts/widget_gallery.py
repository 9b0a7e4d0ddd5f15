"""Render every picture widget offscreen to PNG, to look at them.

    python scripts/widget_gallery.py [--db FILE] [--out /tmp/widgets] [--lang zh|en]

With no --db, a fresh SQLite file gets the demo data (app/demo/load.py) or, where that is missing,
the small estate of tests/read/test_viewdata.py. Writes rack_elevation.png, room_view.png,
room_view_status.png, dashboard.png, dashboard_empty.png, site_plot.png, region_tree.png.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def build_db(path: Path):
    from app.store.db import Database
    from app.store.startup import prepare_database

    if path.exists():
        path.unlink()
    db = Database(f"sqlite:///{path}")
    prepare_database(db)
    try:
        from app.demo.load import load_demo
    except ImportError:
        load_demo = None
    if load_demo is not None:
        load_demo(db, progress=lambda m: print("demo:", m, file=sys.stderr))
    else:
        sys.path.insert(0, str(ROOT / "tests"))
        from test_viewdata import build_estate
        build_estate(db)
    return db


def busiest_rack(db) -> int:
    from sqlalchemy import func, select
    from models import Device
    with db.session() as s:
        return s.execute(select(Device.rack_id).where(Device.rack_id.is_not(None)).group_by(Device.rack_id)
                         .order_by(func.count(Device.id).desc(), Device.rack_id).limit(1)).scalar_one()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db")
    ap.add_argument("--out", default="/tmp/widgets")
    ap.add_argument("--lang", default="zh", choices=("zh", "en"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])
    try:
        from ui.shell.i18n import apply_font, install_translators
        apply_font(app)
        install_translators(app, args.lang)
    except ImportError:
        pass

    from app.store.db import Database
    from app.domain.rating import local_today
    from app.read import viewdata as vd
    from ui.widgets.charts import DashboardWidget
    from ui.widgets.rack_elevation import RackElevationView
    from ui.widgets.region_tree import RegionTreePanel
    from ui.widgets.room_view import RoomView
    from ui.widgets.site_plot import SitePlotView

    db = Database(f"sqlite:///{args.db}") if args.db else build_db(out / "gallery.db")

    def shot(widget, name, w, h):
        widget.resize(w, h)
        widget.show()
        app.processEvents()
        widget.grab().save(str(out / name))
        print(out / name)

    rack_id = busiest_rack(db)
    elevation = vd.rack_elevation(db, rack_id)
    rack = RackElevationView()
    rack.set_data(elevation)
    shot(rack, "rack_elevation.png", 700, 1000)

    room = RoomView()
    room.set_data(vd.room_layout(db, elevation.room_id))
    shot(room, "room_view.png", 1100, 520)
    room.set_mode("status")
    shot(room, "room_view_status.png", 1100, 520)

    dash = DashboardWidget()
    dash.set_data(vd.dashboard_data(db))
    shot(dash, "dashboard.png", 1280, 900)
    empty = DashboardWidget()
    empty.set_data(vd.DashboardData(as_of=local_today()))
    shot(empty, "dashboard_empty.png", 1000, 700)

    plot = SitePlotView()
    plot.set_data(vd.site_points(db))
    shot(plot, "site_plot.png", 1000, 700)

    tree = RegionTreePanel(db)
    tree.search.setText("美兰")
    tree.run_search()
    shot(tree, "region_tree.png", 900, 600)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
