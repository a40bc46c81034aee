import sys

from blackjack.cli import main

if __name__ == "__main__":  # not when collected for its doctests
    sys.exit(main())
