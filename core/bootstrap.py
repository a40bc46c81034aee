"""Start-up rows of the core app: none yet; the hook other apps copy."""


def run() -> list[str]:
    return []
