"""The site's own date formats for a language, where Django's differ from how
the site writes dates (settings.FORMAT_MODULE_PATH). Every date on a page goes
through a named format (DATE_FORMAT, DATETIME_FORMAT, SHORT_DATE_FORMAT,
SHORT_DATETIME_FORMAT, TIME_FORMAT), so each language writes it as its readers
do: German "15. Januar 2031", Spanish "15 de enero de 2031", Russian
"15 января 2031 г." (the month in the genitive, lower case; Django's own)."""
