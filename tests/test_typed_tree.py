"""The typed tree (`tarot.expressions.typed_tree`): what the checker makes of an expression,
read by both runners; the scalar closures made from it give what the language says."""

from __future__ import annotations

import pytest

from tarot.expressions import Environment, FactFunction, Scope, Type, compile_expression
from tarot.expressions.closures import closure, element_test

HANDS = {0: (0, 1, 5), 1: (2, 7), 2: ()}
ENV = Environment(
    variables={"player": Type.SEAT, "card": Type.CARD, "seats": Type.SEATS},
    card_sets={"tarots": frozenset({0, 1, 2})},
    options={"bonus": 6},
    facts={
        "hand": FactFunction((Type.SEAT,), Type.CARDS, lambda state, s: state[s], cost=3),
    },
    cards=8,
    seats=3,
)


def tree_of(text: str):
    compiled = compile_expression(text, ENV)
    assert compiled.tree is not None
    return compiled, compiled.tree


def test_the_tree_has_each_operation_its_type_and_its_arguments() -> None:
    _, tree = tree_of("count(c in hand(player): c in tarots) + option.bonus * 2")
    assert (tree.op, tree.type) == ("add", Type.NUMBER)
    counted, folded = tree.args
    assert (counted.op, counted.name, counted.var) == ("aggregate", "count", "c")
    assert (folded.op, folded.value) == ("const", 12)  # the option's value folded in
    collection, body = counted.args
    assert (collection.op, collection.name, collection.type) == ("call", "hand", Type.CARDS)
    assert collection.args[0].op == "var" and collection.args[0].name == "player"
    assert body.op == "member" and body.args[0].op == "bound"
    assert body.args[1].value == (0, 1, 2)  # the named set, as a constant


def test_each_node_carries_its_cost_and_dependence() -> None:
    compiled, tree = tree_of("count(hand(player)) > 1")
    assert tree.cost == compiled.own_cost
    assert tree.reads == compiled.reads and "player" in tree.reads
    assert tree.mentions("player") and not tree.mentions("card")


def test_the_scalar_runner_runs_the_tree() -> None:
    compiled, tree = tree_of("[c in hand(player) if c not in tarots]")
    scope = Scope(HANDS, {"player": 0})
    assert closure(tree, ENV)(scope) == compiled(scope) == (5,)


@pytest.mark.parametrize(
    ("body", "cards", "negated", "expression"),
    [
        ("c in tarots", frozenset({0, 1, 2}), False, False),
        ("not c in tarots", frozenset({0, 1, 2}), True, False),
        ("c in tarots + tarots", frozenset({0, 1, 2}), False, False),  # folded
        ("c in hand(player)", None, False, True),  # a set worked out once
        ("c in tarots and c not in hand(player)", None, None, None),  # a loop
    ],
)
def test_an_aggregation_that_asks_only_membership_is_a_set_form(
    body, cards, negated, expression
) -> None:
    _, tree = tree_of(f"count(c in hand(player): {body})")
    test = element_test(tree.args[1], lambda sub: closure(sub, ENV))
    if expression is None:
        assert test is None
        return
    assert test is not None and test.var == "c" and test.negated == negated
    assert test.cards == cards and (test.collection is not None) == expression
