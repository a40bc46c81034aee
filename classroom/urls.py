from django.urls import path

from classroom import views

app_name = "classroom"

urlpatterns = [
    path("", views.index, name="index"),
]
