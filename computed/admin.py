from django.contrib import admin

from computed.models import ChartJob


@admin.register(ChartJob)
class ChartJobAdmin(admin.ModelAdmin):
    list_display = ("rules_key", "done", "total", "finished", "error", "updated_at")
