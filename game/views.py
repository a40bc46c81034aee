from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from core.http import HtmxHttpRequest


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    """An honest "coming soon" page until the play issue fills it."""
    return render(request, "game/index.html")
