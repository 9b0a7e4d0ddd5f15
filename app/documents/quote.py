"""A quote's data for reports/quote.py (`quote pdf NUMBER`, the capacity dialog's preview)."""
from __future__ import annotations

from decimal import Decimal

from models import Customer, Subsidiary
from models.choices import PriceProduct, PriceTerm, PriceUnit
from reports.quote import QuoteDoc, QuoteLineRow, QuoteTermRow

from app.domain.clock import local_date
from app.domain.money import format_price
from app.store.db import Database

_TERM_UNIT = {  # how a term's per-GPU price reads: (zh, en)
    PriceTerm.HOURLY: ("元/卡·时", "/ GPU-hour"), PriceTerm.MONTHLY: ("元/卡·月", "/ GPU-month"),
    PriceTerm.YEARLY: ("元/卡·年", "/ GPU-year"), PriceTerm.HYBRID: ("元/卡·月", "/ GPU-month"),
}


def _term_price(f, lang: str) -> str:
    zh, en = _TERM_UNIT[f.term]
    base = f"{format_price(f.unit_price)} {zh}" if lang == "zh" else f"¥{format_price(f.unit_price)} {en}"
    if f.term == PriceTerm.HYBRID:
        inc, rate = format_price(f.included_hours or 0), format_price(f.hourly_rate or 0)
        base += (f"，含 {inc} 卡时，超出 {rate} 元/卡·时（按满负荷测算）" if lang == "zh"
                 else f", {inc} GPU-h included, ¥{rate} / GPU-h beyond (at full use)")
    elif f.term == PriceTerm.HOURLY:
        base += "（按满负荷测算）" if lang == "zh" else " (at full use)"
    return base


def quote_doc(db: Database, key, *, language: str | None = None) -> QuoteDoc:
    from app.documents.common import _customer_party, _subsidiary_party
    from app.services.capacity.quotes import find_quote, _info
    from app.services.reference import tax_rates_on
    from app.services.contracts.totals import contract_totals

    with db.session() as s:
        q = find_quote(s, key)
        lang = language or q.language
        info = _info(s, q)
        rates = tax_rates_on(s, q.start_date)
        from app.domain.rating import Period

        month_end = min(q.end_date, Period.containing(q.start_date).last)
        from app.services.capacity.quotes import _totals_line

        lines = []
        for x in q.lines:
            one = contract_totals([_totals_line(x)], q.start_date, month_end, rates)
            rate = rates.get(x.tax_category, Decimal(0))
            unit = PriceUnit.unit(x.price_unit, lang)
            note = ""
            if x.product == PriceProduct.GPU and x.price_unit == "hybrid":
                note = (f"含 {format_price(x.included_hours)} 卡时/月，超出 {format_price(x.hourly_rate)} 元/卡·时" if lang == "zh"
                        else f"{format_price(x.included_hours)} GPU-h a month included, ¥{format_price(x.hourly_rate)} / GPU-h beyond")
            if x.setup_price:
                note = (f"安装费 {format_price(x.setup_price)} 元/条（一次性）" if lang == "zh"
                        else f"installation ¥{format_price(x.setup_price)} each (once)")
            first = one.term_value + one.expected_usage
            lines.append(QuoteLineRow(x.description_en if lang == "en" and x.description_en else x.description,
                                      x.quantity, unit, x.unit_price, first, f"{rate * 100:.0f}%", note))
        terms = tuple(QuoteTermRow(PriceTerm.label(f.term, lang), _term_price(f, lang), f.first_month, f.amount, f.vat,
                                   f.total, f.in_words, f.term == q.term) for f in info.terms)
        t, m = info.totals, info.first_month
        hold_text = ""
        if info.hold_number:
            from models.capacity import CapacityHold

            h = s.get(CapacityHold, q.hold_id)
            hold_text = (f"{h.number}，保留至 {local_date(h.expires_at)}" if lang == "zh"
                         else f"{h.number}, held until {local_date(h.expires_at)}")
        capacity = (f"{info.gpu_model} × {info.gpus} 卡，{len(info.nodes)} 台节点" if lang == "zh"
                    else f"{info.gpu_model} × {info.gpus} GPUs, {len(info.nodes)} nodes") if info.gpus else "—"
        from app.services.capacity.holds import _info as hold_info
        from models.capacity import CapacityHold as _H

        if q.hold_id:
            clusters = hold_info(s, s.get(_H, q.hold_id)).clusters
            if clusters:
                capacity += ("，集群 " if lang == "zh" else ", cluster ") + ", ".join(clusters)
        # the whole deal: fixed fees + GPU-hours at full use (hourly and hybrid terms)
        net = t.term_value + t.expected_usage
        gross = t.expected_total if t.expected_usage else t.total
        m_net = m.term_value + m.expected_usage
        m_gross = m.expected_total if m.expected_usage else m.total
        return QuoteDoc(
            number=q.number, language=lang, issued=local_date(q.created_at), valid_until=q.valid_until,
            provider=_subsidiary_party(s.get(Subsidiary, q.subsidiary_id), lang),
            customer=_customer_party(s, s.get(Customer, q.customer_id), lang),
            title=q.title or "", start=q.start_date, end=q.end_date, term=PriceTerm.label(q.term, lang),
            capacity=capacity, nodes=", ".join(info.nodes), lines=tuple(lines), terms=terms,
            first_month_net=m_net, first_month_vat=m_gross - m_net, first_month_total=m_gross,
            net=net, vat=gross - net, total=gross, in_words=t.expected_in_words if t.expected_usage else t.in_words,
            hold=hold_text)


def quote_subject(doc: QuoteDoc) -> tuple[str, int]:
    return doc.number, len(doc.lines)


