from django.contrib import admin

from trainer.models import ChartJob, Decision, Situation, WeakSpot


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "source", "category", "choice", "best", "ev_lost")
    list_filter = ("source", "category", "correct")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Decision._meta.fields]

    def has_add_permission(self, request):  # decisions are written by the app only
        return False


@admin.register(Situation)
class SituationAdmin(admin.ModelAdmin):
    list_display = ("dealt_at", "user", "focus", "kind", "dealer_up", "chart_move", "decision")
    list_filter = ("focus", "kind")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Situation._meta.fields]

    def has_add_permission(self, request):  # dealt by the drill only
        return False


@admin.register(ChartJob)
class ChartJobAdmin(admin.ModelAdmin):
    list_display = ("rules_key", "done", "total", "finished", "error", "updated_at")


@admin.register(WeakSpot)
class WeakSpotAdmin(admin.ModelAdmin):
    list_display = ("user", "chart_kind", "chart_row", "dealer_points", "box", "misses", "due_at")
    list_filter = ("chart_kind", "box")
    search_fields = ("user__username",)
