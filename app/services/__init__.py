"""Use cases. Each takes a UnitOfWork, checks permission, validates, writes, audits."""
