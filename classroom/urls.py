from django.urls import path

from classroom import views

app_name = "classroom"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_link, name="join_link"),
    path("<int:pk>/", views.dashboard, name="dashboard"),
    path("<int:pk>/heat/", views.heat, name="heat"),
    path("<int:pk>/heat/<str:kind>/<int:row>/<int:up>/", views.cell, name="cell"),
    path("<int:pk>/students/<int:user_id>/", views.student, name="student"),
    path("<int:pk>/students/<int:user_id>/note/", views.note, name="note"),
    path(
        "<int:pk>/students/<int:user_id>/answers.csv", views.export_student, name="export_student"
    ),
    path("<int:pk>/export.csv", views.export_dashboard, name="export"),
    path("<int:pk>/assignments/new/", views.assignment_create, name="assignment_create"),
    path("<int:pk>/assignments/remedial/", views.remedial, name="remedial"),
    path("<int:pk>/code/", views.regenerate, name="regenerate"),
    path("<int:pk>/archive/", views.archive, name="archive"),
    path("<int:pk>/co-teachers/", views.co_teacher, name="co_teacher"),
    path("<int:pk>/mine/", views.mine, name="mine"),
    path("<int:pk>/leave/", views.leave, name="leave"),
    path("<int:pk>/mine/<int:assignment>/start/", views.start, name="start"),
]
