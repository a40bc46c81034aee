"""Admin pages."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from trainer.models import Situation


@admin.register(Situation)
class SituationAdmin(admin.ModelAdmin[Situation]):
    list_display = ("dealt_at", "user", "focus", "kind", "dealer_up", "chart_move", "decision")
    list_filter = ("focus", "kind")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Situation._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:  # dealt by the drill only
        return False
