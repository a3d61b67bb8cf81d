"""A person's seat: the bot's client core playing orders a person gives on a web page."""
