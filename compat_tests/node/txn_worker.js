// One consume-transform-produce worker with kafkajs, for the exactly-once scenarios (see
// compat_tests/txnworker.py, which does the same with aiokafka and confluent-kafka).
//
// `node txn_worker.js '<json settings>'`: subscribes to the input topic in a group (read_committed), and for
// every `batch` records of each fetched batch begins a transaction, sends every record's value prefixed with "T:" (same key) to the
// output topic, adds the consumed offsets (sendOffsets) and commits; every `abort_every`-th transaction it
// aborts instead and seeks back to the batch's first offset. It stops once the group's committed offsets
// reach the input's end offsets. `crash_after` (committed transactions, or null): after that many it sends
// one more transaction's records and kills itself (SIGKILL), leaving the transaction open.
// Events on stdout, one JSON line each: {"event": "committed"|"aborted"|"crashing", "count": n}, {"event": "done"}.
'use strict';
const { Kafka, logLevel } = require('kafkajs');

const settings = JSON.parse(process.argv[2]);
const PREFIX = Buffer.from('T:');
const emit = (event, fields) => process.stdout.write(JSON.stringify({ event, ...fields }) + '\n');

async function main() {
  const kafka = new Kafka({
    clientId: 'rockafka-txn-worker',
    brokers: [settings.bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 100, maxRetryTime: 1000 },
  });
  const admin = kafka.admin();
  const producer = kafka.producer({
    transactionalId: settings.transactional_id,
    idempotent: true,
    maxInFlightRequests: 1,
    transactionTimeout: settings.transaction_timeout_ms,
  });
  const consumer = kafka.consumer({
    groupId: settings.group,
    readUncommitted: false,
    sessionTimeout: 6000,
    heartbeatInterval: 500,
    rebalanceTimeout: 10000,
  });
  await admin.connect();
  await producer.connect();
  await consumer.connect();
  const ends = new Map((await admin.fetchTopicOffsets(settings.input)).map((p) => [p.partition, BigInt(p.high)]));
  const positions = new Map([...ends.keys()].map((p) => [p, 0n]));
  const [committedAt] = await admin.fetchOffsets({ groupId: settings.group, topics: [settings.input] });
  for (const { partition, offset } of committedAt.partitions) {
    if (BigInt(offset) >= 0n) positions.set(partition, BigInt(offset));
  }
  const finished = () => [...ends].every(([p, end]) => positions.get(p) >= end);
  let committed = 0;
  let transactions = 0;
  let resolveDone;
  const done = new Promise((resolve) => {
    resolveDone = resolve;
  });
  if (finished()) resolveDone();

  // One transaction over `records`; false when it was aborted (and the consumer sought back).
  async function transform(batch, records) {
    transactions += 1;
    const txn = await producer.transaction();
    await txn.send({
      topic: settings.output,
      messages: records.map((m) => ({ key: m.key, value: Buffer.concat([PREFIX, m.value]) })),
    });
    if (settings.crash_after !== null && committed === settings.crash_after) {
      emit('crashing', { count: records.length });
      process.kill(process.pid, 'SIGKILL');
    }
    const next = BigInt(records[records.length - 1].offset) + 1n;
    await txn.sendOffsets({
      consumerGroupId: settings.group,
      topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: next.toString() }] }],
    });
    if (settings.abort_every && transactions % settings.abort_every === 0) {
      await txn.abort();
      consumer.seek({ topic: batch.topic, partition: batch.partition, offset: records[0].offset });
      emit('aborted', { count: records.length });
      return false;
    }
    await txn.commit();
    committed += 1;
    positions.set(batch.partition, next);
    emit('committed', { count: records.length });
    if (finished()) resolveDone();
    return true;
  }

  await consumer.subscribe({ topic: settings.input, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset }) => {
      for (let at = 0; at < batch.messages.length && !finished(); at += settings.batch) {
        const records = batch.messages.slice(at, at + settings.batch);
        if (!(await transform(batch, records))) return; // aborted: sought back to its first record
        resolveOffset(records[records.length - 1].offset);
      }
    },
  });
  await done;
  emit('done', {});
  await consumer.disconnect();
  await producer.disconnect();
  await admin.disconnect();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(String((error && error.stack) || error) + '\n');
    process.exit(1);
  },
);
