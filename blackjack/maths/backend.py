"""Who computes the engine's batches: the compiled kernel (``kernel.c``, built in place by
``pip install -e .``) where it is built, else numpy (:mod:`blackjack.maths.batch`).  Both give
the same values to the last bit (the kernel does numpy's sums in numpy's order); the kernel,
several times sooner, and without loading numpy at all.

>>> from blackjack.rules import Rules
>>> from blackjack.cards import full_composition, remove_cards
>>> out = dealer_probabilities(Rules(), 6, remove_cards(full_composition(6), [6]),
...                            no_blackjack=False)
>>> round(out.bust, 4)
0.4228
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from blackjack.cards import Composition
from blackjack.maths.dealer import BLACKJACK, DealerOutcome, encode
from blackjack.rules import Rules

if TYPE_CHECKING:
    from blackjack.maths.batch import DealerCache


class KernelDealer(Protocol):
    """The kernel's ``Dealer(up, h17)``: outcome vectors of many shoes, kept by code."""

    def __len__(self) -> int: ...

    def fill_less(self, pairs: Sequence[tuple[Composition, int]], /) -> None: ...

    def fill(self, codes: Sequence[int], /) -> None: ...

    def known(self, code: int, /) -> bool: ...

    def vector(self, code: int, /) -> tuple[float, ...]: ...

    def stand_row(self, code: int, peek: bool, /) -> tuple[float, ...]: ...


class KernelHands(Protocol):
    """The kernel's ``Hands()``: hit-or-stand values kept by (shoe code, 2 * hard + ace)."""

    def __len__(self) -> int: ...

    def solve(
        self,
        dealer: KernelDealer,
        families: Sequence[tuple[Composition, int, bool]],
        memos: int,
        peek: bool,
        bj_index: int,
        /,
    ) -> list[tuple[int, int, int, float, float, float]]: ...

    def get(self, code: int, key: int, /) -> float | None: ...

    def items(self) -> list[tuple[int, int, float]]: ...


# Set (to anything) to compute in numpy even where the kernel is built (tests, comparisons).
PURE_ENV = "BLACKJACK_PURE"


def _load_kernel() -> ModuleType | None:
    """The compiled kernel (``kernel.c``, built in place by ``pip install -e .``), or None where
    it was not built or :data:`PURE_ENV` is set: numpy then computes the same values (to the
    last bit: the kernel does the same sums in the same order), several times more slowly."""
    if os.environ.get(PURE_ENV):
        return None
    try:
        # By name: the package's import machinery, not a circle through blackjack.maths.
        return importlib.import_module("blackjack.maths.kernel")
    except ImportError:
        return None


KERNEL = _load_kernel()


class KernelDealerCache:
    """:class:`DealerCache` computed by the compiled kernel: the outcome vectors stay in C,
    keyed by shoe code; a stand row becomes a tuple (kept in ``rows``) when Python asks."""

    def __init__(self, up: int, h17: bool, kernel: ModuleType) -> None:
        self.up = up
        self.h17 = h17
        self.kernel: KernelDealer = kernel.Dealer(up, h17)
        self._module = kernel
        peekless: dict[int, tuple[float, ...]] = {}
        self.rows = (peekless, {} if up in (1, 10) else peekless)

    def __len__(self) -> int:
        return len(self.kernel)

    def known(self, code: int) -> bool:
        return self.kernel.known(code)

    def hands(self) -> KernelHands:
        """A new store of the kernel's hand values, filled from this dealer's vectors."""
        hands: KernelHands = self._module.Hands()
        return hands

    def any_unknown(self, codes: Sequence[int]) -> bool:
        return not all(map(self.kernel.known, codes))

    def fill_less(self, pairs: Sequence[tuple[Composition, int]]) -> None:
        """The vectors of each composition of ``pairs`` less every multiset of at most that many
        points it holds, those not known yet."""
        self.kernel.fill_less(pairs)

    def ensure(self, code: int, n: int, children: Sequence[tuple[int, int, int]]) -> None:
        """The vectors of the children (rank index, count, child's code) of the shoe ``code``,
        those not known yet (one call: the kernel looks them up faster than Python)."""
        self.kernel.fill([child for _, _, child in children])

    def vector(self, comp: Composition) -> tuple[float, ...]:
        """The unconditioned outcome vector (:data:`OUTCOMES` order) of ``comp``."""
        return self.kernel.vector(encode(comp))

    def stand_row(self, code: int, *, peek: bool) -> tuple[float, ...]:
        """As :meth:`DealerCache.stand_row`."""
        row = self.rows[peek].get(code)
        if row is None:
            row = self.rows[peek][code] = self.kernel.stand_row(code, peek)
        return row


_DEALERS: dict[tuple[int, bool], DealerCache | KernelDealerCache] = {}


def dealer_cache(up: int, h17: bool) -> DealerCache | KernelDealerCache:
    """One dealer cache per up card and soft-17 rule, shared by every rule set and chart;
    emptied when it grows past about 400,000 compositions (some 150 MB in numpy, 40 MB in
    the kernel).  The kernel's where it is built (:data:`KERNEL`)."""
    cache = _DEALERS.get((up, h17))
    if cache is None or len(cache) > 400_000:
        kernel = KERNEL
        made: DealerCache | KernelDealerCache
        if kernel is None:
            from blackjack.maths.batch import DealerCache

            made = DealerCache(up, h17)
        else:
            made = KernelDealerCache(up, h17, kernel)
        cache = _DEALERS[(up, h17)] = made
    return cache


def clear_dealers() -> None:
    """Forget every dealer cache."""
    _DEALERS.clear()


def dealer_probabilities(
    rules: Rules, up: int, comp: Composition, *, no_blackjack: bool
) -> DealerOutcome:
    """The dealer's final-total probabilities with ``up`` showing (1 = ace, 10 = ten-value).

    ``comp`` is the shoe the dealer draws from, hole card included: the up card and every card
    seen are already out of it.  With ``no_blackjack`` the distribution is conditioned on the
    dealer not holding a blackjack (what the player knows after the peek); its ``blackjack``
    field is then 0.

    >>> from blackjack.rules import Rules
    >>> from blackjack.cards import full_composition, remove_cards
    >>> comp = remove_cards(full_composition(6), [10])
    >>> before = dealer_probabilities(Rules(), 10, comp, no_blackjack=False)
    >>> after = dealer_probabilities(Rules(), 10, comp, no_blackjack=True)
    >>> round(before.bust, 4), round(after.bust, 4), after.blackjack
    (0.2125, 0.2302, 0.0)
    """
    if not 1 <= up <= 10:
        raise ValueError("up card must be 1 (ace) to 10")
    if sum(comp) == 0:
        raise ValueError("the shoe is empty")
    if KERNEL is not None:
        vec = list(dealer_cache(up, rules.dealer_hits_soft_17).vector(tuple(comp)))
    else:
        from blackjack.maths.batch import dealer_vector

        vec = list(dealer_vector(up, rules.dealer_hits_soft_17, tuple(comp)))
    if no_blackjack:
        rest = 1.0 - vec[BLACKJACK]
        if rest <= 0.0:
            raise ValueError("the dealer surely has blackjack")
        vec = [x / rest for x in vec[:BLACKJACK]] + [0.0]
    return DealerOutcome(*vec)


def prepare_dealer_tables(*, h17: bool) -> None:
    """Build the dealer's drawing tables of every up card now, not at the first question
    (the EV bench times the questions without them)."""
    for up in range(1, 11):
        if KERNEL is not None:
            KERNEL.Dealer(up, h17)  # the kernel keeps its tables for the process
        else:
            from blackjack.maths.batch import prepare_table

            prepare_table(up, h17)
