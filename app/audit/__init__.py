"""The audit trail: appending and its hash (trail), the verify scan, queries, remembered state, reconcile."""
