"""What every layer of the service may use and that knows nothing of games: ids and
tokens, per-key locks, stopping background tasks, log lines and metrics."""
