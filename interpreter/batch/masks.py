"""A deck's cards as bit positions: card sets, hands and piles as packed 64-bit words.

Where it sits: under every module of the batch back end (`interpreter.batch`). Card `i` is
bit `i % 64` of word `i // 64`; two words cover 128 cards. A zone of many hands is an array
of shape [hands, seats, words] (or [hands, words] for one seat), so that a union, an
intersection or a count over thousands of hands is a handful of array operations.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

WORD = np.dtype("<u8")  # little-endian, so a word's bytes are its cards in order
Masks = npt.NDArray[np.uint64]
Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]

_BYTE_COUNTS = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


class Layout:
    """How the cards of one deck lie in words."""

    def __init__(self, cards: int) -> None:
        self.cards = cards
        self.words = max(1, -(-cards // 64))
        self.card_masks: Masks = np.zeros((cards, self.words), dtype=WORD)
        for card in range(cards):
            self.card_masks[card, card // 64] = np.uint64(1) << np.uint64(card % 64)
        self.all: Masks = self.of(range(cards))

    def of(self, cards: Iterable[int]) -> Masks:
        """The mask of a set of cards (shape [words])."""
        mask = np.zeros(self.words, dtype=WORD)
        for card in cards:
            mask[card // 64] |= np.uint64(1) << np.uint64(card % 64)
        return mask

    def empty(self, *shape: int) -> Masks:
        return np.zeros((*shape, self.words), dtype=WORD)

    def to_bools(self, masks: Masks) -> Bools:
        """Each card's membership: shape [..., words] -> [..., cards]."""
        as_bytes = np.ascontiguousarray(masks, dtype=WORD).view(np.uint8)
        bits = np.unpackbits(as_bytes, axis=-1, bitorder="little")
        return bits[..., : self.cards].astype(np.bool_)

    def from_bools(self, bools: Bools) -> Masks:
        """The masks of boolean membership arrays: shape [..., cards] -> [..., words]."""
        padded = np.zeros((*bools.shape[:-1], self.words * 64), dtype=np.bool_)
        padded[..., : self.cards] = bools
        packed = np.packbits(padded, axis=-1, bitorder="little")
        return np.ascontiguousarray(packed).view(WORD)

    def from_cards(self, cards: Ints) -> Masks:
        """The one-card masks of an array of card indexes (-1 gives an empty mask)."""
        masks = self.card_masks[np.maximum(cards, 0)]
        return np.where((cards >= 0)[..., None], masks, np.uint64(0))

    def contains(self, masks: Masks, cards: Ints) -> Bools:
        """Whether each mask holds the card beside it (-1 is in no mask)."""
        safe = np.maximum(cards, 0)
        word = np.take_along_axis(masks, (safe // 64)[..., None], axis=-1)[..., 0]
        bit = (word >> (safe % 64).astype(WORD)) & np.uint64(1)
        return (bit == 1) & (cards >= 0)

    def nth_card(self, masks: Masks, nth: Ints) -> Ints:
        """The `nth` card (from 0, in card order) of each mask; the mask must hold more."""
        ranks = np.cumsum(self.to_bools(masks), axis=-1)
        return np.argmax(ranks > nth[..., None], axis=-1).astype(np.int64)


def count(masks: Masks) -> Ints:
    """The number of cards in each mask: shape [..., words] -> [...]."""
    if hasattr(np, "bitwise_count"):  # numpy 2
        return np.bitwise_count(masks).sum(axis=-1, dtype=np.int64)  # type: ignore[no-any-return]
    as_bytes = np.ascontiguousarray(masks, dtype=WORD).view(np.uint8)
    return _BYTE_COUNTS[as_bytes].sum(axis=-1)  # type: ignore[no-any-return]


def any_card(masks: Masks) -> Bools:
    """Whether each mask holds a card."""
    return np.any(masks != 0, axis=-1)
