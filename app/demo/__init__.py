"""The demo data (load), every part through the services."""
