"""Every page lives under a language prefix (``/en/…``, ``/uk/…``); ``/`` picks one."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import URLPattern, URLResolver, include, path

from articles import views as articles_views
from articles.sitemaps import SITEMAPS
from core import health
from core import views as core_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", core_views.root_redirect, name="root"),
    # Outside the language prefix: a load balancer's probe, no session, no template.
    path("healthz", health.healthz, name="healthz"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("robots.txt", articles_views.robots_txt, name="robots"),
]

urlpatterns += i18n_patterns(
    path("", include("core.urls")),
    path("accounts/", include("accounts.urls")),
    # The user's own data (download, delete the account): under the account's URLs, in an
    # app of its own above every app whose rows it gathers (pyproject's layers).
    path("accounts/", include("privacy.urls")),
    path("play/", include("game.urls")),
    path("trainer/", include("trainer.urls")),
    path("rules/", include("articles.urls")),
    path("classes/", include("classroom.urls")),
    path("admin/", admin.site.urls),
)

handler400 = "core.views.bad_request"
handler403 = "core.views.permission_denied"
handler404 = "core.views.page_not_found"
handler500 = "core.views.server_error"
