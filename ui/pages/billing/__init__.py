"""Billing: the monthly run (dry run, run, run and issue), statements and their detail.

The run goes through app.services.billing.run_billing on the thread pool with progress and
cancel; a cancelled run writes nothing. Statements: issue drafts, credit notes, fapiao
numbers, PDF preview/print, and the statements export (CSV/XLSX).

Modules: `page` (the billing page: the run and the statements list), `panel` (a statement's detail),
`dialogs` (the credit-note and handover dialogs), `widgets` (what they share).
"""
