# The wire kernel has no Python surface of its own: its writer and cursor are cimported by the compiled,
# generated hot-message codec (_hotcodec). The pure twin's Writer and Reader (_wire_py) serve _hotcodec_py.

class Out: ...
