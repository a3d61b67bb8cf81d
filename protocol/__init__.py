"""The DAIDE protocol: wire format and message language, sans I/O."""
