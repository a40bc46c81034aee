"""Mounted under ``accounts/`` (config/urls.py): the pages belong to the account."""

from django.urls import path

from privacy import views

app_name = "privacy"

urlpatterns = [
    path("data/", views.download, name="download"),
    path("delete/", views.delete, name="delete"),
    path("delete/confirm/", views.delete_confirm, name="delete_confirm"),
]
