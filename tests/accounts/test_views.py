import pytest
from django.contrib.auth import SESSION_KEY

from accounts.forms import RESERVED_USERNAME
from accounts.models import User
from accounts.services import user_get_or_create_guest

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Scarab-Lapis-9173"


def signup_data(**overrides):
    data = {
        "username": "nefertari",
        "display_name": "Nefertari",
        "role": "learner",
        "preferred_language": "en",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
    }
    data.update(overrides)
    return data


def test_signup_page_offers_role_and_language(client):
    html = client.get("/uk/accounts/signup/").content.decode()
    assert 'name="role"' in html
    assert '<option value="uk" selected>' in html


def test_signup_creates_account_logs_in_and_goes_home_in_its_language(client):
    response = client.post("/en/accounts/signup/", signup_data(preferred_language="cs"))
    assert response.status_code == 302
    assert response["Location"] == "/cs/"
    user = User.objects.get(username="nefertari")
    assert user.role == "learner"
    assert user.is_guest is False
    assert client.session[SESSION_KEY] == str(user.pk)


def test_signup_as_teacher(client):
    client.post("/en/accounts/signup/", signup_data(role="teacher"))
    assert User.objects.get(username="nefertari").role == "teacher"


def test_signup_keeps_the_guest_row(client, rf):
    client.get("/en/")
    request = rf.get("/en/play/")
    request.session = client.session
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    guest = user_get_or_create_guest(request=request)
    request.session.save()
    client.cookies["sessionid"] = request.session.session_key
    page = client.get("/en/accounts/signup/").content.decode()
    assert "You are playing as a guest." in page
    response = client.post("/en/accounts/signup/", signup_data())
    assert response.status_code == 302
    user = User.objects.get(username="nefertari")
    assert user.pk == guest.pk
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "A user with that username already exists."),
        ("uk", "Користувач з таким ім&#x27;ям вже існує."),
        ("hy", "Այդ անունով օգտագործող արդեն գոյություն ունի։"),
    ],
)
def test_signup_with_a_taken_name(client, lang, message):
    User.objects.create_user(username="nefertari", password="x")
    response = client.post(f"/{lang}/accounts/signup/", signup_data())
    assert response.status_code == 200
    assert message in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("lang", "password", "message"),
    [
        ("en", "12345678", "This password is too common."),
        ("en", "abc", "This password is too short. It must contain at least 8 characters."),
        ("cs", "abc", "Heslo je příliš krátké. Musí mít alespoň 8 znaků."),
        ("hy", "12345678", "Այս գաղտնաբառը չափազանց տարածված է։"),
        ("be", "abc", "Пароль занадта кароткі. Ён павінен змяшчаць не менш за 8 сімвалаў."),
    ],
)
def test_signup_with_a_weak_password(client, lang, password, message):
    response = client.post(
        f"/{lang}/accounts/signup/", signup_data(password1=password, password2=password)
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()


def test_signup_with_mismatched_passwords(client):
    response = client.post("/en/accounts/signup/", signup_data(password2="Other-Pass-5521"))
    assert "The two password fields didn’t match." in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Select a valid choice. xx is not one of the available choices."),
        # Our catalogue's words, not Django's (core/django_strings.py): be's own is in the
        # classical spelling («значэньнях»).
        ("ru", "Выберите допустимый вариант: значения xx среди вариантов нет."),
        ("be", "Абярыце правільны варыянт. xx няма сярод даступных варыянтаў."),
    ],
)
def test_signup_with_a_forged_language_code(client, lang, message):
    response = client.post(f"/{lang}/accounts/signup/", signup_data(preferred_language="xx"))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()


def test_signup_with_a_forged_role(client):
    response = client.post("/en/accounts/signup/", signup_data(role="pharaoh"))
    assert "Select a valid choice. pharaoh is not one of the available choices." in (
        response.content.decode()
    )


def test_guest_prefix_is_reserved(client):
    response = client.post("/en/accounts/signup/", signup_data(username="guest-abc"))
    assert str(RESERVED_USERNAME) in response.content.decode()
    assert not User.objects.exists()


def test_login_applies_the_preferred_language(client):
    User.objects.create_user(username="ramses", password=GOOD_PASSWORD, preferred_language="ru")
    response = client.post("/en/accounts/login/", {"username": "ramses", "password": GOOD_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/ru/"


def test_login_follows_next_in_the_preferred_language(client):
    User.objects.create_user(username="ramses", password=GOOD_PASSWORD, preferred_language="uk")
    response = client.post(
        "/en/accounts/login/",
        {"username": "ramses", "password": GOOD_PASSWORD, "next": "/en/trainer/"},
    )
    assert response["Location"] == "/uk/trainer/"


def test_login_ignores_an_offsite_next(client):
    User.objects.create_user(username="ramses", password=GOOD_PASSWORD)
    response = client.post(
        "/en/accounts/login/",
        {"username": "ramses", "password": GOOD_PASSWORD, "next": "https://evil.example/"},
    )
    assert response["Location"] == "/en/"


def test_login_wrong_password_message_in_language(client):
    User.objects.create_user(username="ramses", password=GOOD_PASSWORD)
    response = client.post("/uk/accounts/login/", {"username": "ramses", "password": "nope"})
    assert response.status_code == 200
    # Our catalogue's words (core/django_strings.py), with our name for the username field.
    assert "Введіть правильні ім’я користувача і пароль." in response.content.decode()
    assert SESSION_KEY not in client.session


def test_sixth_attempt_is_refused_after_five_wrong_passwords(client):
    User.objects.create_user(username="ramses", password=GOOD_PASSWORD)
    for _ in range(4):
        response = client.post("/en/accounts/login/", {"username": "ramses", "password": "bad"})
        assert response.status_code == 200
    response = client.post("/en/accounts/login/", {"username": "ramses", "password": "bad"})
    assert response.status_code == 429
    # The right password, sixth time: still refused.
    response = client.post("/en/accounts/login/", {"username": "ramses", "password": GOOD_PASSWORD})
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    assert SESSION_KEY not in client.session


def test_logout_needs_post(client):
    user = User.objects.create_user(username="ramses", password=GOOD_PASSWORD)
    client.force_login(user)
    assert client.get("/en/accounts/logout/").status_code == 405
    response = client.post("/en/accounts/logout/")
    assert response.status_code == 302
    assert SESSION_KEY not in client.session


def test_change_password(client):
    user = User.objects.create_user(username="ramses", password=GOOD_PASSWORD)
    client.force_login(user)
    response = client.post(
        "/en/accounts/password/",
        {
            "old_password": GOOD_PASSWORD,
            "new_password1": "Obelisk-Granite-5512",
            "new_password2": "Obelisk-Granite-5512",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Obelisk-Granite-5512")
    assert client.session[SESSION_KEY] == str(user.pk)


def test_change_password_wrong_old_password(client):
    user = User.objects.create_user(username="ramses", password=GOOD_PASSWORD)
    client.force_login(user)
    response = client.post(
        "/en/accounts/password/",
        {
            "old_password": "nope",
            "new_password1": "Obelisk-Granite-5512",
            "new_password2": "Obelisk-Granite-5512",
        },
    )
    assert "Your old password was entered incorrectly." in response.content.decode()


def test_change_password_needs_login(client):
    response = client.get("/en/accounts/password/")
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/login/?next=/en/accounts/password/"


def test_header_shows_account_links(client):
    user = User.objects.create_user(username="ramses", password="x", display_name="Ramesses")
    client.force_login(user)
    html = client.get("/en/").content.decode()
    assert '<span class="who">Ramesses</span>' in html
    assert 'action="/en/accounts/logout/"' in html
    assert "/en/accounts/signup/" not in html


def test_greeting_is_in_the_language_chosen_at_sign_up(client):
    response = client.post(
        "/uk/accounts/signup/",
        signup_data(display_name="Khufu", preferred_language="cs"),
        follow=True,
    )
    assert response.redirect_chain == [("/cs/", 302)]
    assert '<p class="message message-success">Vítejte v\u00a0Síni Thovta, Khufu.</p>' in (
        response.content.decode()
    )


def test_account_page_saves_names_and_makes_a_teacher(client):
    user = User.objects.create_user(username="imhotep", password="x")
    client.force_login(user)
    assert client.get("/en/accounts/").status_code == 200
    r = client.post("/en/accounts/", {"display_name": "Im", "real_name": "Імхотеп Птахович"})
    assert r.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.real_name) == ("Im", "Імхотеп Птахович")
    assert client.post("/en/accounts/", {"display_name": "x" * 61}).status_code == 400
    r = client.post("/en/accounts/teacher/")
    assert r.status_code == 302 and r["Location"] == "/en/classes/"
    user.refresh_from_db()
    assert user.is_teacher


def test_account_page_sends_guests_and_anonymous_away(client):
    assert client.get("/en/accounts/").status_code == 302
    assert client.post("/en/accounts/teacher/").status_code == 302
    guest = User.objects.create(username="guest-1", is_guest=True)
    client.force_login(guest)
    assert client.get("/en/accounts/")["Location"] == "/en/accounts/signup/"
    client.post("/en/accounts/teacher/")
    guest.refresh_from_db()
    assert not guest.is_teacher and guest.role == "learner"


def test_login_warns_a_guest_that_the_guest_s_play_stays_behind(client, django_user_model):
    """Issue 16: logging in from a guest session silently dropped the guest's chips and
    rounds; the log-in page now says so before it happens and offers sign-up instead."""
    assert "guest-warning" not in client.get("/en/accounts/login/").content.decode()
    guest = django_user_model.objects.create_user(username="guest-x1", is_guest=True)
    client.force_login(guest)
    page = client.get("/en/accounts/login/").content.decode()
    assert 'id="guest-warning"' in page
    assert "stay behind with the guest and are not added to the account" in page
    assert 'href="/en/accounts/signup/"' in page
