"""Pages sent compressed at zlib's level 1, with Django's defence against BREACH kept."""

import gzip

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from core.compression import GZipMiddleware, compress

PAGE = ("<p>" + "Thoth weighs the heart against the feather. " * 200 + "</p>").encode()


def middleware(response):
    return GZipMiddleware(lambda request: response)


def request(encoding="gzip, deflate, br"):
    return RequestFactory().get("/", HTTP_ACCEPT_ENCODING=encoding)


def test_a_page_comes_compressed_and_whole():
    response = middleware(HttpResponse(PAGE))(request())
    assert response["Content-Encoding"] == "gzip"
    assert response["Vary"] == "Accept-Encoding"
    assert int(response["Content-Length"]) == len(response.content) < len(PAGE) // 10
    assert gzip.decompress(response.content) == PAGE


def test_the_compressed_length_varies_by_a_random_file_name():
    lengths = {len(compress(PAGE, 100)) for _ in range(200)}
    assert len(lengths) > 20
    assert all(gzip.decompress(compress(PAGE, 100)) == PAGE for _ in range(20))


def test_a_strong_etag_becomes_weak():
    page = HttpResponse(PAGE)
    page["ETag"] = '"abc"'
    assert middleware(page)(request())["ETag"] == 'W/"abc"'


@pytest.mark.parametrize(
    ("body", "encoding", "header"),
    [(PAGE, "identity", None), (b"short", "gzip", None), (PAGE, "gzip", "br")],
    ids=["no-gzip", "short", "encoded"],
)
def test_what_django_leaves_alone_stays_alone(body, encoding, header):
    page = HttpResponse(body)
    if header:
        page["Content-Encoding"] = header
    response = middleware(page)(request(encoding))
    assert response.content == body
    assert response.get("Content-Encoding") == header


def test_a_stream_is_compressed_by_djangos_own_middleware():
    response = middleware(StreamingHttpResponse(iter([PAGE, PAGE])))(request())
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(response.streaming_content)) == PAGE * 2
