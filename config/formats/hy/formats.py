"""Armenian date and number formats, which Django does not ship (it has the translations
only): day first with dots, 24-hour time, a comma for decimals, a no-break space between
thousands (the Unicode CLDR's Armenian conventions).  Month names are left out: the numeric
forms need no grammatical case."""

DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "d.m.Y, H:i"
YEAR_MONTH_FORMAT = "m.Y"
MONTH_DAY_FORMAT = "d.m"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"  # no-break space
NUMBER_GROUPING = 3
