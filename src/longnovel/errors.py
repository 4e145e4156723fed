"""User-facing errors. The CLI turns these into one clear line and exit code 1."""


class LongnovelError(Exception):
    """An error caused by the user's input or environment, shown as one line."""


class ConfigError(LongnovelError):
    """The config file is invalid."""


class InputError(LongnovelError):
    """A corpus file is missing, unreadable or malformed."""


class StageError(LongnovelError):
    """A stage cannot run, e.g. because an upstream stage has not run."""
