"""What every page is built of: paged tables, the list page, record panels, dialogs, forms, history, preview."""
