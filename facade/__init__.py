"""The Kafka protocol adapter: codec, server, handlers, coordinators and broker configuration."""
