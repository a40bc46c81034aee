"""The class pages: thin views over ``services`` and ``selectors``.

Whoever may not know that a class exists (it is not theirs to teach, or to be in) gets a 404,
whatever the id in the URL; anonymous visitors included.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.forms import Form
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.attempts import client_address
from accounts.models import User
from blackjack import UPS
from classroom import exports, presenters, records, selectors, services
from classroom.codes import code_display
from classroom.forms import (
    AssignmentForm,
    ClassForm,
    CoTeacherForm,
    DateRangeForm,
    JoinForm,
    NoteForm,
    RemedialForm,
)
from classroom.models import Classroom, Membership
from core.http import HtmxHttpRequest
from core.kept import form_key, render_kept

REMEDIAL_TITLE = gettext_noop("Weak spots of the class")


def _user(request: HtmxHttpRequest) -> User | None:
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def _teacher_class(request: HtmxHttpRequest, pk: int) -> Classroom:
    classroom = selectors.teacher_class_get(user=_user(request), pk=pk)
    if classroom is None:
        raise Http404
    return classroom


def _owner_class(request: HtmxHttpRequest, pk: int) -> Classroom:
    """Code, archive and co-teachers are the owner's; a co-teacher is refused (403)."""
    classroom = _teacher_class(request, pk)
    if classroom.owner_id != request.user.pk:
        raise services.ClassError(_("Only the class's owner can do this."), status=403)
    return classroom


def _range(request: HtmxHttpRequest) -> tuple[DateRangeForm, Any, Any]:
    form = DateRangeForm(request.GET if ("start" in request.GET or "end" in request.GET) else None)
    if form.is_bound and form.is_valid():
        since, until = form.bounds()
        return form, since, until
    return form, None, None


def _form_errors(form: Form) -> str:
    """A refused form's messages as one line, for the refusal page."""
    return "; ".join(str(e) for errs in form.errors.values() for e in errs)


def _refused(request: HtmxHttpRequest, exc: services.ClassError, back: str) -> HttpResponse:
    return render(
        request, "classroom/refused.html", {"message": str(exc), "back": back}, status=exc.status
    )


def _join_url(request: HtmxHttpRequest, classroom: Classroom) -> str:
    return request.build_absolute_uri(reverse("classroom:join_link", args=[classroom.code]))


# --- the class list, for teachers and students --------------------------------------------


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    user = _user(request)
    context: dict[str, Any] = {
        "teaching": selectors.teacher_classes(user=user) if user else [],
        "memberships": selectors.student_memberships(user=user) if user else [],
        "class_form": ClassForm(),
        "join_form": JoinForm(),
    }
    return render(request, "classroom/index.html", context)


@require_POST
def create(request: HtmxHttpRequest) -> HttpResponse:
    user = _user(request)
    if user is None or not user.is_teacher:
        raise Http404
    form = ClassForm(request.POST)
    if not form.is_valid():
        context = {
            "teaching": selectors.teacher_classes(user=user),
            "class_form": form,
            "memberships": selectors.student_memberships(user=user),
            "join_form": JoinForm(),
        }
        return render(request, "classroom/index.html", context, status=400)
    classroom = services.class_create(owner=user, **form.cleaned_data)
    messages.success(request, _("The class is open. Give your students its join code."))
    return redirect("classroom:dashboard", pk=classroom.pk)


# --- joining and leaving -----------------------------------------------------------------


def _find(request: HtmxHttpRequest, code: str) -> Classroom:
    keys = services.join_rate_keys(user=_user(request), address=client_address(request))
    return services.class_find_by_code(code=code, rate_keys=keys)


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest) -> HttpResponse:
    """Join by typing the code."""
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        return _join_code(request, form.cleaned_data["code"])
    status = 400 if form.is_bound else 200
    return render(request, "classroom/join.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def join_link(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The join link: shows the class and a button (a GET writes nothing)."""
    if request.method == "POST":
        return _join_code(request, code)
    try:
        classroom = _find(request, code)
    except services.ClassError as exc:
        return render(
            request,
            "classroom/join.html",
            {"form": JoinForm(), "error": str(exc)},
            status=exc.status,
        )
    user = _user(request)
    context = {
        "classroom": classroom,
        "code": code_display(classroom.code),
        "member": selectors.member_get(user=user, pk=classroom.pk) if user else None,
        "signup_url": reverse("accounts:signup") + "?next=" + request.path,
    }
    return render(request, "classroom/join_link.html", context)


def _join_code(request: HtmxHttpRequest, code: str) -> HttpResponse:
    user = _user(request)
    try:
        classroom = _find(request, code)
        if user is None or user.is_guest:
            # A guest or a visitor signs up first (a guest keeps its progress: sign-up turns
            # the guest into the account), then comes back to this class's link.
            messages.info(request, str(services.GUEST_JOIN))
            link = reverse("classroom:join_link", args=[classroom.code])
            return redirect(reverse("accounts:signup") + "?next=" + link)
        services.class_join(user=user, classroom=classroom)
    except services.ClassError as exc:
        context = {"form": JoinForm(initial={"code": code}), "error": str(exc)}
        return render(request, "classroom/join.html", context, status=exc.status)
    messages.success(request, _("You have joined %(name)s.") % {"name": classroom.name})
    return redirect("classroom:mine", pk=classroom.pk)


def _member(request: HtmxHttpRequest, pk: int) -> Membership:
    membership = selectors.member_get(user=_user(request), pk=pk)
    if membership is None:
        raise Http404
    return membership


@require_GET
def mine(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A student's own page of a class: its assignments and their progress."""
    membership = _member(request, pk)
    progress = selectors.my_progress(membership=membership)
    return render(
        request,
        "classroom/mine.html",
        {"membership": membership, "progress": progress, "now": timezone.now()},
    )


@require_POST
def leave(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    membership = _member(request, pk)
    services.class_leave(user=membership.student, classroom=membership.classroom)
    messages.success(request, _("You have left %(name)s.") % {"name": membership.classroom.name})
    return redirect("classroom:index")


@require_POST
def start(request: HtmxHttpRequest, pk: int, assignment: int) -> HttpResponse:
    """Start the trainer's drill from an assignment: its answers count toward it."""
    membership = _member(request, pk)
    found = membership.classroom.assignments.filter(pk=assignment).first()
    if found is None:
        raise Http404
    cells = [tuple(c) for c in found.cells]
    records.drill_start(
        session=request.session, settings=found.settings, context=found.context, cells=cells
    )
    return redirect(reverse("trainer:index"))


# --- the teacher's pages -----------------------------------------------------------------


@require_GET
def dashboard(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_dashboard_class(user=_user(request), pk=pk)
    if classroom is None:
        raise Http404
    range_form, since, until = _range(request)
    sort = request.GET.get("sort", "name")
    now = timezone.now()
    range_query = _range_query(range_form)
    join_url = _join_url(request, classroom)
    is_owner = classroom.owner_id == request.user.pk
    status = 400 if range_form.is_bound and not range_form.is_valid() else 200
    # The page is kept whole per stamp (core.kept): while nothing it shows has changed, a reload
    # or a sort already seen computes and draws nothing below (each lazy value is made only
    # when drawn).
    # Each name of the context by what determines it: the stamp changes with the class's row,
    # its members, co-teachers, assignments and answers (selectors.dashboard_stamp).
    stamp = selectors.dashboard_stamp(classroom=classroom, now=now) if status == 200 else None
    page_key = (
        {
            "classroom": stamp, "data": (stamp, sort, since, until),
            "view": (stamp, sort, since, until, range_query), "range_form": form_key(range_form),
            "sort": sort, "range_query": range_query, "code": classroom.code,
            "join_url": join_url, "is_owner": is_owner, "co_teachers": stamp,
            "assignment_fields": "unbound", "co_form": "unbound",
        }
        if stamp is not None
        else None  # a refused range: nothing to keep, and no stamp to read
    )  # fmt: skip

    @functools.cache
    def data() -> selectors.Dashboard:
        return selectors.dashboard(
            classroom=classroom, since=since, until=until, now=now, sort=sort
        )

    context = {
        "classroom": classroom,
        "data": SimpleLazyObject(data),
        "view": SimpleLazyObject(
            lambda: presenters.dashboard_view(
                data(),
                sort=sort,
                range_query=range_query,
                student_href=lambda uid: reverse("classroom:student", args=[pk, uid]),
            )
        ),
        "range_form": range_form,
        "sort": sort,
        "range_query": range_query,
        "code": code_display(classroom.code),
        "join_url": join_url,
        "is_owner": is_owner,
        "co_teachers": SimpleLazyObject(lambda: list(classroom.co_teachers.all())),
        "assignment_fields": presenters.form_fields_html(
            "assignment", lambda: AssignmentForm(initial={"title": "", "preset": "thoth"})
        ),
        "co_form": SimpleLazyObject(CoTeacherForm),  # built only when the page is drawn anew
    }
    return render_kept(request, "classroom/dashboard.html", context, key=page_key, status=status)


def _range_query(form: DateRangeForm) -> str:
    if not form.is_bound or not form.is_valid():
        return ""
    parts = [
        f"{k}={form.cleaned_data[k].isoformat()}"
        for k in ("start", "end")
        if form.cleaned_data.get(k)
    ]
    return "&".join(parts)


@require_GET
def heat(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    classroom = _teacher_class(request, pk)
    range_form, since, until = _range(request)
    data = selectors.class_heat(classroom=classroom, since=since, until=until)
    range_query = _range_query(range_form)
    context = {
        "classroom": classroom,
        "data": data,
        "heat_grids": presenters.heat_grids_view(
            data.grids, cell_href_base=presenters.heat_href_base(pk), range_query=range_query
        ),
        "range_form": range_form,
        "range_query": range_query,
        "ups": UPS,
        "min_answers": selectors.HEAT_MIN_ANSWERS,
        "remedial_fields": presenters.form_fields_html(
            "remedial",
            lambda: RemedialForm(initial={"preset": "thoth", "hands": 30, "target_accuracy": 90}),
            options=False,
        ),
    }
    return render(request, "classroom/heat.html", context)


@require_GET
def cell(request: HtmxHttpRequest, pk: int, kind: str, row: int, up: int) -> HttpResponse:
    classroom = _teacher_class(request, pk)
    if kind not in selectors.HEAT_ROWS or row not in selectors.HEAT_ROWS[kind] or up not in UPS:
        raise Http404
    range_form, since, until = _range(request)
    members = selectors.class_students(classroom=classroom)
    names = {m.student_id: selectors.teacher_name(m.student) for m in members}
    answers = records.cell_answers(
        members=selectors.members_joined(members), cell=(kind, row, up), since=since, until=until
    )
    context = {
        "classroom": classroom,
        "cell": (kind, row, up),
        "answers": answers,
        "names": names,
        "range_query": _range_query(range_form),
    }
    return render(request, "classroom/cell.html", context)


def _student(classroom: Classroom, user_id: int) -> Membership:
    membership = selectors.student_membership_get(classroom=classroom, user_id=user_id)
    if membership is None:
        raise Http404
    return membership


@require_GET
def student(request: HtmxHttpRequest, pk: int, user_id: int) -> HttpResponse:
    classroom = _teacher_class(request, pk)
    membership = _student(classroom, user_id)
    range_form, since, until = _range(request)
    data = selectors.student_page(
        classroom=classroom, membership=membership, since=since, until=until
    )
    context = {
        "classroom": classroom,
        "data": data,
        "heat_grids": presenters.heat_grids_view(data.grids, cell_href_base=None, range_query=""),
        "mistakes": presenters.mistake_views(data.mistakes),
        "range_form": range_form,
        "range_query": _range_query(range_form),
        "ups": UPS,
        "min_answers": selectors.HEAT_MIN_ANSWERS,
        "note_form": NoteForm(initial={"note": membership.note}),
    }
    return render(request, "classroom/student.html", context)


@require_POST
def note(request: HtmxHttpRequest, pk: int, user_id: int) -> HttpResponse:
    classroom = _teacher_class(request, pk)
    membership = _student(classroom, user_id)
    form = NoteForm(request.POST)
    if not form.is_valid():
        return _refused(
            request,
            services.ClassError(_("The note is too long.")),
            reverse("classroom:student", args=[pk, user_id]),
        )
    services.note_set(membership=membership, note=form.cleaned_data["note"])
    messages.success(request, _("The note is saved."))
    return redirect("classroom:student", pk=pk, user_id=user_id)


@require_POST
def assignment_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    classroom = _teacher_class(request, pk)
    form = AssignmentForm(request.POST)
    back = reverse("classroom:dashboard", args=[pk])
    if not form.is_valid():
        return _refused(request, services.ClassError(_form_errors(form)), back)
    services.assignment_create(
        classroom=classroom,
        created_by=request.user,  # type: ignore[arg-type]
        title=form.cleaned_data["title"],
        settings=form.drill_settings(),
        rules=form.rules(),
        hands=form.cleaned_data["hands"],
        target_accuracy=form.cleaned_data["target_accuracy"],
        due_at=form.due_at(),
    )
    messages.success(request, _("The assignment is set."))
    return redirect(back + "#assignments")


@require_POST
def remedial(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Turn the class's costliest cells into an assignment."""
    classroom = _teacher_class(request, pk)
    form = RemedialForm(request.POST)
    back = reverse("classroom:heat", args=[pk])
    if not form.is_valid():
        return _refused(request, services.ClassError(_form_errors(form)), back)
    try:
        services.assignment_remedial_create(
            classroom=classroom,
            created_by=request.user,  # type: ignore[arg-type]
            title=_(REMEDIAL_TITLE),
            members=selectors.class_members(classroom=classroom),
            rules=form.rules(),
            settings=form.drill_settings(),
            hands=form.cleaned_data["hands"],
            target_accuracy=form.cleaned_data["target_accuracy"],
            due_at=form.due_at(),
        )
    except services.ClassError as exc:
        return _refused(request, exc, back)
    messages.success(request, _("The assignment “Weak spots of the class” is set."))
    return redirect(reverse("classroom:dashboard", args=[pk]) + "#assignments")


@require_POST
def regenerate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    try:
        classroom = _owner_class(request, pk)
    except services.ClassError as exc:
        return _refused(request, exc, reverse("classroom:dashboard", args=[pk]))
    services.class_code_regenerate(classroom=classroom)
    messages.success(request, _("The class has a new join code; the old one no longer works."))
    return redirect("classroom:dashboard", pk=pk)


@require_POST
def archive(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    try:
        classroom = _owner_class(request, pk)
    except services.ClassError as exc:
        return _refused(request, exc, reverse("classroom:dashboard", args=[pk]))
    archived = request.POST.get("archived") == "1"
    services.class_set_archived(classroom=classroom, archived=archived)
    messages.success(
        request, _("The class is archived.") if archived else _("The class is restored.")
    )
    return redirect("classroom:dashboard", pk=pk)


@require_POST
def co_teacher(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    back = reverse("classroom:dashboard", args=[pk])
    try:
        classroom = _owner_class(request, pk)
        if request.POST.get("remove"):
            try:
                services.co_teacher_remove(classroom=classroom, user_id=int(request.POST["remove"]))
            except ValueError:
                raise Http404 from None
            messages.success(request, _("The co-teacher no longer teaches this class."))
            return redirect(back)
        form = CoTeacherForm(request.POST)
        if not form.is_valid():
            raise services.ClassError(_("Enter the teacher's username."))
        teacher = services.co_teacher_add(
            classroom=classroom, username=form.cleaned_data["username"]
        )
    except services.ClassError as exc:
        return _refused(request, exc, back)
    messages.success(
        request, _("%(name)s now teaches this class too.") % {"name": teacher.shown_name}
    )
    return redirect(back)


@require_GET
def export_dashboard(request: HtmxHttpRequest, pk: int) -> StreamingHttpResponse:
    classroom = _teacher_class(request, pk)
    _form, since, until = _range(request)
    data = selectors.dashboard(classroom=classroom, since=since, until=until, now=timezone.now())
    return exports.csv_response(
        rows=exports.dashboard_rows(data), filename=f"class-{classroom.pk}.csv"
    )


@require_GET
def export_student(request: HtmxHttpRequest, pk: int, user_id: int) -> StreamingHttpResponse:
    classroom = _teacher_class(request, pk)
    membership = _student(classroom, user_id)
    _form, since, until = _range(request)
    rows = exports.answer_rows(
        records.answers_iter(
            member=(membership.student_id, membership.joined_at), since=since, until=until
        )
    )
    return exports.csv_response(rows=rows, filename=f"class-{classroom.pk}-student-{user_id}.csv")
