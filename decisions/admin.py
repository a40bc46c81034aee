"""Admin pages."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from decisions.models import Decision, WeakSpot


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin[Decision]):
    list_display = ("created_at", "user", "source", "category", "choice", "best", "ev_lost")
    list_filter = ("source", "category", "correct")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Decision._meta.fields]

    def has_add_permission(
        self, request: HttpRequest
    ) -> bool:  # decisions are written by the app only
        return False


@admin.register(WeakSpot)
class WeakSpotAdmin(admin.ModelAdmin[WeakSpot]):
    list_display = ("user", "chart_kind", "chart_row", "dealer_points", "box", "misses", "due_at")
    list_filter = ("chart_kind", "box")
    search_fields = ("user__username",)
