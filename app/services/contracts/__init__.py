"""Contracts: drafting, approval, activation (leasing racks and GPUs), renewal and amendment.

Lifecycle (models.choices.ContractStatus.TRANSITIONS):
draft → pending_approval (→ draft when rejected) → approved → active ⇄ suspended → expired | terminated.
Account managers draft and submit; administrators approve, activate, suspend and end. Four eyes:
whoever drafted or submitted a contract may not approve it, unless the installation's setting
(app.services.settings) is off. Which action is allowed, and why not, is answered by
available_actions from the ACTIONS table; every use case here refuses by the same rules.
Prices change only by amendment: a new revision with an effective date that supersedes the old.

The package, by concern: records (the plain values in and out, reading), drafting (validation of
the items and the header, create and update a draft), actions (which action is allowed and why
not), activation (capacity, leases and handover on activation, release at the end), lifecycle (the
moves, renewal, amendment); beside them totals (the contract's figures), signing (who signs and
serves) and handover (from when an item bills). An item's name in both languages stays in
app.services.item_names: billing names its lines with it, and billing must not import this package
(its activation reaches the clusters, which reach billing).
This module re-exports the use cases and values callers name as `contracts.X`.
"""
from app.services.contracts.actions import ACTIONS, available_actions
from app.services.contracts.activation import refuse_short_capacity
from app.services.contracts.drafting import HEADER_FIELDS, create_contract, update_draft
from app.services.contracts.lifecycle import (
    activate_contract,
    amend_contract,
    approve_contract,
    expire_contract,
    reject_contract,
    renew_contract,
    resume_contract,
    submit_contract,
    suspend_contract,
    terminate_contract,
)
from app.services.contracts.records import (
    ALERT_DAYS,
    DEFAULT_TAX,
    HELD,
    UNITS_BY_KIND,
    ContractAction,
    ContractDue,
    ContractFacts,
    ContractInfo,
    ItemInfo,
    ItemSpec,
    contracts_due,
    find_contract,
    get_contract,
)

__all__ = [
    "ACTIONS", "ALERT_DAYS", "DEFAULT_TAX", "HEADER_FIELDS", "HELD", "UNITS_BY_KIND",
    "ContractAction", "ContractDue", "ContractFacts", "ContractInfo", "ItemInfo", "ItemSpec",
    "activate_contract", "amend_contract", "approve_contract", "available_actions", "contracts_due",
    "create_contract", "expire_contract", "find_contract", "get_contract", "refuse_short_capacity",
    "reject_contract", "renew_contract", "resume_contract", "submit_contract", "suspend_contract",
    "terminate_contract", "update_draft",
]
