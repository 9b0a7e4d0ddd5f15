"""The operations desk's refusals (visits, maintenance windows, tickets) come from the message catalogue,
so the Chinese console shows them in Chinese: every raise in those modules carries a catalogue id
(read from the source, so a new plain-English refusal fails here), a refused request's messages
are catalogue Messages, and one refusal reads in Chinese under the console's translators."""
from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import select

from models import MaintenanceWindow
from models.choices import MaintenanceTarget

from app.domain import messages
from app.domain.errors import RuleViolation, ValidationError
from app.domain.messages import CATALOGUE, Message
from app.services.operations import maintenance as M
from app.services.operations import tickets as T
from app.services.operations import visits as V
from app.services.users import login

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["app/services/operations/visits.py", "app/services/operations/maintenance.py",
           "app/services/operations/tickets.py", "app/store/found.py"]


def _catalogue_call(node: ast.expr) -> bool:
    """m.NAME(...), m.NAME.quoting(...), (m.A if c else m.B)(...), or m.OPS_STATE[...]()."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr == "quoting":
        f = f.value
    if isinstance(f, ast.IfExp):
        return all(_catalogue_ref(x) for x in (f.body, f.orelse))
    return _catalogue_ref(f)


HELPERS = {"not_found"}   # catalogue functions that give a Message (the missing row's noun translated)


def _catalogue_ref(f: ast.expr) -> bool:
    return (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "m"
            and (isinstance(getattr(messages, f.attr, None), messages.Entry) or f.attr in HELPERS))


def _sentences(tree: ast.AST):
    """(line, node) of every sentence a refusal carries: a raise's arguments and dict values, and
    what is put into an `errors[...]` mapping."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for arg in node.exc.args:
                if isinstance(arg, ast.Dict):
                    yield from ((node.lineno, v) for v in arg.values)
                elif not isinstance(arg, ast.Name):      # a variable: the errors collected above
                    yield node.lineno, arg
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                                                and t.value.id == "errors" for t in node.targets):
            yield node.lineno, node.value


@pytest.mark.parametrize("module", MODULES)
def test_every_refusal_in_the_module_carries_a_catalogue_id(module):
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    found = list(_sentences(tree))
    assert len(found) >= (1 if module.endswith("found.py") else 15)   # the walk sees the refusals
    plain = [line for line, node in found if not _catalogue_call(node)
             and not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                      and node.func.id == "message_of")]   # a date's own catalogue Message, passed on
    assert plain == [], f"{module}: refusals without a catalogue id on lines {plain}"


def test_a_refused_request_says_catalogue_messages(demo_db):
    admin = login(demo_db, "admin", "demo1234")
    with pytest.raises(ValidationError) as exc:
        V.request_visit(demo_db, admin, customer_id=1, contact_id=1, visitors=[V.VisitorIn("", "123")],
                        purpose=" ", window_start=dt.datetime(2026, 1, 1), window_end=None)
    errors = exc.value.errors
    assert {"purpose", "space", "window_start", "visitors.1.name", "visitors.1.id_number"} <= set(errors)
    for text in errors.values():
        assert isinstance(text, Message) and text.id in CATALOGUE
    assert errors["visitors.1.name"] == "visitor 1: the real name as on the ID"     # English as before
    with pytest.raises(ValidationError) as exc:
        V.authorise_contact(demo_db, admin, 1, 1, valid_from="2026-13-01")
    assert isinstance(exc.value.errors["valid_from"], Message)                       # the date's own id


def test_a_maintenance_refusal_reads_in_chinese(demo_db, language):
    from ui.shell.messages import translate_error
    op = login(demo_db, "wanglei", "demo1234")
    with demo_db.session() as s:
        w = s.execute(select(MaintenanceWindow).where(MaintenanceWindow.target_kind == MaintenanceTarget.PANEL)
                      ).scalars().one()
    with pytest.raises(RuleViolation) as exc:
        M.complete_maintenance(demo_db, op, w.id)
    english = str(exc.value)
    assert english == f"{M.reference(w.id)} is confirmed: it cannot become completed " \
                      "(allowed: Cancelled, In progress, Rescheduled)"
    assert translate_error(exc.value) == english        # the English console: the same sentence
    language("zh")
    assert translate_error(exc.value) == (f"{M.reference(w.id)} 当前为“已确认”：不能变为“已完成”"
                                          "（可变为：已取消、处理中、已改期）")


def test_a_ticket_refusal_and_a_missing_row_read_in_chinese(demo_db, language):
    from ui.shell.messages import translate_error
    from app.domain.errors import NotFound
    op = login(demo_db, "wanglei", "demo1234")
    opened = T.open_ticket(demo_db, op, title="fan noise in A05", priority="P3")
    with pytest.raises(RuleViolation) as moved:
        T.move_ticket(demo_db, op, opened.id, "closed")
    assert str(moved.value) == (f"{opened.number} is New: it can move to Acknowledged, On site, In progress, "
                                "Resolved, not to Closed")                 # English as before
    assert isinstance(moved.value.message, Message) and moved.value.message.id == "ticket.cannot_move"
    with pytest.raises(NotFound) as missing:
        M.impact_of(demo_db, 999_999)
    assert str(missing.value) == "maintenance window 999999 does not exist (it may have been deleted by someone else)"
    with pytest.raises(ValidationError) as bad:
        T.open_ticket(demo_db, op, title=" ", priority="P9")
    assert translate_error(missing.value) == str(missing.value)     # the English console: as before
    language("zh")
    assert translate_error(missing.value) == "维护窗口 999999 不存在（可能已被他人删除）"
    assert translate_error(moved.value) == f"{opened.number} 当前为“新建”：可变为 已响应、已到场、处理中、已解决，不能变为“已关闭”"
    assert translate_error(bad.value) == "title: 请用几句话说明故障或需求; priority: P1、P2、P3 或 P4"
