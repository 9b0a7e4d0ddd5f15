"""The catalogue of the sentences a service refuses with: one entry per rule, each an id and an
English template whose %1, %2, … are its arguments.

A refusal carries a `Message`: a str whose text is the English sentence (so the command line, the
log and the tests read exactly what they always read) that also knows its entry's id, template and
arguments. The console (ui/shell/messages.py) looks the template up by id and translates it in the
"messages" context, then fills in the arguments; scripts/update_translations.py lists every
template of this catalogue, so a new entry without Chinese shows up as unfinished.

    raise ValidationError({"email": EMAIL_INVALID(value)})
    str(EMAIL_INVALID("x")) == "'x' is not an e-mail address"
"""
from __future__ import annotations

import re

_ARG = re.compile(r"%(\d+)")


def fill(template: str, args: tuple) -> str:
    """`template` with %1, %2, … replaced by the arguments (a %n without an argument stays)."""
    if not args:
        return template

    def one(m: re.Match) -> str:
        n = int(m.group(1))
        return str(args[n - 1]) if 1 <= n <= len(args) else m.group(0)
    return _ARG.sub(one, template)


class Message(str):
    """A catalogue sentence: the English text, with its entry's `id`, `template` and `args`."""

    id: str
    template: str
    args: tuple

    def __new__(cls, entry: Entry, args: tuple = (), english: str | None = None):
        self = super().__new__(cls, fill(entry.template, args) if english is None else english)
        self.id = entry.id
        self.template = entry.template
        self.args = tuple(args)
        return self

    def __reduce__(self):  # a copy (pickling, deepcopy) keeps the id
        return (_rebuild, (self.id, self.args, str(self)))


def _rebuild(id_: str, args: tuple, english: str) -> Message:
    return Message(CATALOGUE[id_], args, english)


class Entry:
    """One rule's sentence; calling it with the arguments gives the Message."""

    __slots__ = ("id", "template")

    def __init__(self, id_: str, template: str):
        self.id = id_
        self.template = template

    def __call__(self, *args) -> Message:
        return Message(self, args)

    def quoting(self, value, *rest) -> Message:
        """For a template that starts '%1' …: the English quotes `value` as Python's repr does (as
        the sentence always read: 'x', "it's", or 20261101 for a number), the translation as its own."""
        english = fill(self.template.replace("'%1'", "%1", 1), (repr(value), *rest))
        return Message(self, (value, *rest), english)

    def __repr__(self) -> str:
        return f"Entry({self.id!r}, {self.template!r})"


CATALOGUE: dict[str, Entry] = {}


def entry(id_: str, template: str) -> Entry:
    if id_ in CATALOGUE:
        raise ValueError(f"message id {id_} is declared twice")
    e = CATALOGUE[id_] = Entry(id_, template)
    return e


def message_of(exc: BaseException) -> str:
    """The sentence an error carries, as a Message when it came from the catalogue: a DomainError's
    `message`, else a ValueError's first argument (AmountError, DateError), else str(exc)."""
    msg = getattr(exc, "message", None)
    if isinstance(msg, str):
        return msg
    if exc.args and isinstance(exc.args[0], Message):
        return exc.args[0]
    return str(exc)


# --- fields ----------------------------------------------------------------------------------
REQUIRED = entry("field.required", "is required")
NOT_A_NUMBER = entry("field.not_a_number", "'%1' is not a number")
MUST_BE_POSITIVE = entry("field.must_be_positive", "must be greater than zero")
CANNOT_BE_NEGATIVE = entry("field.cannot_be_negative", "cannot be negative")
TOO_LONG = entry("field.too_long", "longer than %1 characters (%2); shorten it")

# --- amounts and numbers typed by a person (app/domain/money.py) -------------------------------
NOT_AN_AMOUNT = entry("money.not_an_amount", "'%1' is not an amount: write digits, e.g. 1234.50 or ¥1,234.50")
NOT_A_NUMBER_WRITE = entry("money.not_a_number", "'%1' is not a number: write digits, e.g. 1234.5 or 1,234.5")
TOO_MANY_DIGITS = entry("money.too_large", "%1 is too large: at most %2 digits before the decimal point")
TOO_MANY_DECIMALS_FEN = entry("money.decimals_fen",
                              "%1 has more decimals than allowed here: at most two decimals (to the fen)")
TOO_MANY_DECIMALS = entry("money.decimals", "%1 has more decimals than allowed here: at most %2 decimals")
NO_DECIMALS = entry("money.no_decimals", "%1 has more decimals than allowed here: no decimals")
AMOUNT_REQUIRED = entry("money.required", "is required: an amount of money, e.g. 1234.50")

# --- dates typed by a person (app/domain/clock.py) -------------------------------------------
DATE_FORMAT = entry("date.format", "'%1' is not a %2: use YYYY-MM-DD")
DATE_CALENDAR = entry("date.calendar", "'%1' is not a %2 of the calendar")
DATE_AS_TEXT = entry("date.as_text", "'%1' is not a %2: use YYYY-MM-DD (as text)")
DATE_RANGE = entry("date.range", "'%1' is out of range: dates run from 2000-01-01 to 2099-12-31")

# --- customers, contacts, regions ------------------------------------------------------------
CUSTOMER_NAME_REQUIRED = entry("customer.name_required", "the customer's legal name is required")
LEGAL_NAME_REQUIRED = entry("subsidiary.name_required", "the legal name is required")
USCC_REQUIRED = entry("uscc.required", "the unified social credit code is required")
USCC_LENGTH = entry("uscc.length", "a unified social credit code has 18 characters, this one has %1")
USCC_ALPHABET = entry("uscc.alphabet",
                      "a unified social credit code cannot contain %1 (I, O, S, V and Z are never used)")
USCC_CHECK = entry("uscc.check", "the check character is wrong: %1 must end in %2, not %3")
USCC_TAKEN = entry("customer.uscc_taken", "credit code %1 belongs to another customer")
EMAIL_INVALID = entry("contact.email", "'%1' is not an e-mail address")
PHONE_INVALID = entry("contact.phone", "'%1' is not a phone number")
CONTACT_NAME_REQUIRED = entry("contact.name_required", "a contact needs a name")
ACCOUNT_MANAGER_ROLE = entry("customer.account_manager", "the account manager must be a user with that role")
REGION_CODE_FORMAT = entry("region.format", "'%1' is not a region code: GB/T 2260 codes have six digits, e.g. 460108")
REGION_UNKNOWN = entry("region.unknown", "%1 is not in the list of regions (GB/T 2260, county level and above); "
                                         "check the code, or import the regions that have it")

# --- contracts (app/services/contracts.py) ---------------------------------------------------
CONTRACT_NO_ITEMS = entry("contract.no_items", "a contract needs at least one item")
CUSTOMER_INACTIVE = entry("contract.customer_inactive", "%1 is inactive; reactivate the customer first")
CONTRACT_DATES = entry("contract.dates", "a contract has a start and an end date")
CONTRACT_ENDS_FIRST = entry("contract.ends_first", "the contract ends (%1) before it starts (%2)")
RACK_LEASE_TARGET = entry("contract.rack_lease_target", "a rack lease names an existing rack or a cage")
POWER_ALLOWANCE_PAIR = entry("contract.power_allowance",
                             "give both the power allowance (kW) and the price per kWh over it, or neither")
GPU_ITEM_TARGET = entry("contract.gpu_target", "a GPU item names a GPU model and quantity, or the GPUs themselves")
GPU_WHOLE = entry("contract.gpu_whole", "GPUs are counted in whole numbers")
HOSTING_TARGET = entry("contract.hosting_target", "hosting names a rack unit range or a device")
UNIT_RANGE = entry("contract.unit_range", "a unit range runs from U1 upwards and ends at or after its start")
RACK_HEIGHT = entry("contract.rack_height", "the rack has %1U")
MBPS_REQUIRED = entry("contract.mbps", "bandwidth priced per Mbps names the Mbps")
SERVICE_ENDS_FIRST = entry("contract.service_ends_first", "ends before the service starts")

# --- VAT (app/services/reference.py tax_rate_for: billing, the contract form and its PDF) ---------
TAX_RATE_MISSING = entry(
    "tax.rate_missing",
    "there is no tax rate for %1 valid in %2; the rates on record start in %3 and no screen adds one "
    "(they come with the database's upgrades): use a date from %3 on, or have the rate added to the "
    "database's tax_rate table")
TAX_RATE_NONE = entry(
    "tax.rate_none",
    "there is no tax rate for %1 valid in %2, nor any rate for %1 on record; no screen adds one (they come "
    "with the database's upgrades): run db upgrade, or have the rate added to the database's tax_rate table")

# --- passwords (app/services/users.py) -------------------------------------------------------
PASSWORD_WRONG = entry("password.wrong", "the current password is wrong")
PASSWORD_SHORT = entry("password.short", "a password has at least 8 characters")
PASSWORD_SAME = entry("password.same", "the new password is the same as the current one")

# --- fapiao, storage, power, ports, files ----------------------------------------------------
FAPIAO_NUMBER = entry("fapiao.number", "the fapiao number: 8 to 32 digits or letters (a 数电 fapiao has 20 digits)")
FAPIAO_TAX = entry("fapiao.tax",
                   "¥%1 is not the tax on ¥%2 at statement %3's rate (%4): expected %5; check the fapiao's 税额")
DISK_FULL = entry("storage.full", "the disk is full (%1): nothing was written, the whole change was rolled back. "
                                  "Free some space and try again")
PANEL_SMALLER = entry("power.panel_smaller",
                      "feed %1 of this panel has a %2 A breaker; a panel cannot be smaller than its feeds "
                      "(give at least %3 A, or change the feeds first)")
PORT_NAME = entry("port.name", "'%1' is not a port: ports are numbered from 1 (or named, e.g. 12A)")
CABLE_SAME_PORT = entry("port.same", "a cable joins two ports; both ends are port %1 of the same device")
NOT_XLSX = entry("file.not_xlsx", "%1 is not an Excel workbook (.xlsx) (%2); save it from Excel as .xlsx, or as CSV")
CELL_TOO_LONG = entry("file.cell_too_long", "cannot read %1: a cell on line %2 is longer than %3 characters")

# --- capacity search (app/services/capacity/search.py): the refusal and where capacity is -----------
# One sentence built of parts, each translated by its id (a part that is a Message is translated
# inside the whole): what is short, in which scope and window, then the nearest free groups, the
# holds and the maintenance windows that keep GPUs of the model.
CAPACITY_SHORT = entry("capacity.short",
                       "%1 × %2%3%4 %5 cannot be offered: at most %6 GPUs are free%7%4, %8 short%9%10%11")
CAPACITY_ANY_TRAINING = entry("capacity.any_training", "8-GPU training")
CAPACITY_IN_FABRIC = entry("capacity.in_fabric", " in one fabric")
CAPACITY_IN_DOMAIN = entry("capacity.in_domain", " in one scale-up domain")
CAPACITY_IN_SITE = entry("capacity.in_site", " in one site")
CAPACITY_IN_PLACE = entry("capacity.in_place", " in %1")
CAPACITY_FROM_TO = entry("capacity.from_to", "from %1 to %2")
CAPACITY_FROM_OPEN = entry("capacity.from_open", "from %1, open-ended")
CAPACITY_NONE_FREE = entry("capacity.none_free", "; no node of that model is free anywhere in the window")
CAPACITY_NEAREST = entry("capacity.nearest", "; nearest free capacity: %1")
CAPACITY_FREE_IN = entry("capacity.free_in", "%1 × %2 in %3 (%4)")
CAPACITY_FREE_IN_NO_FABRIC = entry("capacity.free_in_no_fabric", "%1 × %2 in %3 (%4, no fabric)")
CAPACITY_HELD = entry("capacity.held", "; held: %1")
CAPACITY_HOLD_ITEM = entry("capacity.hold_item", "%1 × %2 in %3 (hold %4 until %5)")
CAPACITY_MAINTENANCE = entry("capacity.maintenance", "; under maintenance: %1")
CAPACITY_MAINTENANCE_ITEM = entry("capacity.maintenance_item", "%1 × %2 (%3)")
# a list of parts ("a, b, c" as a, (b, c)), each part translated on its own
LIST_COMMA = entry("text.list_comma", "%1, %2")


def listed(parts) -> str:
    """Parts as one list ("a, b, c"), each part translated on its own: nested LIST_COMMA."""
    parts = list(parts)
    if not parts:
        return ""
    out = parts[-1]
    for p in reversed(parts[:-1]):
        out = LIST_COMMA(p, out)
    return out

# --- site access and visits (app/services/operations/visits.py) ------------------------------
VISIT_ACCESS_ENDS_FIRST = entry("visit.access_ends_first", "the authorisation ends before it starts")
VISIT_CAGE_SITE = entry("visit.cage_site", "cage %1 is not at site %2")
VISIT_REVOKE_REASON = entry("visit.revoke_reason", "say why the access ends (e.g. the engineer left the company)")
VISIT_REVOKED = entry("visit.revoked", "that access was revoked at %1 already")
VISIT_NO_VISITOR = entry("visit.no_visitor", "name at least one visitor (real name and ID)")
VISITOR_NAME = entry("visit.visitor_name", "visitor %1: the real name as on the ID")
VISITOR_ID_TYPE = entry("visit.visitor_id_type", "visitor %1: the ID type is one of %2")
VISITOR_ID_NUMBER = entry("visit.visitor_id_number", "visitor %1: the ID number")
VISITOR_RESIDENT_ID = entry("visit.visitor_resident_id", "visitor %1: a resident ID number has 18 characters "
                                                         "with a valid check digit; check it against the card")
VISITOR_ID_LONG = entry("visit.visitor_id_long", "visitor %1: at most 32 characters")
VISIT_PURPOSE = entry("visit.purpose", "say what the visit is for (e.g. install two servers in rack A05)")
VISIT_SPACE = entry("visit.space", "name the cage or the racks to visit")
VISIT_START = entry("visit.start", "give when the visit starts (date and time)")
VISIT_END = entry("visit.end", "the visit ends after it starts")
VISIT_OTHER_AM = entry("visit.other_account_manager", "%1 is another account manager's customer: they request its visits")
VISIT_NOT_CONTACT = entry("visit.not_contact", "%1 is not a contact of %2")
VISIT_CAGE_NOT_LEASED = entry("visit.cage_not_leased", "%1 does not lease cage %2 from %3 to %4: "
                                                       "a visit goes only to the customer's own space")
VISIT_RACK_NOT_LEASED = entry("visit.rack_not_leased", "%1 does not lease rack %2 from %3 to %4: "
                                                       "a visit goes only to the customer's own space")
VISIT_ONE_SITE = entry("visit.one_site", "the racks or cage of one visit are at one site")
VISIT_NOT_AUTHORISED = entry("visit.not_authorised", "%1 is not authorised for %2 from %3 to %4: an administrator "
                                                     "authorises the customer's contacts first (visit authorise)")
VISIT_NOT_AUTHORISED_CAGE = entry("visit.not_authorised_cage",
                                  "%1 is not authorised for %2 (that cage) from %3 to %4: an administrator "
                                  "authorises the customer's contacts first (visit authorise)")
VISITOR_NOT_AUTHORISED = entry("visit.visitor_not_authorised", "visitor %1 is not authorised for %2 on those days: "
                                                               "ask for an escort, or have the contact authorised first")
VISITOR_NOT_CONTACT = entry("visit.visitor_not_contact", "visitor %1 is not an authorised contact of %2: "
                                                         "such visitors come escorted (ask for an escort)")
VISIT_CANNOT_BECOME = entry("visit.cannot_become", "%1 is %2: it cannot become %3")
VISIT_REJECT_REASON = entry("visit.reject_reason", "say why the visit is refused (the customer is told)")
VISIT_CANCEL_REASON = entry("visit.cancel_reason", "say why the visit is cancelled")
VISIT_BADGE = entry("visit.badge", "the number of the badge handed over")
VISIT_NOT_APPROVED = entry("visit.not_approved", "%1 is %2: only an approved visit is let in "
                                                 "(an administrator approves it)")
VISITOR_IN_ALREADY = entry("visit.in_already", "%1 was checked in at %2 already")
VISIT_OUT_OF_WINDOW = entry("visit.out_of_window", "%1 is for %2 – %3: %4 cannot be let in at %5")
VISIT_BADGE_BUSY = entry("visit.badge_busy", "badge %1 is with %2, still on site: hand over another badge")
VISITOR_NEVER_IN = entry("visit.never_in", "%1 was never checked in")
VISITOR_OUT_ALREADY = entry("visit.out_already", "%1 was checked out at %2 already")
VISITOR_OUT_BEFORE_IN = entry("visit.out_before_in", "%1 came in at %2: out after that")

# --- maintenance windows (app/services/operations/maintenance.py) ----------------------------
MW_DEVICE_NO_RACK = entry("maintenance.device_no_rack", "the device is not in a rack: name its rack's site work instead")
MW_START = entry("maintenance.start", "give the start as a date and time (Asia/Shanghai)")
MW_END = entry("maintenance.end", "give the end as a date and time (Asia/Shanghai)")
MW_ENDS_FIRST = entry("maintenance.ends_first", "the window ends after it starts")
MW_TARGET_KIND = entry("maintenance.target_kind", "what is worked on: %1")
MW_TARGET = entry("maintenance.target", "name what is worked on")
MW_TITLE = entry("maintenance.title", "say what the work is (e.g. 'UPS-A battery replacement')")
MW_EMERGENCY_REASON = entry("maintenance.emergency_reason",
                            "emergency maintenance says why it cannot wait for the notice period")
MW_UPS_SITE = entry("maintenance.ups_site", "a UPS is named within its site: give the site")
MW_NO_UPS = entry("maintenance.no_ups", "no power panel of that site is behind a UPS named '%1'")
MW_NOT_PDU = entry("maintenance.not_pdu", "that device is not a PDU plugged into a feed (`power pdu` attaches it)")
MW_CANNOT_BECOME = entry("maintenance.cannot_become", "%1 is %2: it cannot become %3 (allowed: %4)")
MW_NOTICE_SHORT = entry("maintenance.notice_short",
                        "%1 starts %2, %3 from now; planned maintenance is noticed at least %4 h before it starts "
                        "(setting %5). Reschedule it later, or plan it as emergency maintenance with a reason.")
MW_HOURS = entry("maintenance.hours", "%1 h")
MW_HOURS_AFTER = entry("maintenance.hours_after", "%1 h after it started")
MW_TENTATIVE = entry("maintenance.tentative", "%1 is still tentative: confirm it (the customers get notice) first")
MW_END_BEFORE_START = entry("maintenance.end_before_start", "the work started %1: it ends after that")
MW_CANCEL_REASON = entry("maintenance.cancel_reason", "say why the work is cancelled (the customers were told of it)")
MW_MOVE_REASON = entry("maintenance.move_reason", "say why the work moves")
MW_NOT_RESCHEDULABLE = entry("maintenance.not_reschedulable",
                             "%1 is %2: only a tentative or confirmed window is rescheduled")
MW_NAME = entry("maintenance.name", "name the window as MW-000123 or its id")
MW_NONE = entry("maintenance.none_allowed", "none")
# a visit's or a window's state inside a sentence (lower case), and as a label in a list
OPS_STATE = {w: entry(f"operations.state.{w.replace(' ', '_')}", w) for w in (
    "tentative", "confirmed", "in progress", "completed", "cancelled", "rescheduled",
    "requested", "approved", "rejected", "closed")}
OPS_STATE_LABEL = {w: entry(f"operations.state_label.{w.lower().replace(' ', '_')}", w) for w in (
    "Tentative", "Confirmed", "In progress", "Completed", "Cancelled", "Rescheduled")}

# --- a year of China's holidays added by an administrator (app/services/operations/holidays.py) ---
HOLIDAY_FILE = entry("holiday.file", "%1 is not a holiday-cn year file (JSON with \"year\" and \"days\"): %2")
HOLIDAY_DAY = entry("holiday.day", "day %1 of the file: each day has a name, a date (YYYY-MM-DD) of %2 and isOffDay")
HOLIDAY_EMPTY = entry("holiday.empty", "the file names no days: a year's schedule lists its holidays and make-up days")

# SLA targets and calendars set by an administrator (app/services/operations/sla_admin.py)
SLA_MINUTES = entry("sla.minutes", "a whole number of minutes above 0 (at most a year)")
SLA_SCOPE = entry("sla.scope", "targets belong to a service level or to one contract, not both")
SLA_LEVEL = entry("sla.level", "%1 is not a service level: one of %2")
SLA_PRIORITY = entry("sla.priority", "%1 is not a priority: P1 to P4")
SLA_ORDER = entry("sla.order", "%1: the time to resolve is at least the time to acknowledge")
SLA_MODE = entry("sla.mode", "a calendar is one of %1")
SLA_HOURS = entry("sla.hours", "business hours: %1")
SLA_NO_HOURS = entry("sla.no_hours", "business hours name at least one weekday, e.g. 'mon 09:00-18:00; tue 09:00-18:00'")

# --- a row that is not there (app/store/found.py's get_or_404): the noun translated on its own ----
NOT_FOUND = entry("store.not_found", "%1 %2 does not exist (it may have been deleted by someone else)")
# (GPU, PDU: the same in both languages, given as they are)
THING = {w: entry("thing." + w.lower().replace(" ", "_").replace("-", "_"), w) for w in (
    "maintenance window", "rack", "device", "customer", "user", "site", "feed", "cage", "room", "contract",
    "contract item", "contact", "visitor", "cross-connect", "SLA calendar", "visit", "subsidiary",
    "site access", "reservation", "region", "price", "power panel", "power feed", "node", "lease",
    "downtime record", "attachment", "circuit", "ticket", "on-call shift", "notification", "SLA credit")}


def not_found(what: str, key) -> Message:
    """'<what> <key> does not exist …', the noun from THING when it is one (else as given: a model's name)."""
    return NOT_FOUND(THING[what]() if what in THING else what, key)


# --- tickets (app/services/operations/tickets.py) --------------------------------------------
TICKET_AT_AWARE = entry("ticket.at_aware", "an aware time (UTC or Asia/Shanghai)")
TICKET_AT_FUTURE = entry("ticket.at_future", "%1 is in the future: give the time it happened")
TICKET_NOT_FOUND = entry("ticket.not_found", "ticket %1 does not exist: give its number (T-2026-000123) or id")
TICKET_AT_BEFORE_LAST = entry("ticket.at_before_last",
                              "before the ticket's last event (%1): the timeline only moves on")
TICKET_OPEN_FROM = entry("ticket.open_from", "open a ticket from one of: %1")
TICKET_TITLE = entry("ticket.title", "say in a few words what is wrong or wanted")
TICKET_ONE_OF = entry("ticket.one_of", "one of %1")
TICKET_PRIORITY = entry("ticket.priority", "P1, P2, P3 or P4")
TICKET_REQUESTED_FOR = entry("ticket.requested_for", "a scheduled task needs the time the customer asked for")
TICKET_TASK = entry("ticket.task", "pick the remote-hands task from the catalogue")
TICKET_TRACKING = entry("ticket.tracking", "an inbound shipment needs the carrier and the tracking number")
TICKET_CONTACT = entry("ticket.contact", "a contact of the ticket's customer")
TICKET_NO_CONTRACT = entry("ticket.no_contract", "no such contract")
TICKET_CONTRACT = entry("ticket.contract", "a contract of the ticket's customer")
TICKET_NO_CUSTOMER = entry("ticket.no_customer", "no such customer")
TICKET_NO_USER = entry("ticket.no_user", "no such user")
TICKET_OBJECT = entry("ticket.object", "an object is one of: %1")
TICKET_RESOLVED = entry("ticket.resolved", "%1 is resolved: reopen it (with a reason) to work on it again")
TICKET_CANNOT_MOVE = entry("ticket.cannot_move", "%1 is %2: it can move to %3, not to %4")
TICKET_NO_MOVES = entry("ticket.no_moves", "none (closed)")
TICKET_RESOLVE_NOTE = entry("ticket.resolve_note", "say what was done to resolve it (the customer reads it)")
TICKET_REOPEN_REASON = entry("ticket.reopen_reason", "say why it is reopened")
TICKET_NOT_REOPENABLE = entry("ticket.not_reopenable", "%1 is %2: only a resolved or closed ticket is reopened")
TICKET_REOPEN_LATE = entry("ticket.reopen_late",
                           "%1 was resolved on %2, more than %3 days ago: open a new ticket that refers to it")
TICKET_PRIORITY_REASON = entry("ticket.priority_reason", "say why the priority changes")
TICKET_CLOSED = entry("ticket.closed", "%1 is closed")
TICKET_SAME_PRIORITY = entry("ticket.same_priority", "%1 is already %2")
TICKET_NOTE = entry("ticket.note", "write the note")
TICKET_VISIBILITY = entry("ticket.visibility", "internal or customer")
TICKET_ASSIGNEE = entry("ticket.assignee", "%1 cannot work tickets: assign an active operator or administrator")
TICKET_FILENAME = entry("ticket.filename", "the file's name")
TICKET_FILE_EMPTY = entry("ticket.file_empty", "%1 is empty")
TICKET_FILE_TOO_LARGE = entry("ticket.file_too_large",
                              "%1 is %2 KB; a ticket keeps files up to %3 KB (setting ticket_attachment_max_kb): "
                              "make the photo smaller or ask an administrator")
TICKET_NO_DOWN_OBJECT = entry("ticket.no_down_object",
                              "%1 names no GPU or server: add the object that was down to record its downtime")
# a ticket's state inside a sentence, as its label (models.choices.TicketState)
TICKET_STATE_LABEL = {w: entry("ticket.state_label." + w.lower().replace(" ", "_"), w) for w in (
    "New", "Acknowledged", "On site", "In progress", "Waiting for customer", "Waiting for vendor", "Resolved",
    "Closed")}
