"""Alembic environment: the engine comes from app/store/db.py or from `-x url=...`."""
from alembic import context
from sqlalchemy import create_engine

import models

target_metadata = models.Base.metadata
config = context.config


def run_migrations_online() -> None:
    engine = config.attributes.get("engine")
    if engine is None:
        url = context.get_x_argument(as_dictionary=True).get("url", "sqlite:///dev.db")
        engine = create_engine(url)
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # SQLite alters a table by rebuilding it (batch mode: copy, DROP, rename); with foreign keys
            # enforced, dropping a table that filled tables refer to fails. SQLite's own procedure: keys
            # off during the change (a PRAGMA outside a transaction), foreign_key_check before the
            # commit, keys on again for the pooled connection.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        try:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=True,
                compare_type=True,
            )
            with context.begin_transaction():
                context.run_migrations()
                # what must commit with the upgrade itself (PostgreSQL's `db upgrade`: its audit event)
                in_transaction = config.attributes.get("in_transaction")
                if in_transaction is not None:
                    in_transaction(connection)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration left rows that refer to nothing: {broken[:5]}")
            connection.commit()
        finally:
            if sqlite:
                connection.rollback()
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")


run_migrations_online()
