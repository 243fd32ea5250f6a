// One kafkajs group consumer for compat_tests/groupscenario.py: the same JSON-lines protocol as
// compat_tests/groupworker.py. argv[2]: {bootstrap, topic, group, session_timeout_ms, heartbeat_interval_ms,
// rebalance_timeout_ms, fetch_max_wait_ms (optional)}. Events: assigned, records, committed, commit_failed,
// closed. SIGTERM: leave the group.
'use strict';
const { Kafka, logLevel } = require('kafkajs');

const settings = JSON.parse(process.argv[2]);
const emit = (event, fields) => process.stdout.write(JSON.stringify({ event, ...fields }) + '\n');

async function main() {
  const kafka = new Kafka({ clientId: 'groups-worker', brokers: [settings.bootstrap], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({
    groupId: settings.group,
    sessionTimeout: settings.session_timeout_ms,
    heartbeatInterval: settings.heartbeat_interval_ms,
    rebalanceTimeout: settings.rebalance_timeout_ms || 10000,
    maxWaitTimeInMs: settings.fetch_max_wait_ms || 200,
  });
  consumer.on(consumer.events.REBALANCING, () => emit('assigned', { partitions: [] }));
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    const partitions = (e.payload.memberAssignment[settings.topic] || []).slice().sort((a, b) => a - b);
    emit('assigned', { partitions });
  });
  let stopping = false;
  process.on('SIGTERM', async () => {
    if (stopping) return;
    stopping = true;
    await consumer.disconnect();
    emit('closed', {});
    process.exit(0);
  });
  await consumer.connect();
  await consumer.subscribe({ topic: settings.topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => {
      if (batch.messages.length === 0) return;
      emit('records', {
        items: batch.messages.map((m) => [batch.partition, Number(m.offset), m.value.toString()]),
      });
      const next = String(Number(batch.messages[batch.messages.length - 1].offset) + 1);
      try {
        await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next }]);
        emit('committed', { offsets: { [String(batch.partition)]: Number(next) } });
      } catch (err) {
        emit('commit_failed', { error: String(err) });
        throw err; // kafkajs rejoins on rebalance errors
      }
    },
  });
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n');
  process.exit(1);
});
