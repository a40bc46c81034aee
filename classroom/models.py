"""Classes, their students and their assignments.

The class layer owns no decisions: it reads them through :mod:`classroom.records`.  An
assignment's answers are the decisions whose opaque ``context`` is the assignment's
(``"assignment:<id>"``), written by the trainer for a drill started from the assignment.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

# The context of an assignment's drill: "assignment:<id>".
ASSIGNMENT_CONTEXT_PREFIX = "assignment:"


class Classroom(models.Model):
    name = models.CharField(max_length=100)
    description = models.TextField(max_length=2000, blank=True)
    # Null only for a class whose owner deleted their account with no co-teacher to hand it
    # to: it is archived, seen by its students and changed by nobody (privacy.services).
    # Deleting a user any other way (the admin) still deletes the classes they own.
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.CASCADE,
        related_name="classes_owned",
    )
    co_teachers = models.ManyToManyField(
        django_settings.AUTH_USER_MODEL, blank=True, related_name="classes_co_taught"
    )
    # Stored normalised (upper case, no separator); see classroom/codes.py.
    code = models.CharField(max_length=16, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    # Counts the changes of what a teacher's dashboard shows of the class besides the answers
    # (its code, students, assignments, teachers): the dashboard keeps its page per version
    # (classroom.services._changed).
    version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def archived(self) -> bool:
        return self.archived_at is not None


class Membership(models.Model):
    """A student in a class; deleted when the student leaves, so that nothing of theirs stays
    visible to the class's teachers."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="memberships")
    student = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    # The teachers' private note on the student; never shown to the student.
    note = models.TextField(max_length=4000, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["classroom", "student"], name="membership_once")
        ]
        indexes = [models.Index(fields=["student"])]

    def __str__(self) -> str:
        return f"{self.student_id} in {self.classroom_id}"


class Assignment(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    title = models.CharField(max_length=100)
    focus = models.CharField(max_length=12)
    # The drill settings the trainer is started with (focus, up card, preset, options), and
    # the rule set they make.
    settings = models.JSONField()
    rules = models.JSONField()
    rules_key = models.CharField(max_length=16)
    # For focus "cells": [[kind, row, up], ...], the cells the drill deals.
    cells = models.JSONField(default=list, blank=True)
    hands = models.PositiveIntegerField()
    target_accuracy = models.PositiveSmallIntegerField()  # percent
    due_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title

    @property
    def context(self) -> str:
        """The tag the trainer writes on every decision of a drill started from this."""
        return f"{ASSIGNMENT_CONTEXT_PREFIX}{self.pk}"
