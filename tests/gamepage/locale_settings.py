"""aceweb's settings with one more catalog folder, searched first: the folder named
by ACEWEB_TEST_LOCALE_PATH. The daphne of a browser test runs in its own process,
so a catalog compiled by the test reaches it only this way (tests/gamepage/
test_game_page_languages_browser.py); the site's own settings stay as they are."""

import os

from aceweb.settings import *  # noqa: F403 (a settings module that extends another)
from aceweb.settings import LOCALE_PATHS as SITE_LOCALE_PATHS

LOCALE_PATHS = [os.environ["ACEWEB_TEST_LOCALE_PATH"], *SITE_LOCALE_PATHS]
