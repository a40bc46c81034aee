from django.contrib import admin

from trainer.models import Situation


@admin.register(Situation)
class SituationAdmin(admin.ModelAdmin):
    list_display = ("dealt_at", "user", "focus", "kind", "dealer_up", "chart_move", "decision")
    list_filter = ("focus", "kind")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Situation._meta.fields]

    def has_add_permission(self, request):  # dealt by the drill only
        return False
