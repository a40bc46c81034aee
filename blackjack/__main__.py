import sys

from blackjack.cli import main

sys.exit(main())
