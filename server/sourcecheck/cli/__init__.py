"""The `sourcecheck` command and its output formats (human, JSON, GitHub, SARIF)."""
