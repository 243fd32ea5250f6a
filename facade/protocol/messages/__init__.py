# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 - DO NOT EDIT; make gen-protocol
"""Every message of the Kafka protocol, one module per API (plus the headers and data messages, imported
by module), and the registry ``API_SPECS``: API key -> :class:`ApiSpec`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ..api import ApiSpec
from ..errors import UnknownApiKeyError
from .add_offsets_to_txn import AddOffsetsToTxnRequest, AddOffsetsToTxnResponse
from .add_partitions_to_txn import AddPartitionsToTxnRequest, AddPartitionsToTxnResponse
from .add_raft_voter import AddRaftVoterRequest, AddRaftVoterResponse
from .allocate_producer_ids import AllocateProducerIdsRequest, AllocateProducerIdsResponse
from .alter_client_quotas import AlterClientQuotasRequest, AlterClientQuotasResponse
from .alter_configs import AlterConfigsRequest, AlterConfigsResponse
from .alter_partition import AlterPartitionRequest, AlterPartitionResponse
from .alter_partition_reassignments import AlterPartitionReassignmentsRequest, AlterPartitionReassignmentsResponse
from .alter_replica_log_dirs import AlterReplicaLogDirsRequest, AlterReplicaLogDirsResponse
from .alter_share_group_offsets import AlterShareGroupOffsetsRequest, AlterShareGroupOffsetsResponse
from .alter_user_scram_credentials import AlterUserScramCredentialsRequest, AlterUserScramCredentialsResponse
from .api_versions import ApiVersionsRequest, ApiVersionsResponse
from .assign_replicas_to_dirs import AssignReplicasToDirsRequest, AssignReplicasToDirsResponse
from .begin_quorum_epoch import BeginQuorumEpochRequest, BeginQuorumEpochResponse
from .broker_heartbeat import BrokerHeartbeatRequest, BrokerHeartbeatResponse
from .broker_registration import BrokerRegistrationRequest, BrokerRegistrationResponse
from .consumer_group_describe import ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse
from .consumer_group_heartbeat import ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse
from .controlled_shutdown import ControlledShutdownRequest, ControlledShutdownResponse
from .controller_registration import ControllerRegistrationRequest, ControllerRegistrationResponse
from .create_acls import CreateAclsRequest, CreateAclsResponse
from .create_delegation_token import CreateDelegationTokenRequest, CreateDelegationTokenResponse
from .create_partitions import CreatePartitionsRequest, CreatePartitionsResponse
from .create_topics import CreateTopicsRequest, CreateTopicsResponse
from .delete_acls import DeleteAclsRequest, DeleteAclsResponse
from .delete_groups import DeleteGroupsRequest, DeleteGroupsResponse
from .delete_records import DeleteRecordsRequest, DeleteRecordsResponse
from .delete_share_group_offsets import DeleteShareGroupOffsetsRequest, DeleteShareGroupOffsetsResponse
from .delete_share_group_state import DeleteShareGroupStateRequest, DeleteShareGroupStateResponse
from .delete_topics import DeleteTopicsRequest, DeleteTopicsResponse
from .describe_acls import DescribeAclsRequest, DescribeAclsResponse
from .describe_client_quotas import DescribeClientQuotasRequest, DescribeClientQuotasResponse
from .describe_cluster import DescribeClusterRequest, DescribeClusterResponse
from .describe_configs import DescribeConfigsRequest, DescribeConfigsResponse
from .describe_delegation_token import DescribeDelegationTokenRequest, DescribeDelegationTokenResponse
from .describe_groups import DescribeGroupsRequest, DescribeGroupsResponse
from .describe_log_dirs import DescribeLogDirsRequest, DescribeLogDirsResponse
from .describe_producers import DescribeProducersRequest, DescribeProducersResponse
from .describe_quorum import DescribeQuorumRequest, DescribeQuorumResponse
from .describe_share_group_offsets import DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsResponse
from .describe_topic_partitions import DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse
from .describe_transactions import DescribeTransactionsRequest, DescribeTransactionsResponse
from .describe_user_scram_credentials import DescribeUserScramCredentialsRequest, DescribeUserScramCredentialsResponse
from .elect_leaders import ElectLeadersRequest, ElectLeadersResponse
from .end_quorum_epoch import EndQuorumEpochRequest, EndQuorumEpochResponse
from .end_txn import EndTxnRequest, EndTxnResponse
from .envelope import EnvelopeRequest, EnvelopeResponse
from .expire_delegation_token import ExpireDelegationTokenRequest, ExpireDelegationTokenResponse
from .fetch import FetchRequest, FetchResponse
from .fetch_snapshot import FetchSnapshotRequest, FetchSnapshotResponse
from .find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from .get_telemetry_subscriptions import GetTelemetrySubscriptionsRequest, GetTelemetrySubscriptionsResponse
from .heartbeat import HeartbeatRequest, HeartbeatResponse
from .incremental_alter_configs import IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse
from .init_producer_id import InitProducerIdRequest, InitProducerIdResponse
from .initialize_share_group_state import InitializeShareGroupStateRequest, InitializeShareGroupStateResponse
from .join_group import JoinGroupRequest, JoinGroupResponse
from .leader_and_isr import LeaderAndIsrRequest, LeaderAndIsrResponse
from .leave_group import LeaveGroupRequest, LeaveGroupResponse
from .list_client_metrics_resources import ListClientMetricsResourcesRequest, ListClientMetricsResourcesResponse
from .list_groups import ListGroupsRequest, ListGroupsResponse
from .list_offsets import ListOffsetsRequest, ListOffsetsResponse
from .list_partition_reassignments import ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse
from .list_transactions import ListTransactionsRequest, ListTransactionsResponse
from .metadata import MetadataRequest, MetadataResponse
from .offset_commit import OffsetCommitRequest, OffsetCommitResponse
from .offset_delete import OffsetDeleteRequest, OffsetDeleteResponse
from .offset_fetch import OffsetFetchRequest, OffsetFetchResponse
from .offset_for_leader_epoch import OffsetForLeaderEpochRequest, OffsetForLeaderEpochResponse
from .produce import ProduceRequest, ProduceResponse
from .push_telemetry import PushTelemetryRequest, PushTelemetryResponse
from .read_share_group_state import ReadShareGroupStateRequest, ReadShareGroupStateResponse
from .read_share_group_state_summary import ReadShareGroupStateSummaryRequest, ReadShareGroupStateSummaryResponse
from .remove_raft_voter import RemoveRaftVoterRequest, RemoveRaftVoterResponse
from .renew_delegation_token import RenewDelegationTokenRequest, RenewDelegationTokenResponse
from .sasl_authenticate import SaslAuthenticateRequest, SaslAuthenticateResponse
from .sasl_handshake import SaslHandshakeRequest, SaslHandshakeResponse
from .share_acknowledge import ShareAcknowledgeRequest, ShareAcknowledgeResponse
from .share_fetch import ShareFetchRequest, ShareFetchResponse
from .share_group_describe import ShareGroupDescribeRequest, ShareGroupDescribeResponse
from .share_group_heartbeat import ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse
from .stop_replica import StopReplicaRequest, StopReplicaResponse
from .sync_group import SyncGroupRequest, SyncGroupResponse
from .txn_offset_commit import TxnOffsetCommitRequest, TxnOffsetCommitResponse
from .unregister_broker import UnregisterBrokerRequest, UnregisterBrokerResponse
from .update_features import UpdateFeaturesRequest, UpdateFeaturesResponse
from .update_metadata import UpdateMetadataRequest, UpdateMetadataResponse
from .update_raft_voter import UpdateRaftVoterRequest, UpdateRaftVoterResponse
from .vote import VoteRequest, VoteResponse
from .write_share_group_state import WriteShareGroupStateRequest, WriteShareGroupStateResponse
from .write_txn_markers import WriteTxnMarkersRequest, WriteTxnMarkersResponse

API_SPECS: Final[Mapping[int, ApiSpec]] = MappingProxyType(
    {
        0: ApiSpec(0, 'Produce', ProduceRequest, ProduceResponse, 0, 11, 9, 9, False),
        1: ApiSpec(1, 'Fetch', FetchRequest, FetchResponse, 0, 17, 12, 12, False),
        2: ApiSpec(2, 'ListOffsets', ListOffsetsRequest, ListOffsetsResponse, 0, 10, 6, 6, False),
        3: ApiSpec(3, 'Metadata', MetadataRequest, MetadataResponse, 0, 12, 9, 9, False),
        4: ApiSpec(4, 'LeaderAndIsr', LeaderAndIsrRequest, LeaderAndIsrResponse, 0, 7, 4, 4, False),
        5: ApiSpec(5, 'StopReplica', StopReplicaRequest, StopReplicaResponse, 0, 4, 2, 2, False),
        6: ApiSpec(6, 'UpdateMetadata', UpdateMetadataRequest, UpdateMetadataResponse, 0, 8, 6, 6, False),
        7: ApiSpec(7, 'ControlledShutdown', ControlledShutdownRequest, ControlledShutdownResponse, 0, 3, 3, 3, False),
        8: ApiSpec(8, 'OffsetCommit', OffsetCommitRequest, OffsetCommitResponse, 0, 9, 8, 8, False),
        9: ApiSpec(9, 'OffsetFetch', OffsetFetchRequest, OffsetFetchResponse, 0, 9, 6, 6, False),
        10: ApiSpec(10, 'FindCoordinator', FindCoordinatorRequest, FindCoordinatorResponse, 0, 6, 3, 3, False),
        11: ApiSpec(11, 'JoinGroup', JoinGroupRequest, JoinGroupResponse, 0, 9, 6, 6, False),
        12: ApiSpec(12, 'Heartbeat', HeartbeatRequest, HeartbeatResponse, 0, 4, 4, 4, False),
        13: ApiSpec(13, 'LeaveGroup', LeaveGroupRequest, LeaveGroupResponse, 0, 5, 4, 4, False),
        14: ApiSpec(14, 'SyncGroup', SyncGroupRequest, SyncGroupResponse, 0, 5, 4, 4, False),
        15: ApiSpec(15, 'DescribeGroups', DescribeGroupsRequest, DescribeGroupsResponse, 0, 5, 5, 5, False),
        16: ApiSpec(16, 'ListGroups', ListGroupsRequest, ListGroupsResponse, 0, 5, 3, 3, False),
        17: ApiSpec(17, 'SaslHandshake', SaslHandshakeRequest, SaslHandshakeResponse, 0, 1, None, None, False),
        18: ApiSpec(18, 'ApiVersions', ApiVersionsRequest, ApiVersionsResponse, 0, 4, 3, 3, False),
        19: ApiSpec(19, 'CreateTopics', CreateTopicsRequest, CreateTopicsResponse, 0, 7, 5, 5, False),
        20: ApiSpec(20, 'DeleteTopics', DeleteTopicsRequest, DeleteTopicsResponse, 0, 6, 4, 4, False),
        21: ApiSpec(21, 'DeleteRecords', DeleteRecordsRequest, DeleteRecordsResponse, 0, 2, 2, 2, False),
        22: ApiSpec(22, 'InitProducerId', InitProducerIdRequest, InitProducerIdResponse, 0, 5, 2, 2, False),
        23: ApiSpec(23, 'OffsetForLeaderEpoch', OffsetForLeaderEpochRequest, OffsetForLeaderEpochResponse, 0, 4, 4, 4, False),
        24: ApiSpec(24, 'AddPartitionsToTxn', AddPartitionsToTxnRequest, AddPartitionsToTxnResponse, 0, 5, 3, 3, False),
        25: ApiSpec(25, 'AddOffsetsToTxn', AddOffsetsToTxnRequest, AddOffsetsToTxnResponse, 0, 4, 3, 3, False),
        26: ApiSpec(26, 'EndTxn', EndTxnRequest, EndTxnResponse, 0, 5, 3, 3, True),
        27: ApiSpec(27, 'WriteTxnMarkers', WriteTxnMarkersRequest, WriteTxnMarkersResponse, 0, 1, 1, 1, False),
        28: ApiSpec(28, 'TxnOffsetCommit', TxnOffsetCommitRequest, TxnOffsetCommitResponse, 0, 4, 3, 3, False),
        29: ApiSpec(29, 'DescribeAcls', DescribeAclsRequest, DescribeAclsResponse, 0, 3, 2, 2, False),
        30: ApiSpec(30, 'CreateAcls', CreateAclsRequest, CreateAclsResponse, 0, 3, 2, 2, False),
        31: ApiSpec(31, 'DeleteAcls', DeleteAclsRequest, DeleteAclsResponse, 0, 3, 2, 2, False),
        32: ApiSpec(32, 'DescribeConfigs', DescribeConfigsRequest, DescribeConfigsResponse, 0, 4, 4, 4, False),
        33: ApiSpec(33, 'AlterConfigs', AlterConfigsRequest, AlterConfigsResponse, 0, 2, 2, 2, False),
        34: ApiSpec(34, 'AlterReplicaLogDirs', AlterReplicaLogDirsRequest, AlterReplicaLogDirsResponse, 0, 2, 2, 2, False),
        35: ApiSpec(35, 'DescribeLogDirs', DescribeLogDirsRequest, DescribeLogDirsResponse, 0, 4, 2, 2, False),
        36: ApiSpec(36, 'SaslAuthenticate', SaslAuthenticateRequest, SaslAuthenticateResponse, 0, 2, 2, 2, False),
        37: ApiSpec(37, 'CreatePartitions', CreatePartitionsRequest, CreatePartitionsResponse, 0, 3, 2, 2, False),
        38: ApiSpec(38, 'CreateDelegationToken', CreateDelegationTokenRequest, CreateDelegationTokenResponse, 0, 3, 2, 2, False),
        39: ApiSpec(39, 'RenewDelegationToken', RenewDelegationTokenRequest, RenewDelegationTokenResponse, 0, 2, 2, 2, False),
        40: ApiSpec(40, 'ExpireDelegationToken', ExpireDelegationTokenRequest, ExpireDelegationTokenResponse, 0, 2, 2, 2, False),
        41: ApiSpec(41, 'DescribeDelegationToken', DescribeDelegationTokenRequest, DescribeDelegationTokenResponse, 0, 3, 2, 2, False),
        42: ApiSpec(42, 'DeleteGroups', DeleteGroupsRequest, DeleteGroupsResponse, 0, 2, 2, 2, False),
        43: ApiSpec(43, 'ElectLeaders', ElectLeadersRequest, ElectLeadersResponse, 0, 2, 2, 2, False),
        44: ApiSpec(44, 'IncrementalAlterConfigs', IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse, 0, 1, 1, 1, False),
        45: ApiSpec(45, 'AlterPartitionReassignments', AlterPartitionReassignmentsRequest, AlterPartitionReassignmentsResponse, 0, 0, 0, 0, False),
        46: ApiSpec(46, 'ListPartitionReassignments', ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse, 0, 0, 0, 0, False),
        47: ApiSpec(47, 'OffsetDelete', OffsetDeleteRequest, OffsetDeleteResponse, 0, 0, None, None, False),
        48: ApiSpec(48, 'DescribeClientQuotas', DescribeClientQuotasRequest, DescribeClientQuotasResponse, 0, 1, 1, 1, False),
        49: ApiSpec(49, 'AlterClientQuotas', AlterClientQuotasRequest, AlterClientQuotasResponse, 0, 1, 1, 1, False),
        50: ApiSpec(50, 'DescribeUserScramCredentials', DescribeUserScramCredentialsRequest, DescribeUserScramCredentialsResponse, 0, 0, 0, 0, False),
        51: ApiSpec(51, 'AlterUserScramCredentials', AlterUserScramCredentialsRequest, AlterUserScramCredentialsResponse, 0, 0, 0, 0, False),
        52: ApiSpec(52, 'Vote', VoteRequest, VoteResponse, 0, 1, 0, 0, False),
        53: ApiSpec(53, 'BeginQuorumEpoch', BeginQuorumEpochRequest, BeginQuorumEpochResponse, 0, 1, 1, 1, False),
        54: ApiSpec(54, 'EndQuorumEpoch', EndQuorumEpochRequest, EndQuorumEpochResponse, 0, 1, 1, 1, False),
        55: ApiSpec(55, 'DescribeQuorum', DescribeQuorumRequest, DescribeQuorumResponse, 0, 2, 0, 0, False),
        56: ApiSpec(56, 'AlterPartition', AlterPartitionRequest, AlterPartitionResponse, 0, 3, 0, 0, False),
        57: ApiSpec(57, 'UpdateFeatures', UpdateFeaturesRequest, UpdateFeaturesResponse, 0, 2, 0, 0, False),
        58: ApiSpec(58, 'Envelope', EnvelopeRequest, EnvelopeResponse, 0, 0, 0, 0, False),
        59: ApiSpec(59, 'FetchSnapshot', FetchSnapshotRequest, FetchSnapshotResponse, 0, 1, 0, 0, False),
        60: ApiSpec(60, 'DescribeCluster', DescribeClusterRequest, DescribeClusterResponse, 0, 1, 0, 0, False),
        61: ApiSpec(61, 'DescribeProducers', DescribeProducersRequest, DescribeProducersResponse, 0, 0, 0, 0, False),
        62: ApiSpec(62, 'BrokerRegistration', BrokerRegistrationRequest, BrokerRegistrationResponse, 0, 4, 0, 0, False),
        63: ApiSpec(63, 'BrokerHeartbeat', BrokerHeartbeatRequest, BrokerHeartbeatResponse, 0, 1, 0, 0, False),
        64: ApiSpec(64, 'UnregisterBroker', UnregisterBrokerRequest, UnregisterBrokerResponse, 0, 0, 0, 0, False),
        65: ApiSpec(65, 'DescribeTransactions', DescribeTransactionsRequest, DescribeTransactionsResponse, 0, 0, 0, 0, False),
        66: ApiSpec(66, 'ListTransactions', ListTransactionsRequest, ListTransactionsResponse, 0, 1, 0, 0, False),
        67: ApiSpec(67, 'AllocateProducerIds', AllocateProducerIdsRequest, AllocateProducerIdsResponse, 0, 0, 0, 0, False),
        68: ApiSpec(68, 'ConsumerGroupHeartbeat', ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, 0, 1, 0, 0, True),
        69: ApiSpec(69, 'ConsumerGroupDescribe', ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, 0, 0, 0, 0, False),
        70: ApiSpec(70, 'ControllerRegistration', ControllerRegistrationRequest, ControllerRegistrationResponse, 0, 0, 0, 0, False),
        71: ApiSpec(71, 'GetTelemetrySubscriptions', GetTelemetrySubscriptionsRequest, GetTelemetrySubscriptionsResponse, 0, 0, 0, 0, False),
        72: ApiSpec(72, 'PushTelemetry', PushTelemetryRequest, PushTelemetryResponse, 0, 0, 0, 0, False),
        73: ApiSpec(73, 'AssignReplicasToDirs', AssignReplicasToDirsRequest, AssignReplicasToDirsResponse, 0, 0, 0, 0, False),
        74: ApiSpec(74, 'ListClientMetricsResources', ListClientMetricsResourcesRequest, ListClientMetricsResourcesResponse, 0, 0, 0, 0, False),
        75: ApiSpec(75, 'DescribeTopicPartitions', DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse, 0, 0, 0, 0, False),
        76: ApiSpec(76, 'ShareGroupHeartbeat', ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, 1, 1, 1, 1, False),
        77: ApiSpec(77, 'ShareGroupDescribe', ShareGroupDescribeRequest, ShareGroupDescribeResponse, 1, 1, 1, 1, False),
        78: ApiSpec(78, 'ShareFetch', ShareFetchRequest, ShareFetchResponse, 1, 2, 1, 1, False),
        79: ApiSpec(79, 'ShareAcknowledge', ShareAcknowledgeRequest, ShareAcknowledgeResponse, 1, 2, 1, 1, False),
        80: ApiSpec(80, 'AddRaftVoter', AddRaftVoterRequest, AddRaftVoterResponse, 0, 0, 0, 0, False),
        81: ApiSpec(81, 'RemoveRaftVoter', RemoveRaftVoterRequest, RemoveRaftVoterResponse, 0, 0, 0, 0, False),
        82: ApiSpec(82, 'UpdateRaftVoter', UpdateRaftVoterRequest, UpdateRaftVoterResponse, 0, 0, 0, 0, False),
        83: ApiSpec(83, 'InitializeShareGroupState', InitializeShareGroupStateRequest, InitializeShareGroupStateResponse, 0, 0, 0, 0, True),
        84: ApiSpec(84, 'ReadShareGroupState', ReadShareGroupStateRequest, ReadShareGroupStateResponse, 0, 0, 0, 0, True),
        85: ApiSpec(85, 'WriteShareGroupState', WriteShareGroupStateRequest, WriteShareGroupStateResponse, 0, 0, 0, 0, True),
        86: ApiSpec(86, 'DeleteShareGroupState', DeleteShareGroupStateRequest, DeleteShareGroupStateResponse, 0, 0, 0, 0, True),
        87: ApiSpec(87, 'ReadShareGroupStateSummary', ReadShareGroupStateSummaryRequest, ReadShareGroupStateSummaryResponse, 0, 0, 0, 0, True),
        90: ApiSpec(90, 'DescribeShareGroupOffsets', DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsResponse, 0, 0, 0, 0, False),
        91: ApiSpec(91, 'AlterShareGroupOffsets', AlterShareGroupOffsetsRequest, AlterShareGroupOffsetsResponse, 0, 0, 0, 0, False),
        92: ApiSpec(92, 'DeleteShareGroupOffsets', DeleteShareGroupOffsetsRequest, DeleteShareGroupOffsetsResponse, 0, 0, 0, 0, False),
    }
)


def api_spec(api_key: int) -> ApiSpec:
    """The spec of ``api_key``; :class:`UnknownApiKeyError` when the protocol has no such API."""
    try:
        return API_SPECS[api_key]
    except KeyError:
        raise UnknownApiKeyError(api_key) from None


__all__ = [
    "API_SPECS",
    "AddOffsetsToTxnRequest",
    "AddOffsetsToTxnResponse",
    "AddPartitionsToTxnRequest",
    "AddPartitionsToTxnResponse",
    "AddRaftVoterRequest",
    "AddRaftVoterResponse",
    "AllocateProducerIdsRequest",
    "AllocateProducerIdsResponse",
    "AlterClientQuotasRequest",
    "AlterClientQuotasResponse",
    "AlterConfigsRequest",
    "AlterConfigsResponse",
    "AlterPartitionReassignmentsRequest",
    "AlterPartitionReassignmentsResponse",
    "AlterPartitionRequest",
    "AlterPartitionResponse",
    "AlterReplicaLogDirsRequest",
    "AlterReplicaLogDirsResponse",
    "AlterShareGroupOffsetsRequest",
    "AlterShareGroupOffsetsResponse",
    "AlterUserScramCredentialsRequest",
    "AlterUserScramCredentialsResponse",
    "ApiVersionsRequest",
    "ApiVersionsResponse",
    "AssignReplicasToDirsRequest",
    "AssignReplicasToDirsResponse",
    "BeginQuorumEpochRequest",
    "BeginQuorumEpochResponse",
    "BrokerHeartbeatRequest",
    "BrokerHeartbeatResponse",
    "BrokerRegistrationRequest",
    "BrokerRegistrationResponse",
    "ConsumerGroupDescribeRequest",
    "ConsumerGroupDescribeResponse",
    "ConsumerGroupHeartbeatRequest",
    "ConsumerGroupHeartbeatResponse",
    "ControlledShutdownRequest",
    "ControlledShutdownResponse",
    "ControllerRegistrationRequest",
    "ControllerRegistrationResponse",
    "CreateAclsRequest",
    "CreateAclsResponse",
    "CreateDelegationTokenRequest",
    "CreateDelegationTokenResponse",
    "CreatePartitionsRequest",
    "CreatePartitionsResponse",
    "CreateTopicsRequest",
    "CreateTopicsResponse",
    "DeleteAclsRequest",
    "DeleteAclsResponse",
    "DeleteGroupsRequest",
    "DeleteGroupsResponse",
    "DeleteRecordsRequest",
    "DeleteRecordsResponse",
    "DeleteShareGroupOffsetsRequest",
    "DeleteShareGroupOffsetsResponse",
    "DeleteShareGroupStateRequest",
    "DeleteShareGroupStateResponse",
    "DeleteTopicsRequest",
    "DeleteTopicsResponse",
    "DescribeAclsRequest",
    "DescribeAclsResponse",
    "DescribeClientQuotasRequest",
    "DescribeClientQuotasResponse",
    "DescribeClusterRequest",
    "DescribeClusterResponse",
    "DescribeConfigsRequest",
    "DescribeConfigsResponse",
    "DescribeDelegationTokenRequest",
    "DescribeDelegationTokenResponse",
    "DescribeGroupsRequest",
    "DescribeGroupsResponse",
    "DescribeLogDirsRequest",
    "DescribeLogDirsResponse",
    "DescribeProducersRequest",
    "DescribeProducersResponse",
    "DescribeQuorumRequest",
    "DescribeQuorumResponse",
    "DescribeShareGroupOffsetsRequest",
    "DescribeShareGroupOffsetsResponse",
    "DescribeTopicPartitionsRequest",
    "DescribeTopicPartitionsResponse",
    "DescribeTransactionsRequest",
    "DescribeTransactionsResponse",
    "DescribeUserScramCredentialsRequest",
    "DescribeUserScramCredentialsResponse",
    "ElectLeadersRequest",
    "ElectLeadersResponse",
    "EndQuorumEpochRequest",
    "EndQuorumEpochResponse",
    "EndTxnRequest",
    "EndTxnResponse",
    "EnvelopeRequest",
    "EnvelopeResponse",
    "ExpireDelegationTokenRequest",
    "ExpireDelegationTokenResponse",
    "FetchRequest",
    "FetchResponse",
    "FetchSnapshotRequest",
    "FetchSnapshotResponse",
    "FindCoordinatorRequest",
    "FindCoordinatorResponse",
    "GetTelemetrySubscriptionsRequest",
    "GetTelemetrySubscriptionsResponse",
    "HeartbeatRequest",
    "HeartbeatResponse",
    "IncrementalAlterConfigsRequest",
    "IncrementalAlterConfigsResponse",
    "InitProducerIdRequest",
    "InitProducerIdResponse",
    "InitializeShareGroupStateRequest",
    "InitializeShareGroupStateResponse",
    "JoinGroupRequest",
    "JoinGroupResponse",
    "LeaderAndIsrRequest",
    "LeaderAndIsrResponse",
    "LeaveGroupRequest",
    "LeaveGroupResponse",
    "ListClientMetricsResourcesRequest",
    "ListClientMetricsResourcesResponse",
    "ListGroupsRequest",
    "ListGroupsResponse",
    "ListOffsetsRequest",
    "ListOffsetsResponse",
    "ListPartitionReassignmentsRequest",
    "ListPartitionReassignmentsResponse",
    "ListTransactionsRequest",
    "ListTransactionsResponse",
    "MetadataRequest",
    "MetadataResponse",
    "OffsetCommitRequest",
    "OffsetCommitResponse",
    "OffsetDeleteRequest",
    "OffsetDeleteResponse",
    "OffsetFetchRequest",
    "OffsetFetchResponse",
    "OffsetForLeaderEpochRequest",
    "OffsetForLeaderEpochResponse",
    "ProduceRequest",
    "ProduceResponse",
    "PushTelemetryRequest",
    "PushTelemetryResponse",
    "ReadShareGroupStateRequest",
    "ReadShareGroupStateResponse",
    "ReadShareGroupStateSummaryRequest",
    "ReadShareGroupStateSummaryResponse",
    "RemoveRaftVoterRequest",
    "RemoveRaftVoterResponse",
    "RenewDelegationTokenRequest",
    "RenewDelegationTokenResponse",
    "SaslAuthenticateRequest",
    "SaslAuthenticateResponse",
    "SaslHandshakeRequest",
    "SaslHandshakeResponse",
    "ShareAcknowledgeRequest",
    "ShareAcknowledgeResponse",
    "ShareFetchRequest",
    "ShareFetchResponse",
    "ShareGroupDescribeRequest",
    "ShareGroupDescribeResponse",
    "ShareGroupHeartbeatRequest",
    "ShareGroupHeartbeatResponse",
    "StopReplicaRequest",
    "StopReplicaResponse",
    "SyncGroupRequest",
    "SyncGroupResponse",
    "TxnOffsetCommitRequest",
    "TxnOffsetCommitResponse",
    "UnregisterBrokerRequest",
    "UnregisterBrokerResponse",
    "UpdateFeaturesRequest",
    "UpdateFeaturesResponse",
    "UpdateMetadataRequest",
    "UpdateMetadataResponse",
    "UpdateRaftVoterRequest",
    "UpdateRaftVoterResponse",
    "VoteRequest",
    "VoteResponse",
    "WriteShareGroupStateRequest",
    "WriteShareGroupStateResponse",
    "WriteTxnMarkersRequest",
    "WriteTxnMarkersResponse",
    "api_spec",
]
