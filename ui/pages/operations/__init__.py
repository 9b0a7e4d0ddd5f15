"""The operations desk: tickets, SLA clocks, on call, maintenance windows and site access."""
