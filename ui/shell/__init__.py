"""The console's shell: the window, start and login, settings, background operations, languages, fonts."""
