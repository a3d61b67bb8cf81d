"""The bot: the asyncio DAIDE client, the command line and the local game runners."""

__version__ = "0.1.0"
