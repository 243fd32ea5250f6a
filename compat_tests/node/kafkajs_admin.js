// Drives the kafkajs admin client for compat_tests/test_admin_kafkajs.py.
// argv[2] is JSON: {bootstrap, steps: [{op, args}]}. Each step calls admin[op](args) (or `produce`:
// {topic, messages:[{partition, value}]} through a producer) and records {result} or {error}; stdout gets
// the JSON list of outcomes, in step order. Errors keep kafkajs's name, type, code and message, and the
// per-item errors of an aggregate error.
'use strict';
const { Kafka, logLevel } = require('kafkajs');

function describeError(err) {
  const shape = { name: err.name, type: err.type || null, code: err.code === undefined ? null : err.code, message: err.message };
  if (Array.isArray(err.errors)) shape.errors = err.errors.map(describeError);
  return shape;
}

async function produce(kafka, args) {
  const producer = kafka.producer();
  await producer.connect();
  try {
    return await producer.send({ topic: args.topic, acks: 1, messages: args.messages });
  } finally {
    await producer.disconnect();
  }
}

async function main() {
  const command = JSON.parse(process.argv[2]);
  const kafka = new Kafka({
    clientId: 'rockafka-admin-tests',
    brokers: [command.bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { retries: 2, initialRetryTime: 100 },
  });
  const admin = kafka.admin();
  await admin.connect();
  const outcomes = [];
  try {
    for (const step of command.steps) {
      try {
        const result = step.op === 'produce' ? await produce(kafka, step.args) : await admin[step.op](step.args);
        outcomes.push({ result: result === undefined ? null : result });
      } catch (err) {
        outcomes.push({ error: describeError(err) });
      }
    }
  } finally {
    await admin.disconnect();
  }
  return JSON.stringify(outcomes);
}

// process.exit() right after a large write to a pipe would cut it off at 64 KiB: exit once it is flushed.
main().then(
  (output) => process.stdout.write(output, () => process.exit(0)),
  (err) => {
    process.stderr.write(String(err && err.stack ? err.stack : err));
    process.exit(1);
  },
);
