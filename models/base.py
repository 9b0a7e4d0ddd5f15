"""Declarative base, naming convention and shared column types."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import DateTime, Index, Integer, MetaData, Numeric, String, TypeDecorator
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column
from sqlalchemy.sql.expression import FunctionElement

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator):
    """Stores naive UTC, returns aware UTC: the same on SQLite and PostgreSQL."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; times are stored in UTC and must be aware")
        return value.astimezone(dt.timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if isinstance(value, str):  # raw SQLite text
            value = dt.datetime.fromisoformat(value)
        return value.replace(tzinfo=dt.timezone.utc)


class utc_now_sql(FunctionElement):
    """The database's clock as naive UTC, comparable with a `UTCDateTime` column on both backends
    (SQLite stores text 'YYYY-MM-DD HH:MM:SS.ffffff'; PostgreSQL a timestamp without time zone)."""

    type = DateTime()
    inherit_cache = True
    name = "utc_now_sql"


@compiles(utc_now_sql, "sqlite")
def _utc_now_sqlite(element, compiler, **kw):
    return "strftime('%Y-%m-%d %H:%M:%f', 'now')"


@compiles(utc_now_sql, "postgresql")
def _utc_now_pg(element, compiler, **kw):
    return "(now() AT TIME ZONE 'UTC')"


def Money(precision: int = 14, scale: int = 2):
    return Numeric(precision, scale, asdecimal=True)


def pg_trigram_index(name: str, column: str) -> Index:
    """A pg_trgm GIN index for contains-filters (ILIKE '%…%') that exists on PostgreSQL only:
    SQLite has no such index, and a plain b-tree there would only slow down every insert.
    `info["dialect"]` tells the schema comparison to expect it on PostgreSQL alone."""
    return Index(name, column, postgresql_using="gin", postgresql_ops={column: "gin_trgm_ops"},
                 info={"dialect": "postgresql"}).ddl_if(dialect="postgresql")


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {
        dt.datetime: UTCDateTime(),
        Decimal: Numeric(14, 2),
        str: String(255),
    }


class Versioned:
    """Optimistic locking: every UPDATE checks and bumps `version`."""

    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    updated_at: Mapped[dt.datetime | None] = mapped_column(default=utcnow, onupdate=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(64))

    @declared_attr.directive
    def __mapper_args__(cls):
        return {"version_id_col": cls.version}


class IdMixin:
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
