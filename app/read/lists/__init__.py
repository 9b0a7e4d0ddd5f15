"""The console's lists: declared as data (specs) and read in pages (paging)."""
