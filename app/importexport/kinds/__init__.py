"""What can be imported and exported: the built-in kinds (core) and one module per concern."""
