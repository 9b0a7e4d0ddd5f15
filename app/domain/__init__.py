"""Pure rules, no database: money, clock, rating, wording, validators, errors, changes, roles and passwords."""
