"""MQTT telemetry: what a playing bot publishes, and what ``daide-mcts watch`` shows.

* :mod:`bot.telemetry.events`: the events (pydantic models) and their topics;
* :mod:`bot.telemetry.publisher`: the bounded, never-blocking MQTT publisher;
* :mod:`bot.telemetry.view`: the state ``watch`` builds from the events it hears;
* :mod:`bot.telemetry.mqtt_url`: ``mqtt://host:port/prefix`` URLs;
* :mod:`bot.telemetry.benchmark`: ``daide-mcts bench telemetry``.
"""
