"""The sourcecheck language server: live checking of SourceCheck sessions in an editor."""

from .main import main

raise SystemExit(main())
