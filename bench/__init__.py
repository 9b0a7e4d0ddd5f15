"""Benchmark and large-data generator: `idc-console bench` and `idc-console demo load --scale large`.

Apart from the product (app/, ui/, models/, reports/), which never imports it (import-linter
contract in pyproject.toml); it uses the product's public functions like any other caller.
"""
