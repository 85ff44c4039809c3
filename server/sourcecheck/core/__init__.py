"""The checking core: JSON text with positions, the session model, the rules, fixes and the
analysis that ties them together. Pure Python: nothing here knows of editors or LSP."""
