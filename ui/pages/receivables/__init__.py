"""Receivables on the console: payments (record, allocate, reverse), a customer's balance, deposits and
prepayments, fapiao (add, red-letter), aging; the dashboard's overdue card (suspension proposals,
decided by a person); the invoicing-profile tab of the customer form.

Every action goes through its service in app/services (receivables, deposits, fapiao, overdue): the
service checks, audits and refuses; a refusal is shown in red under the form that caused it.
Shortcuts: Alt + the underlined letter of each tab and button; Enter in a form presses its button.

Modules: `tabs` (the receivables tabs beside the statements: payments, balance, deposits, fapiao,
aging), `overdue` (the dashboard's overdue card), `profile` (the customer form's invoicing-profile
tab), `widgets` (the small tables, fields and form sections they share).
"""
