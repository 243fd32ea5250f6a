"""A broker group's replication: the leader streams its CommitLog to its followers (RocketMQ's HA service).

``stream.py`` is the wire format (sans-I/O, its docstring the spec); ``leader.py`` serves followers on the
replication listener and keeps their acknowledged ends; ``follower.py`` connects to the leader, truncates,
copies and acknowledges. This package imports the store and the cluster's errors, never the facade.
"""
