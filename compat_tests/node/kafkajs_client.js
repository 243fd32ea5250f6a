// Drives kafkajs against a broker for compat_tests.
//
// Server mode (no arguments): reads one JSON command per line on stdin and writes one JSON line per
// command on stdout, {"ok": result} or {"error": message}, so one Node process serves a whole test module.
// One-shot mode: `node kafkajs_client.js '<json command>'` prints the result and exits 0 (1 on error).
//
// Bytes travel as base64 strings (null stays null). Commands, each with "bootstrap":
//   produce     {topic, acks, codec, messages:[{key, value, headers:[[name, value]], partition, timestamp}]}
//               (optional producer: kafkajs producer options, e.g. {idempotent: true})
//               -> {offsets: [offset per message]} ([] for acks 0)
//   listOffsets {topic, partition, at: "earliest" | "latest" | <timestamp ms>} -> {offset}
//   fetch       {topic, partition, offset, count, isolationLevel, maxWaitMs, timeoutMs}
//               -> {records: [{offset, key, value, headers, timestamp}]}
//   metadata    {topics} -> {topics: [{name, partitions}]}
// `fetch` is the consumer's own path without a group (kafkajs consumers always join one): the
// cluster's leader lookup and the broker's Fetch request with kafkajs's record batch decoder;
// records below the fetch offset (start of a batch) are dropped, as kafkajs's consumer does.
'use strict';
const readline = require('readline');
const { Kafka, CompressionTypes, logLevel } = require('kafkajs');

const b64 = (buf) => (buf === null || buf === undefined ? null : Buffer.from(buf).toString('base64'));
const unb64 = (text) => (text === null || text === undefined ? null : Buffer.from(text, 'base64'));
const CODECS = { none: CompressionTypes.None, gzip: CompressionTypes.GZIP };
const clients = new Map();

function kafkaFor(bootstrap) {
  if (!clients.has(bootstrap)) {
    clients.set(
      bootstrap,
      new Kafka({
        clientId: 'rockafka-compat',
        brokers: [bootstrap],
        logLevel: logLevel.NOTHING,
        retry: { retries: 8, initialRetryTime: 100, maxRetryTime: 1000 },
      }),
    );
  }
  return clients.get(bootstrap);
}

function kafkaHeaders(pairs) {
  // kafkajs sends an array value as repeated headers, in order.
  const headers = {};
  for (const [name, value] of pairs || []) {
    if (name in headers) headers[name] = [].concat(headers[name], unb64(value));
    else headers[name] = unb64(value);
  }
  return headers;
}

function headerPairs(headers) {
  const pairs = [];
  for (const [name, value] of Object.entries(headers || {})) {
    for (const item of Array.isArray(value) ? value : [value]) pairs.push([name, b64(item)]);
  }
  return pairs;
}

async function produce(kafka, cmd) {
  const producer = kafka.producer({ allowAutoTopicCreation: true, ...(cmd.producer || {}) });
  await producer.connect();
  try {
    const result = await producer.send({
      topic: cmd.topic,
      acks: cmd.acks,
      compression: CODECS[cmd.codec || 'none'],
      messages: cmd.messages.map((m) => ({
        key: unb64(m.key),
        value: unb64(m.value),
        partition: m.partition || 0,
        headers: kafkaHeaders(m.headers),
        timestamp: m.timestamp === null || m.timestamp === undefined ? undefined : String(m.timestamp),
      })),
    });
    if (cmd.acks === 0) return { offsets: [] };
    const next = new Map(result.map((r) => [r.partition, Number(r.baseOffset)]));
    return {
      offsets: cmd.messages.map((m) => {
        const partition = m.partition || 0;
        const offset = next.get(partition);
        next.set(partition, offset + 1);
        return offset;
      }),
    };
  } finally {
    await producer.disconnect();
  }
}

async function listOffsets(kafka, cmd) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    let rows;
    if (cmd.at === 'earliest' || cmd.at === 'latest') {
      rows = await admin.fetchTopicOffsets(cmd.topic);
      const row = rows.find((r) => r.partition === cmd.partition);
      return { offset: Number(cmd.at === 'earliest' ? row.low : row.high) };
    }
    rows = await admin.fetchTopicOffsetsByTimestamp(cmd.topic, cmd.at);
    const row = rows.find((r) => r.partition === cmd.partition);
    return { offset: Number(row.offset) };
  } finally {
    await admin.disconnect();
  }
}

function createCluster(kafka) {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  return kafka[symbol]({ allowAutoTopicCreation: false });
}

async function fetch(kafka, cmd) {
  const cluster = createCluster(kafka);
  await cluster.connect();
  try {
    await cluster.addTargetTopic(cmd.topic);
    const leaders = cluster.findLeaderForPartitions(cmd.topic, [cmd.partition]);
    const broker = await cluster.findBroker({ nodeId: Object.keys(leaders)[0] });
    const records = [];
    let offset = cmd.offset;
    const deadline = Date.now() + (cmd.timeoutMs || 20000);
    while (records.length < cmd.count && Date.now() < deadline) {
      const response = await broker.fetch({
        replicaId: -1,
        isolationLevel: cmd.isolationLevel === undefined ? 1 : cmd.isolationLevel,
        maxWaitTime: cmd.maxWaitMs || 200,
        minBytes: 1,
        maxBytes: 10485760,
        topics: [{ topic: cmd.topic, partitions: [{ partition: cmd.partition, fetchOffset: String(offset), maxBytes: 1048576 }] }],
      });
      const part = response.responses[0].partitions[0];
      if (part.errorCode !== 0) throw new Error(`fetch error code ${part.errorCode}`);
      for (const message of part.messages) {
        if (Number(message.offset) < offset || message.isControlRecord) continue;
        records.push({
          offset: Number(message.offset),
          key: b64(message.key),
          value: b64(message.value),
          timestamp: Number(message.timestamp),
          headers: headerPairs(message.headers),
        });
      }
      if (records.length) offset = records[records.length - 1].offset + 1;
    }
    return { records };
  } finally {
    await cluster.disconnect();
  }
}

async function metadata(kafka, cmd) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const result = await admin.fetchTopicMetadata({ topics: cmd.topics });
    return { topics: result.topics.map((t) => ({ name: t.name, partitions: t.partitions.length })) };
  } finally {
    await admin.disconnect();
  }
}

const COMMANDS = { produce, listOffsets, fetch, metadata };

async function run(line) {
  const cmd = JSON.parse(line);
  const handler = COMMANDS[cmd.command];
  if (!handler) throw new Error(`unknown command ${cmd.command}`);
  return handler(kafkaFor(cmd.bootstrap), cmd);
}

function describe(err) {
  return String(err && err.stack ? err.stack : err);
}

async function serve() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let reply;
    try {
      reply = { ok: await run(line) };
    } catch (err) {
      reply = { error: describe(err) };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
}

if (process.argv.length > 2) {
  run(process.argv[2]).then(
    (result) => {
      process.stdout.write(JSON.stringify(result));
      process.exit(0);
    },
    (err) => {
      process.stderr.write(describe(err));
      process.exit(1);
    },
  );
} else {
  serve().then(() => process.exit(0));
}
