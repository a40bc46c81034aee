"""The simulated users of ``bench/load.py`` (a locustfile; locust runs it in its own process).

Four kinds of visitor, each request to one of the app servers in ``LOAD_HOSTS`` at random
(what a load balancer without stickiness does), with a think time of 0.5-1.5 s (mean 1 s)
between requests:

- a player (weight 5): a guest at the Scribes' table, betting on one or two boxes with AI
  seat-mates and playing every decision through the htmx move endpoint; when a request fails
  (a server killed, the database away) it reloads the table and plays on the round it finds;
- a learner (weight 3): drill questions, deal and answer;
- a teacher (weight 1): a class dashboard, signed in through a session made by ``load.py``;
- a reader (weight 1): the rules articles in the six languages.

Every request is written to ``LOAD_RECORD`` (JSON lines: time, kind, milliseconds, status;
status 0 for a refused or broken connection) when locust quits; ``load.py`` computes the
figures from those.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from http.cookiejar import Cookie
from typing import Any
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, events, task

HOSTS = os.environ.get("LOAD_HOSTS", "http://127.0.0.1:8101").split(",")
TEACHERS = json.loads(os.environ.get("LOAD_TEACHERS", "[]"))
RECORD = os.environ.get("LOAD_RECORD", "")

SEQ = re.compile(r'name="seq" value="(\d+)"')
MOVE_URL = re.compile(r'hx-post="(/en/play/round/\d+/move/)"')
BUTTON = re.compile(r'name="move" value="(\w+)" data-key="\w" class="move"( disabled)?>')
SITUATION = re.compile(r'name="situation" value="(\d+)"')
ANSWER = re.compile(r'name="move" value="(\w+)"')
ARTICLE = re.compile(r'href="(/\w\w/rules/[\w-]+/)"')
TOP_UP = 'action="/en/play/top-up/"'
BALANCE = re.compile(r'class="balance">([\d,.\s\u00a0]+)<')
LANGS = ("en", "uk", "ru", "be", "cs", "hy")
SCRIBES = "/en/play/table/scribes/"

_records: list[tuple[float, str, float, int]] = []


@events.request.add_listener
def _record(name: str, response_time: float, response: Any = None, **_: Any) -> None:
    status = getattr(response, "status_code", 0) or 0
    _records.append((time.time(), name, response_time, int(status)))


@events.quitting.add_listener
def _dump(**_: Any) -> None:
    if RECORD:
        with open(RECORD, "w") as out:
            for row in _records:
                out.write(json.dumps(row) + "\n")


def session_cookie(key: str) -> Cookie:
    """The signed-in session ``load.py`` made for a teacher, for every port of 127.0.0.1."""
    return Cookie(0, "sessionid", key, None, False, "127.0.0.1", False, False, "/", True,
                  False, None, False, None, None, {})  # fmt: skip


class Visitor(FastHttpUser):
    abstract = True
    host = HOSTS[0]
    # A request to a server that was just killed fails at once; no retry in the client.
    connection_timeout = 10.0
    network_timeout = 30.0

    def think(self) -> None:
        gevent.sleep(random.uniform(0.5, 1.5))

    def csrf(self) -> str:
        for cookie in self.client.cookiejar:
            if cookie.name == "csrftoken":
                return cookie.value or ""
        return ""

    def send(self, method: str, path: str, kind: str, data: dict[str, str] | None = None) -> str:
        """The page's text, or "" when the request failed (recorded with its status)."""
        host = random.choice(HOSTS)
        headers = {}
        body = None
        if method == "POST":
            body = urlencode(data or {})
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "HX-Request": "true",
                "X-CSRFToken": self.csrf(),
                "Referer": host + path,
            }
        with self.client.request(
            method, host + path, name=kind, data=body, headers=headers, catch_response=True
        ) as response:
            if response.status_code == 200:
                response.success()
                return response.text or ""
            response.failure(f"HTTP {response.status_code}")
            return ""


class Player(Visitor):
    weight = 5

    @task
    def play(self) -> None:
        while True:
            html = self.send("GET", SCRIBES, "table")
            if not html:
                self.think()
                continue
            if TOP_UP in html:
                self.send("POST", "/en/play/top-up/", "top-up", {"next": SCRIBES})
                continue
            if MOVE_URL.search(html) is None:  # no round in play: deal one
                found = BALANCE.search(html)
                digits = re.sub(r"[^\d.]", "", found.group(1)) if found else ""
                balance = float(digits or 0)
                boxes = max(1, min(random.choice((1, 2)), int(balance // 100)))
                bets = {f"bet_{b}": "100" for b in random.sample(range(5), boxes)}
                for b in range(5):
                    if f"bet_{b}" not in bets and random.random() < 0.5:
                        bets[f"ai_{b}"] = random.choice(("easy", "normal", "hard"))
                self.think()
                html = self.send("POST", f"{SCRIBES}deal/", "deal", bets)
            while html and (url := MOVE_URL.search(html)) is not None:
                self.think()
                legal = [m for m, off in BUTTON.findall(html) if not off]
                seq = SEQ.search(html)
                if not legal or seq is None:
                    break
                move = "decline" if "decline" in legal else random.choice(legal)
                html = self.send("POST", url.group(1), "move", {"move": move, "seq": seq.group(1)})
            self.think()  # looks at the result (or, after a failure, reloads the table)


class Learner(Visitor):
    weight = 3

    @task
    def drill(self) -> None:
        up = random.choice(["2", "3", "4", "5", "6", "7", "8", "9", "10", "1"])
        settings = {"focus": "all", "up": up, "preset": "thoth"}
        while not self.send("GET", "/en/trainer/", "drill page"):
            self.think()
        while True:
            self.think()
            html = self.send("POST", "/en/trainer/deal/", "drill deal", settings)
            found = SITUATION.search(html)
            moves = ANSWER.findall(html)
            if found is None or not moves:
                continue
            self.think()
            data = {"situation": found.group(1), "move": random.choice(moves)}
            self.send("POST", "/en/trainer/answer/", "drill answer", data)


class Teacher(Visitor):
    weight = 1

    @task
    def dashboard(self) -> None:
        if not TEACHERS:
            return
        mine = random.choice(TEACHERS)
        self.client.cookiejar.set_cookie(session_cookie(mine["session"]))
        while True:
            self.send("GET", f"/en/classes/{mine['class']}/", "dashboard")
            self.think()


class Reader(Visitor):
    weight = 1

    @task
    def read(self) -> None:
        pages: list[str] = []
        for lang in LANGS:
            html = self.send("GET", f"/{lang}/rules/", "article")
            pages += [p for p in ARTICLE.findall(html) if p.startswith(f"/{lang}/")]
            self.think()
        pages = sorted(set(pages)) or ["/en/rules/"]
        while True:
            self.send("GET", random.choice(pages), "article")
            self.think()
