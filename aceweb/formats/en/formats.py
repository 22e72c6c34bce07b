"""English dates as the site has always written them: day first and a 24-hour
clock ("15 Jan 2031 13:00"), which its players across Europe read at once;
Django's own English formats are American ("Jan. 15, 2031, 1 p.m.")."""

DATE_FORMAT = "j F Y"  # 15 January 2031
DATETIME_FORMAT = "j M Y H:i"  # 15 Jan 2031 13:00
TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y H:i"
