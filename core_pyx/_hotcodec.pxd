# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FetchResponse.json, MetadataResponse.json, ProduceRequest.json, ProduceResponse.json - DO NOT EDIT; make gen-protocol
# C-level API of the generated hot-message kernel: one reader or writer per struct (values: _hotmessages).
from rockafka.core_pyx._wire cimport Cursor, Out

cdef object _r_produce_request_produce_request(Cursor *r, object view, int version)
cdef object _r_produce_request_topic_produce_data(Cursor *r, object view, int version)
cdef object _r_produce_request_partition_produce_data(Cursor *r, object view, int version)
cdef int _w_produce_response_produce_response(Out w, object value, int version) except -1
cdef int _w_produce_response_topic_produce_response(Out w, object value, int version) except -1
cdef int _w_produce_response_partition_produce_response(Out w, object value, int version) except -1
cdef int _w_produce_response_batch_index_and_error_message(Out w, object value, int version) except -1
cdef int _w_produce_response_leader_id_and_epoch(Out w, object value, int version) except -1
cdef int _w_produce_response_node_endpoint(Out w, object value, int version) except -1
cdef int _w_fetch_response_fetch_response(Out w, object value, int version) except -1
cdef int _w_fetch_response_fetchable_topic_response(Out w, object value, int version) except -1
cdef int _w_fetch_response_partition_data(Out w, object value, int version) except -1
cdef int _w_fetch_response_epoch_end_offset(Out w, object value, int version) except -1
cdef int _w_fetch_response_leader_id_and_epoch(Out w, object value, int version) except -1
cdef int _w_fetch_response_snapshot_id(Out w, object value, int version) except -1
cdef int _w_fetch_response_aborted_transaction(Out w, object value, int version) except -1
cdef int _w_fetch_response_node_endpoint(Out w, object value, int version) except -1
cdef int _w_metadata_response_metadata_response(Out w, object value, int version) except -1
cdef int _w_metadata_response_metadata_response_broker(Out w, object value, int version) except -1
cdef int _w_metadata_response_metadata_response_topic(Out w, object value, int version) except -1
cdef int _w_metadata_response_metadata_response_partition(Out w, object value, int version) except -1
