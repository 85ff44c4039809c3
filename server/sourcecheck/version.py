"""The version of sourcecheck, in a module of its own: every layer names it without importing the package."""

__version__ = "0.1.0"
