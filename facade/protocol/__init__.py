"""The sans-I/O Kafka protocol codec: bytes in, typed messages out, and back."""
