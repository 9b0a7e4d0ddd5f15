"""The operations desk (issue 24): tickets (tickets.py), SLA clocks and breaches (sla.py), on call and
escalation (oncall.py), SLA credits on the bill (credits.py). Maintenance windows and site access
live beside them (maintenance.py, visits.py)."""
