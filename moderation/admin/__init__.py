"""The moderators' admin, one module a page family: the queue of reports, the
log of acts (adding a row does the act), the account's history on the User
page, the chat lines, and the rating changes. Importing them registers them."""

from moderation.admin import accounts, acts, chat, ratings, reports  # noqa: F401
