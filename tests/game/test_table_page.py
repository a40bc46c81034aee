"""The table page as issue 16 found it: the top-up comes back to the table, every 405 is a
page, live pages are never cached, the selected chip is one the balance covers, the insurance
offer says its cost, the log is a keyboard scroll box, the lobby says which tables the balance
covers."""

from __future__ import annotations

import doctest
from decimal import Decimal

import pytest
from django.utils import translation

from game import chips, services
from game.models import Wallet
from tests.game.test_views import HTMX, deal_rigged, en, move_url, table_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


def set_balance(user, amount) -> None:
    services.wallet_get_or_create(user=user)
    Wallet.objects.filter(user=user).update(balance=Decimal(amount))


def test_chips_doctests():
    assert doctest.testmod(chips).failed == 0


def test_the_top_up_under_a_move_s_result_comes_back_to_the_table(logged_in, learner, tables, rig):
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 9c", rest="10c")
    set_balance(learner, 50)
    html = logged_in.post(move_url(rnd), {"move": "hit", "seq": 0}, **HTMX).content.decode()
    assert "Free top-up" in html
    assert f'name="next" value="{table_url()}"' in html
    assert f'value="{move_url(rnd)}"' not in html


@pytest.mark.parametrize("lang", ["en", "uk", "hy"])
def test_a_get_of_the_top_up_is_a_405_page_in_the_language(client, tables, lang):
    response = client.get(f"/{lang}/play/top-up/")
    html = response.content.decode()
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert f'<html lang="{lang}"' in html
    assert '<p class="error-code">405</p>' in html


def test_a_get_of_a_move_is_a_405_page(logged_in, learner, tables, rig):
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 9c")
    response = logged_in.get(move_url(rnd))
    assert (
        response.status_code == 405 and '<p class="error-code">405</p>' in response.content.decode()
    )


def test_a_post_to_a_page_is_a_405_page(client, tables):
    response = client.post(en("game:lobby"))
    assert response.status_code == 405 and response["Allow"] == "GET"
    assert b'<p class="error-code">405</p>' in response.content


@pytest.mark.parametrize(
    "url", ["/en/play/", "/en/play/table/scribes/", "/en/play/history/", "/en/trainer/"]
)
def test_live_pages_are_sent_with_no_store(logged_in, tables, url):
    response = logged_in.get(url)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_a_move_s_fragment_is_no_store_and_out_of_htmx_history(logged_in, learner, tables, rig):
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 9c")
    response = logged_in.post(move_url(rnd), {"move": "stand", "seq": 0}, **HTMX)
    assert "no-store" in response["Cache-Control"]
    assert 'id="round" class="play-area"' in response.content.decode()
    assert 'hx-history="false"' in response.content.decode()


def test_htmx_keeps_no_history_and_settles_no_style(client, tables):
    html = client.get(table_url()).content.decode()
    assert '"historyCacheSize": 0' in html
    assert '"attributesToSettle": ["class", "width", "height"]' in html
    assert '"includeIndicatorStyles": false' in html


def test_no_chip_is_selected_when_the_balance_covers_none(logged_in, learner, tables):
    set_balance(learner, 1050)
    html = logged_in.get(table_url("pharaohs")).content.decode()
    assert "checked" not in html.split('class="chip-rack"')[1].split("</fieldset>")[0]


def test_a_refused_deal_keeps_the_chosen_chip(logged_in, learner, tables):
    set_balance(learner, 1050)
    form = {"bet_0": "5000", "chip": "500"}
    html = logged_in.post(en("game:deal", "scribes"), form, **HTMX).content.decode()
    assert 'name="chip" value="500" checked>' in html


def test_the_insurance_offer_says_its_cost_and_takes_the_focus_off_the_buttons(
    logged_in, learner, tables, rig
):
    deal_rigged(learner, tables, rig, boxes=["10s 9d"], dealer="As 7c")
    html = logged_in.get(table_url()).content.decode()
    assert "Insure (half the bet: 50)" in html
    assert '<fieldset tabindex="-1" data-question>' in html


def test_even_money_says_what_it_pays(logged_in, learner, tables, rig):
    deal_rigged(learner, tables, rig, boxes=["As Kd"], dealer="Ah 7c")
    html = logged_in.get(table_url()).content.decode()
    assert "Even money (100 paid now)" in html


def test_the_log_is_a_named_focusable_scroll_box(logged_in, learner, tables, rig):
    deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 9c")
    html = logged_in.get(table_url()).content.decode()
    assert '<div class="log-scroll" tabindex="0" role="region" aria-labelledby="log-title">' in html
    assert '<summary id="log-title">' in html


def test_the_lobby_says_which_tables_the_balance_covers(logged_in, learner, tables):
    set_balance(learner, 1050)
    html = logged_in.get(en("game:lobby")).content.decode()
    # The house tables say it either way; a variant only when it is not covered.
    assert html.count("Your balance covers the smallest bet here.") == 2  # scribes, priests
    assert "smallest bet (10,000): build it up at a table with smaller bets first." in html


def test_the_lobby_sends_a_broke_learner_to_the_top_up(logged_in, learner, tables):
    set_balance(learner, 50)
    with translation.override("en"):
        html = logged_in.get(en("game:lobby")).content.decode()
    assert "smallest bet (100): take the free top-up above" in html


def test_the_variant_picker_is_a_list_of_radio_buttons(client, tables):
    html = client.get(en("game:lobby")).content.decode()
    assert 'type="radio" id="variant-european" name="preset" value="european"' in html
    assert "<select" not in html.split("variant-form")[1]
