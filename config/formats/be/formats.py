"""Belarusian date and number formats, which Django does not ship (it has the translations
only): day first with dots, 24-hour time, a comma for decimals, a no-break space between
thousands, as in Russian and Ukrainian."""

DATE_FORMAT = "j E Y г."
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j E Y г. H:i"
YEAR_MONTH_FORMAT = "F Y г."
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"  # no-break space
NUMBER_GROUPING = 3
