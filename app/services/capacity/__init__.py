"""Selling GPU capacity (issue 25): the price list, the capacity search, holds, quotes.

prices.py   the price list and the figures of each term side by side (one home of a term's amount)
search.py   which nodes are free for a window, grouped into offers (set-wise SQL)
holds.py    holds on offered nodes, their expiry sweep, and the move to a contract
quotes.py   quotes (报价单) with colocation add-ons, accepted into a draft contract
"""
