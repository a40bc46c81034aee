"""Writes of the class layer.  Errors are :class:`ClassError` with a message the page shows."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from blackjack import Rules
from classroom import records
from classroom.codes import code_new, code_normalise
from classroom.models import Assignment, Classroom, Membership

NOT_A_TEACHER = _("Only a teacher can open a class. Become a teacher on your account page.")
NO_SUCH_CODE = _("No class has this code. Check it with your teacher.")
CLASS_ARCHIVED = _("This class is archived and takes no new students.")
OWN_CLASS = _("You teach this class, so you cannot join it as a student.")
GUEST_JOIN = _("Sign up first: then you can join the class and keep your progress.")
TOO_MANY_ATTEMPTS = _("Too many join attempts. Please wait an hour and try again.")
NO_SUCH_TEACHER = _("No teacher has this username.")
ALREADY_TEACHING = _("This teacher already teaches the class.")
NO_CELLS = _("The class has made no costly mistakes yet: there is nothing to practise.")

# Wrong join codes allowed per hour: per signed-in account, and per client address (everyone
# behind it, signed in or not). A code that opens a class counts nothing, so opening a join
# link and pressing its Join button cost nothing either; a school behind one address could only
# run out through its students' typos: a class of 40 may mistype 100 times in a lesson. Guessing
# stays hopeless (``classroom.codes``: one address needs about 970 years to find one of a
# thousand classes).
JOIN_FAILURES_PER_USER = 20
JOIN_FAILURES_PER_ADDRESS = 100
JOIN_WINDOW_SECONDS = 3600
# Cache keys of the join counters begin with this (tests give each test its own).
RATE_KEY_PREFIX = "classroom:join"
# How many of the costliest cells a remedial assignment drills.
REMEDIAL_CELLS = 6


class ClassError(ValueError):
    """A refused class action; ``str()`` is the message for the page."""

    def __init__(self, message: object, *, status: int = 400) -> None:
        super().__init__(str(message))
        self.status = status


def _changed(classes: Q) -> None:
    """What the teachers' dashboard shows of these classes changed: a new version, so that the
    page kept for the old one is drawn again (classroom.selectors.dashboard_stamp).  In the
    caller's transaction, so that nobody draws the new version from the old rows."""
    Classroom.objects.filter(classes).update(version=F("version") + 1)


def _fresh_code() -> str:
    while True:
        code = code_new()
        if not Classroom.objects.filter(code=code).exists():
            return code


def class_create(*, owner: User, name: str, description: str = "") -> Classroom:
    if not owner.is_teacher:
        raise ClassError(NOT_A_TEACHER, status=403)
    for _attempt in range(5):  # a collision of two fresh codes is astronomically rare
        try:
            with transaction.atomic():
                return Classroom.objects.create(
                    owner=owner, name=name, description=description, code=_fresh_code()
                )
        except IntegrityError:
            continue
    raise RuntimeError("could not draw a free join code")


def class_code_regenerate(*, classroom: Classroom) -> str:
    """A new join code; the old one and its link stop working at once."""
    classroom.code = _fresh_code()
    classroom.version += 1
    classroom.save(update_fields=["code", "version"])
    return classroom.code


def class_set_archived(*, classroom: Classroom, archived: bool) -> None:
    classroom.archived_at = timezone.now() if archived else None
    classroom.version += 1
    classroom.save(update_fields=["archived_at", "version"])


def co_teacher_add(*, classroom: Classroom, username: str) -> User:
    teacher = User.objects.filter(username__iexact=username.strip(), is_guest=False).first()
    if teacher is None or not teacher.is_teacher:
        raise ClassError(NO_SUCH_TEACHER)
    if teacher.pk == classroom.owner_id or classroom.co_teachers.filter(pk=teacher.pk).exists():
        raise ClassError(ALREADY_TEACHING)
    with transaction.atomic():
        classroom.co_teachers.add(teacher)
        # A teacher does not grade themselves: a co-teacher who was a student leaves.
        Membership.objects.filter(classroom=classroom, student=teacher).delete()
        _changed(Q(pk=classroom.pk))
    return teacher


def co_teacher_remove(*, classroom: Classroom, user_id: int) -> None:
    with transaction.atomic():
        classroom.co_teachers.remove(user_id)
        _changed(Q(pk=classroom.pk))


def _count(keys: Sequence[tuple[str, int]]) -> list[str] | None:
    """Count one attempt on every key (an exact bound however many requests race: the count
    is the cache's atomic increment): the keys counted, or ``None`` (nothing counted) once any
    is at its limit."""
    counted: list[str] = []
    for key, limit in keys:
        cache.add(key, 0, JOIN_WINDOW_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr: the window's first
            cache.add(key, 0, JOIN_WINDOW_SECONDS)
            count = cache.incr(key)
        counted.append(key)
        if count > limit:
            _uncount(counted)  # a refused attempt is not a guess: it cannot stretch the wait
            return None
    return counted


def _uncount(keys: Sequence[str]) -> None:
    for key in keys:
        # ValueError: the window ended meanwhile, nothing left to take back.
        with contextlib.suppress(ValueError):
            cache.decr(key)


def join_rate_keys(*, user: User | None, address: str | None) -> list[tuple[str, int]]:
    """The counters a join attempt is held to, with their limits: the client address's
    (``accounts.attempts.client_address``: behind the load balancer, the visitor's own) and,
    when signed in, the account's."""
    keys = [(f"{RATE_KEY_PREFIX}:ip:{address or 'unknown'}", JOIN_FAILURES_PER_ADDRESS)]
    if user is not None:
        keys.append((f"{RATE_KEY_PREFIX}:user:{user.pk}", JOIN_FAILURES_PER_USER))
    return keys


def class_find_by_code(*, code: str, rate_keys: Sequence[tuple[str, int]]) -> Classroom:
    """The class a code opens. A code that opens none counts against the join rate limits
    (guessing is slow); one that does counts nothing."""
    counted = _count(rate_keys)
    if counted is None:
        raise ClassError(TOO_MANY_ATTEMPTS, status=429)
    normal = code_normalise(code)
    found = Classroom.objects.filter(code=normal).first() if normal else None
    if found is None:
        raise ClassError(NO_SUCH_CODE, status=404)
    _uncount(counted)
    return found


def class_join(*, user: User, classroom: Classroom) -> Membership:
    if user.is_guest:
        raise ClassError(GUEST_JOIN, status=403)
    if classroom.archived:
        raise ClassError(CLASS_ARCHIVED, status=409)
    if user.pk == classroom.owner_id or classroom.co_teachers.filter(pk=user.pk).exists():
        raise ClassError(OWN_CLASS, status=409)
    with transaction.atomic():
        membership, created = Membership.objects.get_or_create(classroom=classroom, student=user)
        if created:
            _changed(Q(pk=classroom.pk))
    return membership


def class_leave(*, user: User, classroom: Classroom) -> None:
    """The student leaves; the membership (and the teachers' note on them) goes with it."""
    with transaction.atomic():
        Membership.objects.filter(classroom=classroom, student=user).delete()
        _changed(Q(pk=classroom.pk))


def note_set(*, membership: Membership, note: str) -> None:
    membership.note = note
    membership.save(update_fields=["note"])


def assignment_create(
    *,
    classroom: Classroom,
    created_by: User,
    title: str,
    settings: Mapping[str, str],
    rules: Rules,
    hands: int,
    target_accuracy: int,
    due_at: datetime | None = None,
    cells: Sequence[records.Cell] = (),
) -> Assignment:
    with transaction.atomic():
        _changed(Q(pk=classroom.pk))
        return Assignment.objects.create(
            classroom=classroom,
            created_by=created_by,
            title=title,
            focus=settings["focus"],
            settings=dict(settings),
            rules=rules.to_dict(),
            rules_key=rules.key(),
            cells=[list(c) for c in cells],
            hands=hands,
            target_accuracy=target_accuracy,
            due_at=due_at,
        )


def assignment_remedial_create(
    *,
    classroom: Classroom,
    created_by: User,
    title: str,
    members: records.Members,
    rules: Rules,
    settings: Mapping[str, str],
    hands: int,
    target_accuracy: int,
    due_at: datetime | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Assignment:
    """An assignment that drills the class's costliest chart cells (those a drill can deal:
    a hard 20 at the table, say, is no two-card hand), counted over ``members``' answers
    since they joined."""
    costly = records.costliest_cells(members=members, since=since, until=until, limit=60)
    cells = [cell for cell, _lost in costly if records.dealable(cell)][:REMEDIAL_CELLS]
    if not cells:
        raise ClassError(NO_CELLS)
    return assignment_create(
        classroom=classroom,
        created_by=created_by,
        title=title,
        settings={**settings, "focus": records.CELLS_FOCUS},
        rules=rules,
        hands=hands,
        target_accuracy=target_accuracy,
        due_at=due_at,
        cells=cells,
    )


# --- the user's own data: deletion (privacy) ---------------------------------------------


@dataclass(frozen=True)
class ClassHandover:
    """What the account deletion does with a class the user owns: ``to`` is the co-teacher
    who becomes its owner, or ``None`` when there is none and the class is archived."""

    classroom_id: int
    name: str
    to: User | None


def _longest_serving_co_teacher(classroom: Classroom) -> User | None:
    """The co-teacher added first: the many-to-many rows are numbered as they are added."""
    Through = Classroom.co_teachers.through
    row = (
        Through.objects.filter(classroom_id=classroom.pk)
        .select_related("user")
        .order_by("id")
        .first()
    )
    return row.user if row is not None else None


def classes_handover_plan(*, user: User) -> list[ClassHandover]:
    """What :func:`classes_release` would do now (the deletion's confirmation page)."""
    return [
        ClassHandover(c.pk, c.name, _longest_serving_co_teacher(c))
        for c in Classroom.objects.filter(owner=user).order_by("name", "id")
    ]


def classes_release(*, user: User) -> list[ClassHandover]:
    """Before the user's account goes: each class they own is handed to its longest-serving
    co-teacher, or, with none, archived without an owner (its students keep seeing it, read
    only, with their progress; nobody can change it or join it any more).  The user stops
    co-teaching and leaves every class they belong to (the teachers' notes on them go too).

    The classes are locked first, so that two co-teachers deleting their accounts at once
    cannot hand a class to each other.
    """
    with transaction.atomic():
        Through = Classroom.co_teachers.through
        taught = Q(owner=user) | Q(
            pk__in=Through.objects.filter(user_id=user.pk).values("classroom")
        )
        list(Classroom.objects.select_for_update().filter(taught).values_list("pk", flat=True))
        _changed(taught | Q(pk__in=Membership.objects.filter(student=user).values("classroom")))
        Through.objects.filter(user_id=user.pk).delete()
        done = []
        now = timezone.now()
        for c in Classroom.objects.filter(owner=user).order_by("name", "id"):
            heir = _longest_serving_co_teacher(c)
            if heir is not None:
                c.owner = heir
                c.save(update_fields=["owner"])
                c.co_teachers.remove(heir)
            else:
                c.owner = None
                c.archived_at = c.archived_at or now
                c.save(update_fields=["owner", "archived_at"])
            done.append(ClassHandover(c.pk, c.name, heir))
        Membership.objects.filter(student=user).delete()
    return done
