"""Receivables: payment terms and due dates, bank receipts, their allocation and reversal.

- A statement's due date is set when it is issued: the issue date (Asia/Shanghai) plus the payment
  term of its contracts (`Contract.payment_term_days`, default 30; the shortest when a statement
  bills several contracts; 0 for prepaid terms). A credit note is due on its issue date.
- A payment is a bank receipt of a customer. It is allocated to the customer's issued statements
  oldest due first (or by hand, in part); what is not allocated is the customer's credit balance
  and may be allocated later. A statement's open amount is its total, less its issued credit
  notes, less the payments allocated to it.
- Nothing is edited or deleted: a wrong payment is reversed by a counter-entry (a "reversal"
  payment of the negated amount, and negated allocations), with a reason. Every write is audited.

One module per concern; the public names are re-exported here, so `receivables.X` keeps working:

- `lookups`: a customer, a receipt, a statement by what a person types;
- `terms`: a contract's payment terms (the due date of its statements);
- `balances`: open amounts of statements and receipts, a customer's balance;
- `payments`: recording, allocating (oldest due first or by hand) and reversing receipts;
- `bankfile`: the bank-file import of receipts and the payments export;
- `aging`: the aging buckets and overdue customers;
- `account`: the statement of account and the aging report as printed.
"""
from __future__ import annotations

from app.services.receivables.account import (  # noqa: F401
    account_doc, aging_doc, print_receivables_report, write_aging_xlsx)
from app.services.receivables.aging import (  # noqa: F401
    BUCKET_LABELS, BUCKETS, Aging, AgingRow, aging, bucket_of, overdue_customers)
from app.services.receivables.balances import (  # noqa: F401
    ZERO, CustomerBalance, OpenRow, as_of_end, customer_balance, effective_due, open_late_rows, open_statement_rows,
    payment_unallocated, statement_open_amount)
from app.services.receivables.bankfile import (  # noqa: F401
    IMPORT_COLUMNS, PAYMENT_COLUMNS, PaymentImport, export_payments_rows, import_payments)
from app.services.receivables.lookups import find_customer, find_payment  # noqa: F401
from app.services.receivables.payments import (  # noqa: F401
    METHODS, PaymentInfo, allocate_payment, record_payment, reverse_payment)
from app.services.receivables.terms import set_payment_terms  # noqa: F401
