"""Play mode's records: the wallet and its ledger, the tables, the learner's seats and rounds.

Money is ``Decimal`` with two places: the engine's exact ``Fraction`` amounts (a 3:2 payout on
an odd bet, a 6:5 payout) always fit, and a float never touches a balance.  The wallet's
balance is a running total of its ledger; :mod:`game.services` changes both in one
transaction, so ``balance == sum(ledger)`` always holds.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

OPENING_BALANCE = Decimal("1000.00")
TOP_UP_AMOUNT = Decimal("1000.00")


class Wallet(models.Model):
    """A user's chips (debens).  Created with :data:`OPENING_BALANCE` on first need."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wallet"
    )
    balance = models.DecimalField(max_digits=16, decimal_places=2, default=Decimal("0.00"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("wallet")
        verbose_name_plural = _("wallets")
        constraints = [
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="wallet_not_negative")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.balance}"


class LedgerEntry(models.Model):
    """One change of a wallet's balance; append-only.  ``amount`` is signed (a bet is
    negative), ``balance_after`` the balance once it was applied."""

    class Kind(models.TextChoices):
        OPENING = "opening", _("Opening balance")
        TOP_UP = "top-up", _("Top-up")
        BET = "bet", _("Bet")
        DOUBLE = "double", _("Double")
        SPLIT = "split", _("Split")
        INSURANCE = "insurance", _("Insurance")
        PAYOUT = "payout", _("Payout")

    wallet = models.ForeignKey(Wallet, on_delete=models.CASCADE, related_name="entries")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.DecimalField(max_digits=16, decimal_places=2)
    balance_after = models.DecimalField(max_digits=16, decimal_places=2)
    round = models.ForeignKey(
        "game.Round", null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} → {self.balance_after}"


class Table(models.Model):
    """A table of the house (thoth rules at three stakes) or a variant (another preset)."""

    class Kind(models.TextChoices):
        HOUSE = "house", _("House table")
        VARIANT = "variant", _("Variant")

    slug = models.SlugField(unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    preset = models.CharField(max_length=16)  # a key of blackjack.rules.PRESETS
    min_bet = models.PositiveIntegerField()
    max_bet = models.PositiveIntegerField()
    chips = models.JSONField()  # denominations, smallest first
    # How many boxes one player may bet on in a round ([1, 5]: one or all five); empty: any.
    box_counts = models.JSONField(default=list, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return self.slug


class Seat(models.Model):
    """The learner's place at one table: its rules, its own shoe (server side only), which
    boxes AI players take, the last bets (for "repeat"), and whether hints are shown."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    table = models.ForeignKey(Table, on_delete=models.CASCADE)
    rules = models.JSONField()  # Rules.to_dict()
    shoe = models.JSONField(null=True, blank=True)  # {"cards": [...], "position", "decks"}
    ai_levels = models.JSONField(default=dict, blank=True)  # {"2": "normal"}
    last_bets = models.JSONField(default=dict, blank=True)  # {"0": 500}
    hints = models.BooleanField(default=False)
    # Coach mode: a move that costs EV is held back until the learner confirms it.
    coach = models.BooleanField(default=False)
    # Count practice: the learner may ask "what is the count?" and the coach knows the index
    # plays; ``count_system`` is a key of blackjack.counting.SYSTEMS (Hi-Lo unless chosen).
    count_mode = models.BooleanField(default=False)
    count_system = models.CharField(max_length=8, default="hilo")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "table"], name="one_seat_per_table")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}"


class Round(models.Model):
    """One round: the engine's full state (secrets included; never rendered directly).

    ``seq`` counts the moves applied; a move request carries the ``seq`` it was made on, so
    a repeated request (double click, second tab) is recognised and not applied twice.
    ``shown_from`` is where in the event log the last request's events begin.
    """

    class Status(models.TextChoices):
        PLAYING = "playing", _("In play")
        SETTLED = "settled", _("Settled")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="rounds")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    state = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    seq = models.PositiveIntegerField(default=0)
    shown_from = models.PositiveIntegerField(default=0)
    human_seats = models.JSONField(default=list)  # [0, 2]
    ai_levels = models.JSONField(default=dict)  # {"1": "hard"}
    reshuffled = models.BooleanField(default=False)
    staked = models.DecimalField(max_digits=16, decimal_places=2, default=Decimal("0.00"))
    paid = models.DecimalField(max_digits=16, decimal_places=2, default=Decimal("0.00"))
    net = models.DecimalField(max_digits=16, decimal_places=2, default=Decimal("0.00"))
    review = models.JSONField(default=list, blank=True)  # the learner's decisions
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat"],
                condition=models.Q(status="playing"),
                name="one_round_in_play_per_seat",
            )
        ]
        indexes = [
            # Past rounds read a user's newest rows and number them by one count: both from this
            # index alone. Without the columns it carries, PostgreSQL may walk the primary key
            # backwards through everyone's newer rounds instead (seen: 11,000 rows, 4.5 ms).
            models.Index(
                fields=["user", "-id"],
                include=["status", "seq", "created_at", "staked", "net", "seat"],
                name="round_user_history_idx",
            )
        ]

    def __str__(self) -> str:
        return f"round {self.pk} ({self.status})"

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING
