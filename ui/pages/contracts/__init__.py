"""Contracts: the list (list.py), a detail panel with the lifecycle moves (panel.py), and the draft
editor (editor.py, its items editor in items.py; the totals both show in figures.py).

Every change goes through app.services.contracts. Which buttons a contract offers, and why one
is disabled (the tooltip), is the service's answer (available_actions): the panel decides nothing.
A refused save keeps the input and shows the service's message beside the field.
"""
