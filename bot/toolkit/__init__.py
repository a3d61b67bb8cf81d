"""What the tools share: files read back, the project's folders, an observer, message logs."""
