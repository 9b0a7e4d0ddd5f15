"""A list's column filters, carried in its filter text as tokens beside the free text:
'@status=active,suspended @customer=%E6%B5%B7 FZ-2026' (values URL-quoted, so a token has no space).

The console's list machinery (paging, counting, export of the view) takes one filter text, so the
column filters travel in it and become SQL here: a choice column by its stored values (one of
them), a yes/no column by truth, any other column by "contains" (case-insensitive for ASCII).
"""
from __future__ import annotations

from urllib.parse import quote, unquote

from sqlalchemy import String, and_, cast, false

PREFIX = "@"


def column_token(key: str, value: str) -> str:
    return f"{PREFIX}{key}={quote(value, safe=',')}"


def filter_text(filters: dict[str, str], text: str = "") -> str:
    """The filter text for column filters {key: value} plus free text (inverse of split)."""
    parts = [column_token(k, v) for k, v in filters.items() if v]
    if (text or "").strip():
        parts.append(text.strip())
    return " ".join(parts)


def split(spec, text: str | None) -> tuple[dict[str, str], str]:
    """({column key: value}, the free text left); a token naming no column of the list stays text."""
    keys = set(spec.keys())
    filters: dict[str, str] = {}
    rest = []
    for word in (text or "").split():
        key, sep, value = word[len(PREFIX):].partition("=") if word.startswith(PREFIX) else ("", "", "")
        if sep and key in keys and value:
            filters[key] = unquote(value)
        else:
            rest.append(word)
    return filters, " ".join(rest)


def clause(db, spec, filters: dict[str, str]):
    """The WHERE clause of the column filters (None when there are none)."""
    from app.read.queries import like_pattern, searchable
    cond = []
    for key, value in filters.items():
        col = spec.column(key)
        if not searchable(value):
            cond.append(false())  # a NUL is in no stored value
        elif col.kind == "choice":
            cond.append(col.expr.in_([v for v in value.split(",") if v]))
        elif col.kind == "bool":
            cond.append(col.expr.is_(value.lower() in ("1", "true", "yes")))
        else:
            text = cast(col.expr, String)
            pattern = like_pattern(value)
            cond.append(text.like(pattern, escape="\\") if db.is_sqlite else text.ilike(pattern, escape="\\"))
    return and_(*cond) if cond else None


# --- sorting a choice column by its labels ----------------------------------------------------
# The console sorts a choice column by the labels the reader sees: it passes the sort key
# "status@active,approved,draft,…" (the stored values in the order of their labels, collated in
# the reader's language); SQL orders by each value's place in that list.
def sort_key(key: str, values_in_label_order: list[str]) -> str:
    return f"{key}@{','.join(values_in_label_order)}"


def sort_column(spec, sort: str):
    """(the column, the SQL expression to order by) for a list's sort key."""
    from sqlalchemy import case, literal
    key, sep, order = sort.partition("@")
    col = spec.column(key)
    if not sep or col.kind != "choice":
        return col, col.expr
    values = [v for v in order.split(",") if v]
    rank = case({v: i for i, v in enumerate(values)}, value=col.expr, else_=literal(len(values)))
    return col, rank
