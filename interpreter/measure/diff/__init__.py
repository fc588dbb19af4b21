"""Comparing two rulesets on paper (as written), without playing them.

Where it sits: after `tarot.load`. `paper` loads two rulesets and computes a
`RulesetDiff` (plain dataclasses: options, rules, other values); `render` turns it into text,
JSON or Markdown. The `tarot diff A B` command (`tarot.cli`) joins the two.
"""

from tarot.measure.diff.paper import (
    OptionChange,
    ReadingInfo,
    RuleChange,
    RulesetDiff,
    SideInfo,
    ValueChange,
    diff_loaded,
    diff_rulesets,
    load_pair,
)
from tarot.measure.diff.render import FORMATS, render, to_json, to_markdown, to_text

__all__ = [
    "FORMATS",
    "OptionChange",
    "ReadingInfo",
    "RuleChange",
    "RulesetDiff",
    "SideInfo",
    "ValueChange",
    "diff_loaded",
    "diff_rulesets",
    "load_pair",
    "render",
    "to_json",
    "to_markdown",
    "to_text",
]
