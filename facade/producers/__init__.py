"""Idempotent producers: producer ids (InitProducerId), transactional ids, and per-partition sequence state.

``service.ProducerService`` is what the broker holds (``Broker.producers``). The rules live apart, each
module's docstring its table: ``ids.py`` (InitProducerId), ``sequence.py`` (a batch's verdict on one
partition), ``state.py`` (one partition's producers, its snapshot document and its rebuild).
"""

from .ids import InitRefused, ProducerIdAndEpoch, TransactionalIdState
from .sequence import Accepted, Duplicate, Refused, Verdict
from .service import InitGranted, ProducerService, RebuildReport

__all__ = [
    "Accepted",
    "Duplicate",
    "InitGranted",
    "InitRefused",
    "ProducerIdAndEpoch",
    "ProducerService",
    "RebuildReport",
    "Refused",
    "TransactionalIdState",
    "Verdict",
]
