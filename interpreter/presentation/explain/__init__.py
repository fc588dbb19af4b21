"""`tarot explain`: a ruleset as a rules page, in the order a player learns the game.

`page` builds the page from a loaded ruleset (rules in plain words with their sources, the
options with every reading and the one in force, parameters, assumptions, sources);
`render` prints it as text or Markdown; `words` phrases the values of the sections.
"""

from tarot.presentation.explain.page import Page, explain_page
from tarot.presentation.explain.render import FORMATS, render

__all__ = ["FORMATS", "Page", "explain_page", "render"]
