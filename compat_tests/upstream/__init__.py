"""Runner for the clients' own upstream integration suites against Rockafka (``make compat-upstream``)."""
