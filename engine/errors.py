"""The one exception the engine raises for a move a player may not make."""


class IllegalAction(Exception):
    """An illegal or malformed action.

    The message is written for the player: it says what is wrong and what he may do
    ("You must follow suit: you hold hearts."). The game is always left exactly as it was.
    """
