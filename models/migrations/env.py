"""Alembic environment: the engine comes from app/db.py or from `-x url=...`."""
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
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=True,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run_migrations_online()
