"""No models: the module is here so that Django sends adminkit its post_migrate
signal, on which the export permissions are made (adminkit/permissions.py)."""
