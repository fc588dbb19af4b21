"""A deck's cards as bit positions: card sets, hands and piles as packed 64-bit words.

Where it sits: under every module of the batch back end (`tarot.batch`). Card `i` is
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


def distinct(values: npt.NDArray) -> list:
    """The different values of an array, in increasing order: `np.unique(values).tolist()`
    without the masked-array module (`numpy.ma`), which np.unique imports at its first call,
    again in every worker process."""
    flat = np.sort(values, axis=None)
    if not flat.size:
        return []
    keep = np.empty(flat.size, dtype=np.bool_)
    keep[0] = True
    np.not_equal(flat[1:], flat[:-1], out=keep[1:])
    return flat[keep].tolist()


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
        """Whether each mask holds the card beside it (-1 is in no mask). A mask of shape
        [words] is one set for every card."""
        safe = np.maximum(cards, 0)
        if masks.ndim == 1:
            return self.to_bools(masks)[safe] & (cards >= 0)
        masks = np.broadcast_to(masks, (*safe.shape, self.words))
        if self.words == 1:
            word = masks[..., 0]
        else:
            word = np.take_along_axis(masks, (safe >> 6)[..., None], axis=-1)[..., 0]
        bit = (word >> (safe & 63).astype(WORD)) & np.uint64(1)
        return (bit == 1) & (cards >= 0)

    def nth_card(self, masks: Masks, nth: Ints) -> Ints:
        """The `nth` card (from 0, in card order) of each mask; the mask must hold more."""
        nth = nth.astype(np.int64).copy()
        found = np.zeros(nth.shape, dtype=np.int64)
        word = masks[..., 0]
        for w in range(1, self.words):  # the word holding it, and its rank within the word
            in_earlier = _word_counts(masks[..., w - 1])
            later = nth >= in_earlier
            nth = np.where(later, nth - in_earlier, nth)
            found = np.where(later, 64 * w, found)
            word = np.where(later, masks[..., w], word)
        return found + _nth_bit(word, nth)


def _word_counts(words: Masks) -> Ints:
    """The number of set bits of each word."""
    if hasattr(np, "bitwise_count"):  # numpy 2
        return np.bitwise_count(words).astype(np.int64)
    as_bytes = np.ascontiguousarray(words, dtype=WORD).view(np.uint8).reshape(*words.shape, 8)
    return _BYTE_COUNTS[as_bytes].sum(axis=-1)


_LOW = [np.uint64((1 << width) - 1) for width in (32, 16, 8, 4, 2, 1)]


def _nth_bit(words: Masks, nth: Ints) -> Ints:
    """The position of the `nth` set bit (from 0) of each word, by halving the window."""
    position = np.zeros(nth.shape, dtype=np.int64)
    for width, low in zip((32, 16, 8, 4, 2, 1), _LOW, strict=True):
        below = _word_counts(words & low)
        higher = nth >= below
        nth = np.where(higher, nth - below, nth)
        position += np.where(higher, width, 0)
        words = np.where(higher, words >> np.uint64(width), words)
    return position


def count(masks: Masks) -> Ints:
    """The number of cards in each mask: shape [..., words] -> [...]."""
    total = _word_counts(masks[..., 0])
    for w in range(1, masks.shape[-1]):
        total = total + _word_counts(masks[..., w])
    return total


def any_card(masks: Masks) -> Bools:
    """Whether each mask holds a card."""
    union = masks[..., 0]
    for w in range(1, masks.shape[-1]):
        union = union | masks[..., w]
    return union != 0
