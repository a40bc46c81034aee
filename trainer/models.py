"""The trainer's records: the dealt drill situations (their answers are decisions)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from decisions.models import MOVE_CHOICES, Decision


class Situation(models.Model):
    """A dealt drill question, kept server-side so that the answer cannot forge the cards.

    It belongs to one user and is answered once: ``decision`` is set by the answer.  The exact
    analysis is stored at deal time, so the answer costs no mathematics.
    """

    class Kind(models.TextChoices):
        PLAY = "play", _("Play")
        INSURANCE = "insurance", _("Insurance")
        EVEN_MONEY = "even_money", _("Even money")  # a blackjack against an ace

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="situations"
    )
    rules = models.JSONField()  # Rules.to_dict()
    rules_key = models.CharField(max_length=16)
    hand = models.JSONField()  # card codes, e.g. ["8s", "8d"]
    dealer_up = models.CharField(max_length=4)
    focus = models.CharField(max_length=12)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAY)
    # {move: EV per unit of the initial bet} of every legal option, and the chart's move.
    ev = models.JSONField()
    chart_move = models.CharField(max_length=10, choices=MOVE_CHOICES)
    # The dealer's bust chance for these cards (after the peek where there is one), for the
    # "why" line; null for an insurance question.
    dealer_bust = models.FloatField(null=True, blank=True)
    dealt_at = models.DateTimeField(auto_now_add=True)
    # Copied to the decision; null like Decision.context.
    context = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001
    decision = models.OneToOneField(
        Decision, null=True, blank=True, on_delete=models.SET_NULL, related_name="situation"
    )
    # An index drill (issue 31): the count system's key and the true count the hand is
    # played at; ``ev`` then holds the EVs at that count, ``chart_move`` the basic move, and
    # ``index_play`` the stored index play asked about (IndexPlay.to_list()).  "" / null for
    # every other drill.
    count_system = models.CharField(max_length=8, blank=True, default="")
    true_count = models.SmallIntegerField(null=True, blank=True)
    index_play = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-dealt_at", "-id"]
        indexes = [models.Index(fields=["user", "dealt_at"])]

    def __str__(self) -> str:
        return f"{self.user_id}: {' '.join(self.hand)} v {self.dealer_up}"


class CountQuestion(models.Model):
    """A dealt counting question (issue 31), kept server-side like a situation: the answer is
    judged against what was dealt here, never against anything the client sends but the
    number typed.  Answered once: ``decision`` is set by the answer.

    *Running count*: ``cards`` (codes, in the order shown) from a freshly shuffled shoe;
    the right answer is their running count from 0.  *True count*: the running count of the
    cards dealt so far (counted from 0 at the shuffle) and the cards left are shown; the right
    answer is the true count by the conventions of :mod:`blackjack.counting.systems`."""

    class Kind(models.TextChoices):
        RUNNING = "running", _("Running count")
        TRUE_COUNT = "true_count", _("True count")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="count_questions"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    system = models.CharField(max_length=8)  # blackjack.counting system key
    rules = models.JSONField()  # Rules.to_dict(): the shoe's decks and reshuffle point
    rules_key = models.CharField(max_length=16)
    cards = models.JSONField(default=list, blank=True)  # shown, in order (running count)
    pace_ms = models.PositiveIntegerField(default=0)  # per step shown; 0: all at once
    per_step = models.PositiveSmallIntegerField(default=1)  # cards shown together
    running_count = models.IntegerField()  # the right answer (running), or the one shown
    cards_left = models.PositiveSmallIntegerField(null=True, blank=True)  # true count only
    right_answer = models.IntegerField()
    dealt_at = models.DateTimeField(auto_now_add=True)
    context = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001
    decision = models.OneToOneField(
        Decision, null=True, blank=True, on_delete=models.SET_NULL, related_name="count_question"
    )

    class Meta:
        ordering = ["-dealt_at", "-id"]
        indexes = [models.Index(fields=["user", "dealt_at"])]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.kind} {self.system}"
