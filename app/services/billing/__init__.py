"""Billing use cases: the monthly run, issuing, credit notes, fapiao numbers, meter readings, downtime.

One module per concern; every name is re-exported here, so `from app.services.billing import X`
and `billing.X` keep working:

- `statements`: the results the use cases return (StatementInfo, RunSummary, …), reading and
  finding statements, the CSV/XLSX export rows;
- `charges`: computing one contract item's lines for a period — `item_charges` is the extension
  point for a new kind of charge (one function per kind, the period's data loaded set-wise in
  `_load_data`);
- `run`: the monthly run (`run_billing`: collect, rate, then `writing` writes the statements) and
  what may be billed when;
- `issue`: issuing in batches with gapless numbers, draft deletion, fapiao numbers, credit notes
  and rebills;
- `meters`: importing rack meter readings;
- `downtime`: recording and ending GPU or server downtime.

The arithmetic lives in app/domain/rating.py. Idempotence rests on the unique key (contract_item_id,
charge, period, revision) of statement_line: a run creates only what is missing. Numbers are
taken from per-subsidiary counters in the issuing transaction (gapless): statements
`GZ-202611-000123` (scope: the billing month), credit notes `GZ-CN-202612-000001` (scope: the
month the credit note is issued).
"""
from __future__ import annotations

from app.services.billing.charges import (  # noqa: F401
                      _Ctx,
                      _Data,
                      _fee,
                      _gpu_metering,
                      _gpu_monthly_credit,
                      _gpu_usage,
                      _hybrid,
                      _is_power_item,
                      _item_window,
                      _load_data,
                      _money,
                      _power,
                      _price,
                      billing_start,
                      handover_date,
                      item_charges,
                      line_texts,
                      revised,
                      tax_rates,
)
from app.services.billing.downtime import end_downtime, record_downtime  # noqa: F401
from app.services.billing.issue import (  # noqa: F401
                      _refuse_if_issued,
                      _take_statement_number,
                      credit_lines,
                      credit_statement,
                      delete_draft,
                      issue_statements,
                      record_fapiao,
)
from app.services.billing.meters import (  # noqa: F401
                      _YES,
                      MeterImport,
                      _check_counters_rise,
                      _parse_time,
                      _rack_resolver,
                      import_meter_readings,
)
from app.services.billing.run import (  # noqa: F401
                      _billed_keys,
                      billable_from,
                      billable_periods,
                      pending_drafts,
                      period_has_ended,
                      rebill_statement,
                      refuse_open_period,
                      run_billing,
)
from app.services.billing.statements import (  # noqa: F401
                      BILLED_STATUSES,
                      CHARGE_ORDER,
                      CREDIT_PREFIX,
                      IN_CHUNK,
                      PARTIAL_PREFIX,
                      STATEMENT_EXPORT_HEADERS,
                      WAIVER_PREFIX,
                      IssueSummary,
                      LineInfo,
                      Progress,
                      RunSummary,
                      StatementInfo,
                      _chunks,
                      _contract_numbers,
                      _find_statement,
                      _fmt_t,
                      _line_info,
                      _statement_info,
                      _statement_infos,
                      _words,
                      export_statements_rows,
                      find_statement,
                      get_statement,
                      line_languages,
                      line_text,
                      list_statements,
)
