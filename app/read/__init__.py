"""What the screens read: list specs and paging, search, filters, the pictures' read models."""
