"""Word lists, one module per language (``en``, ``zh``): data only, no code of the package."""
