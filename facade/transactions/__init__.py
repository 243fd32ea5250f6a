"""Transactions: Kafka's transaction coordinator (InitProducerId for transactional ids, AddPartitionsToTxn,
AddOffsetsToTxn, TxnOffsetCommit, EndTxn, DescribeTransactions, ListTransactions) and its state machine.

``coordinator.TransactionCoordinator`` is what the broker holds (``Broker.transactions``); ``metadata.py`` has the
states, the rules of each request and the persisted document.
"""

from .coordinator import LoadReport, TransactionCoordinator
from .metadata import IllegalTransitionError, ProduceRefused, TransactionMetadata, TxnState
from .queries import TransactionDescription, TransactionListing, offsets_partition

__all__ = [
    "IllegalTransitionError",
    "LoadReport",
    "ProduceRefused",
    "TransactionCoordinator",
    "TransactionDescription",
    "TransactionListing",
    "TransactionMetadata",
    "TxnState",
    "offsets_partition",
]
