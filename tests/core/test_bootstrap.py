from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_bootstrap_is_idempotent():
    for _ in range(2):
        out = StringIO()
        call_command("bootstrap", stdout=out)
        assert out.getvalue().strip().endswith("Bootstrap complete.")
