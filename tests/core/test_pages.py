import pytest

PAGES = ["core:home", "game:index", "trainer:index", "articles:index", "classroom:index"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/en/", "/en/play/", "/en/trainer/", "/en/rules/", "/en/classes/"]
)
def test_pages_render(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert b'<main id="main"' in response.content
