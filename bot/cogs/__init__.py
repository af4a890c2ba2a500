"""Slash commands and components, grouped by what they are about. Handlers stay thin: parse, call the host, reply."""
