"""The sourcecheck language server: live checking of SourceCheck sessions in an editor."""
