"""The Operations page's own tab titles (its tabs come from the ticket, maintenance and visits concerns)."""
ZH = {"Visitors": "访客", "Maintenance": "维护"}
