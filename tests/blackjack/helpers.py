"""Helpers to deal a round from a readable card order."""

from __future__ import annotations

from collections.abc import Sequence

from blackjack import PRESETS, Card, RoundState, Rules, Shoe, apply, parse_cards, start_round


def deal_order(boxes: Sequence[str], dealer: str, rest: str = "") -> list[Card]:
    """The shoe order that gives each box its two cards, the dealer ``"up hole"``, then
    ``rest`` in the order it will be drawn (split hands, hits, doubles, the dealer)."""
    pairs = [parse_cards(b) for b in boxes]
    up, hole = parse_cards(dealer)
    return [
        *(p[0] for p in pairs),
        up,
        *(p[1] for p in pairs),
        hole,
        *parse_cards(rest),
    ]


def deal(
    boxes: Sequence[str],
    dealer: str,
    rest: str = "",
    *,
    rules: Rules | str = "thoth",
    bets: Sequence[int] | None = None,
    seats: Sequence[int] | None = None,
) -> RoundState:
    """Start a round at ``seats`` (default 0, 1, …) with the given cards."""
    r = PRESETS[rules] if isinstance(rules, str) else rules
    seats = list(seats) if seats is not None else list(range(len(boxes)))
    bets = list(bets) if bets is not None else [100] * len(boxes)
    shoe = Shoe.from_cards(deal_order(boxes, dealer, rest))
    return start_round(rules=r, bets=dict(zip(seats, bets, strict=True)), shoe=shoe)


def play(state: RoundState, *moves: str) -> RoundState:
    for m in moves:
        state = apply(state, m)
    return state


def results(state: RoundState) -> list[tuple[int, int, str, object]]:
    """``(seat, hand, outcome, paid)`` of every settled hand."""
    return [(s.seat, s.hand, s.outcome.value, s.paid) for s in state.settlements()]
