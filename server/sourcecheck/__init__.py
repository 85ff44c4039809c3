"""sourcecheck: check SourceCheck citation sessions, from the command line or an editor."""

__version__ = "0.1.0"
