"""Read-only admin pages: chips and rounds are changed only through game.services."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from game.models import LedgerEntry, Round, Table, Wallet


class ReadOnlyAdmin(admin.ModelAdmin[Model]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Wallet)
class WalletAdmin(ReadOnlyAdmin):
    list_display = ("user", "balance", "created_at")
    search_fields = ("user__username",)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "wallet", "kind", "amount", "balance_after", "round", "created_at")
    list_filter = ("kind",)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("slug", "kind", "preset", "min_bet", "max_bet", "chips")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "seat", "status", "seq", "net", "created_at", "finished_at")
    list_filter = ("status",)
    exclude = ("state",)  # the state holds the undealt shoe
