from django.contrib import admin

from decisions.models import Decision, WeakSpot


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "source", "category", "choice", "best", "ev_lost")
    list_filter = ("source", "category", "correct")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Decision._meta.fields]

    def has_add_permission(self, request):  # decisions are written by the app only
        return False


@admin.register(WeakSpot)
class WeakSpotAdmin(admin.ModelAdmin):
    list_display = ("user", "chart_kind", "chart_row", "dealer_points", "box", "misses", "due_at")
    list_filter = ("chart_kind", "box")
    search_fields = ("user__username",)
