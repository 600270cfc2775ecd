"""Authoring tools: the language server (`grimoire lsp`), the card-file JSON Schema
(`grimoire schema`) and the scaffold of a new ruleset (`grimoire new`)."""
