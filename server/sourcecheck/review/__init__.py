"""The review report: a session as one self-contained HTML page for a reviewer.

``render(analysis, name, editor=False)`` is a pure function of an analysis; the CLI's
``sourcecheck report`` writes it to a file, the language server's ``sourcecheck/review``
answers it to an editor's webview (``editor=True``).
"""

from .page import render

__all__ = ["render"]
