from django.urls import path

from articles import views

app_name = "articles"

urlpatterns = [
    path("", views.index, name="index"),
    path("house-edge/calculator/", views.calculator_part, name="calculator"),
    path("house-edge/compute/", views.calculator_compute, name="calculator_compute"),
    path("<slug:slug>/", views.article, name="article"),
]
