from django.contrib import admin

from trainer.models import Decision


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "source", "category", "choice", "best", "ev_lost")
    list_filter = ("source", "category", "correct")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Decision._meta.fields]

    def has_add_permission(self, request):  # decisions are written by the app only
        return False
