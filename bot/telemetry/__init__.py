"""MQTT telemetry: what a playing bot publishes, and what ``daide-mcts watch`` shows.

* :mod:`bot.client.telemetry_events`: the events (pydantic models) and their topics;
* :mod:`bot.client.mqtt_publisher`: the bounded, never-blocking MQTT publisher;
* :mod:`bot.telemetry.watch_view`: the state ``watch`` builds from the events it hears;
* :mod:`bot.client.mqtt_url`: ``mqtt://host:port/prefix`` URLs;
* :mod:`bot.lab.bench.bench_telemetry`: ``daide-mcts bench telemetry``.
"""
