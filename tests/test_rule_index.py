"""The rule index: each event's payment rules narrowed, card by card, by their card guards."""

from __future__ import annotations

from tarot.compile.loader import load_ruleset
from tarot.core.rule_index import RuleIndex
from tarot.core.ruleset import PaymentRule


def _ids(rules) -> list[str]:
    return [rule.id for rule in rules]


def test_a_trick_end_rule_about_some_cards_is_indexed_under_those_cards_only():
    ruleset = load_ruleset("marolles-1637")
    sets, index = ruleset.deck.sets, ruleset.rule_index
    for card in range(len(ruleset.deck)):
        rules = _ids(index.rules("trick_end", {"card": card}))
        assert ("tarot_kept" in rules) == (card in sets["tarots"])
        assert ("fool_not_excused" in rules) == (card in sets["fool"])
        all_rules = _ids(ruleset.payments["trick_end"])
        assert rules == [r for r in all_rules if r in rules]  # in the ruleset's order
    plain = next(c for c in range(len(ruleset.deck)) if c not in sets["tarots"])
    assert index.rules("trick_end", {"card": plain}) == ()
    assert not index.any_for(("card_played", "trick_end"), plain)
    assert index.any_for(("card_played", "trick_end"), min(sets["tarots"]))


def test_a_rule_that_can_never_be_true_is_left_out_and_one_without_a_guard_kept():
    ruleset = load_ruleset("marolles-1637", choices={"illegal_discard": "per_card"})
    # `option.illegal_discard == 'per_discard' and ...` is false under this reading
    assert ruleset.rule_index.rules("discards_done", {"player": 0}) == ()

    def rule(rule_id: str, when) -> PaymentRule:
        return PaymentRule(rule_id, rule_id, "trick_end", when, None, None, None, "")

    handmade = RuleIndex({"trick_end": (rule("always", None), rule("lambda", lambda s: 0))}, 3)
    assert _ids(handmade.rules("trick_end", {"card": 2})) == ["always", "lambda"]
    assert _ids(handmade.rules("trick_end", {})) == ["always", "lambda"]
