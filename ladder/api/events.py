"""(being written)"""


def connect() -> None:
    pass
