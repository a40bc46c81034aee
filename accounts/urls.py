from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("", views.account, name="account"),
    path("teacher/", views.become_teacher, name="become_teacher"),
    path("password/", views.password_change, name="password_change"),
]
