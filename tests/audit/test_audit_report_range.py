"""The audit report verifies the chain stretch it covers, counts its summary in the database, lays the
detail out page by page, and leaves out the detail of a period too large for a PDF (issue 16)."""
import datetime as dt
import re
import subprocess

from sqlalchemy import text

from app.audit.trail import Actor, append_events, verify_audit_range
from app.audit.query import AuditFilter
from app.domain.clock import local_today
from app.documents import audit_report_doc, render_document
from reports import render_audit_report, samples


def _append(db, n: int, action: str = "gpu.update", login: str = "lina") -> None:
    actor = Actor(None, login, login.title(), "operator")
    with db.session() as s:
        append_events(s, actor, request_id="t", events=[
            dict(action=action, object_type="gpu", object_id=i, object_label=f"G{i}",
                 before={"state": "available"}, after={"state": "leased"}) for i in range(n)])
        s.commit()


def _drop_triggers(db):  # as an attacker with database access would (tests/audit/test_audit_chain.py)
    with db.engine.begin() as c:
        if db.is_sqlite:
            c.execute(text("DROP TRIGGER IF EXISTS audit_event_no_update"))
            c.execute(text("DROP TRIGGER IF EXISTS audit_event_no_delete"))
        else:
            c.execute(text("DROP TRIGGER IF EXISTS audit_event_append_only ON audit_event"))


def _tamper(db, seq: int) -> None:
    _drop_triggers(db)
    with db.session() as s:
        s.execute(text("UPDATE audit_event SET reason = 'x' WHERE seq = :s"), {"s": seq})
        s.commit()


def _head(db, seq: int) -> str:
    with db.session() as s:
        return f"{seq}:{s.execute(text('SELECT hash FROM audit_event WHERE seq = :s'), {'s': seq}).scalar()}"


def test_range_verify_checks_only_its_range_and_the_link_before_it(db, admin):
    _append(db, 30)
    with db.session() as s:
        last = s.execute(text("SELECT max(seq) FROM audit_event")).scalar()
    first = last - 9
    _tamper(db, 3)  # outside the range: not the report's business
    with db.session() as s:
        r = verify_audit_range(s, first, last, expect_head=_head(db, last))
    assert r.ok and r.count == 10, r.problem
    _tamper(db, first + 4)
    with db.session() as s:
        r = verify_audit_range(s, first, last)
    assert not r.ok and r.bad_seq == first + 4 and "altered" in r.problem


def test_range_verify_names_a_broken_link_to_the_chain_before(db, admin):
    _append(db, 20)
    with db.session() as s:
        last = s.execute(text("SELECT max(seq) FROM audit_event")).scalar()
    _drop_triggers(db)
    with db.session() as s:
        s.execute(text("UPDATE audit_event SET hash = :h WHERE seq = :s"), {"h": "f" * 64, "s": last - 10})
        s.commit()
    with db.session() as s:
        r = verify_audit_range(s, last - 9, last)
        wrong = verify_audit_range(s, last - 9, last, expect_head=f"{last}:{'0' * 64}")
    assert not r.ok and r.bad_seq == last - 9 and "does not link" in r.problem
    assert not wrong.ok


def test_report_summary_is_counted_and_large_periods_leave_the_detail_out(db, admin, tmp_path):
    _append(db, 12, action="gpu.update")
    _append(db, 5, action="contract.create", login="wang")
    today = local_today()
    flt = AuditFilter(today - dt.timedelta(days=1), today)
    doc = audit_report_doc(db, flt, language="en")
    assert doc.total_events == len(doc.events) == sum(r.count for r in doc.summary)
    assert sum(n for _, n in doc.by_object) == sum(n for _, n in doc.by_day) == doc.total_events
    assert doc.by_day[-1][0] == f"{today:%Y-%m-%d}"
    assert doc.omitted_pages == 0 and doc.verification.startswith("Verified")

    big = audit_report_doc(db, flt, language="en", max_events=10)
    assert big.events == () and big.total_events == doc.total_events and big.omitted_pages >= 1
    assert sum(r.count for r in big.summary) == doc.total_events
    out = render_document(big, tmp_path / "big.pdf").path
    words = " ".join(subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout.split())
    assert f"{big.total_events:,} events" in words and "pages" in words and "CSV export is always complete" in words


def test_report_verification_fails_on_an_altered_event_in_its_period(db, admin):
    _append(db, 8)
    with db.session() as s:
        last = s.execute(text("SELECT max(seq) FROM audit_event")).scalar()
    _tamper(db, last - 2)
    doc = audit_report_doc(db, AuditFilter(local_today(), local_today()), language="en")
    assert doc.verification.startswith("VERIFICATION FAILED") and f"#{last - 2}" in doc.verification


def test_detail_pages_hold_every_event_once_in_order_with_the_header(tmp_path):
    doc = samples.sample_audit(700, "en")
    result = render_audit_report(doc, tmp_path / "a.pdf")
    pages = subprocess.run(["pdftotext", "-layout", str(result.path), "-"], capture_output=True,
                           text=True).stdout.split("\f")[: result.pages]
    seqs = []
    for page in pages:
        found = [int(m) for m in re.findall(r"^\s*(\d+)\s+2026-", page, re.M)]
        assert not found or ("Seq" in page and "Changes" in page)  # the header on every detail page
        seqs += found
    assert seqs == list(range(1, 701))


def test_a_reason_longer_than_a_page_is_cut_not_a_layout_error(tmp_path):
    import dataclasses

    from reports import AuditRow

    doc = samples.sample_audit(3, "en")
    doc = dataclasses.replace(doc, events=(AuditRow(1, "2026-10-01 08:00:00", "a", "b", "c", "d",
                                                    "很长的原因。" * 2000, "ok"),) + doc.events)
    result = render_audit_report(doc, tmp_path / "long.pdf")
    text = subprocess.run(["pdftotext", str(result.path), "-"], capture_output=True, text=True).stdout
    assert result.pages <= 3 and "…" in text
