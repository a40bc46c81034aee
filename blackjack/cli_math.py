"""Placeholder: filled in by its own change."""

import argparse
from typing import Any


def register(subparsers: "argparse._SubParsersAction[Any]") -> None:
    return None
