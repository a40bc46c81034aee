"""Admin pages."""

from __future__ import annotations

from django.contrib import admin

from computed.models import ChartJob


@admin.register(ChartJob)
class ChartJobAdmin(admin.ModelAdmin[ChartJob]):
    list_display = ("rules_key", "done", "total", "finished", "error", "updated_at")
