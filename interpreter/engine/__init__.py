"""The engine: deals, asks agents for decisions, fires payment rules and settles a hand."""
