// sarama_old drives Shopify/sarama 1.22 (Debian's golang-github-shopify-sarama-dev) for
// compat_tests/test_clients_old_go.py: produce, consume or commit at a pinned Kafka version.
//
//	sarama_old produce BROKER TOPIC VERSION CODEC COUNT   one line "produced OFFSET" per message
//	sarama_old consume BROKER TOPIC VERSION COUNT         one line "consumed OFFSET KEYHEX VALUEHEX" per message
//	sarama_old commit  BROKER TOPIC VERSION GROUP OFFSET  commits OFFSET for partition 0, then "committed N" as read back
//
// VERSION "default" keeps sarama's own default (Kafka 0.8.2 in 1.22). Message i has key "key-i" (none when
// i%3 == 0) and a value of i*37%900 bytes, each byte i%256: compat_tests/test_clients_old_versions.py's MESSAGES.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/Shopify/sarama"
)

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func config(version string) *sarama.Config {
	cfg := sarama.NewConfig()
	if version != "default" {
		v, err := sarama.ParseKafkaVersion(version)
		fail(err)
		cfg.Version = v
	}
	cfg.Producer.Return.Successes = true
	cfg.Producer.RequiredAcks = sarama.WaitForLocal
	cfg.Producer.Partitioner = sarama.NewManualPartitioner
	cfg.Metadata.Retry.Max = 20
	cfg.Metadata.Retry.Backoff = 100 * time.Millisecond
	return cfg
}

func message(topic string, i int) *sarama.ProducerMessage {
	value := make([]byte, i*37%900)
	for j := range value {
		value[j] = byte(i % 256)
	}
	msg := &sarama.ProducerMessage{Topic: topic, Partition: 0, Value: sarama.ByteEncoder(value)}
	if i%3 != 0 {
		msg.Key = sarama.StringEncoder(fmt.Sprintf("key-%d", i))
	}
	return msg
}

func produce(broker, topic, version, codec string, count int) {
	cfg := config(version)
	codecs := map[string]sarama.CompressionCodec{"none": sarama.CompressionNone, "gzip": sarama.CompressionGZIP,
		"snappy": sarama.CompressionSnappy, "lz4": sarama.CompressionLZ4}
	cfg.Producer.Compression = codecs[codec]
	producer, err := sarama.NewSyncProducer([]string{broker}, cfg)
	fail(err)
	defer producer.Close()
	for i := 0; i < count; i++ {
		_, offset, err := producer.SendMessage(message(topic, i))
		fail(err)
		fmt.Printf("produced %d\n", offset)
	}
}

func consume(broker, topic, version string, count int) {
	consumer, err := sarama.NewConsumer([]string{broker}, config(version))
	fail(err)
	defer consumer.Close()
	partition, err := consumer.ConsumePartition(topic, 0, sarama.OffsetOldest)
	fail(err)
	defer partition.Close()
	for seen := 0; seen < count; seen++ {
		select {
		case msg := <-partition.Messages():
			fmt.Printf("consumed %d %x %x\n", msg.Offset, msg.Key, msg.Value)
		case err := <-partition.Errors():
			fail(err)
		case <-time.After(20 * time.Second):
			fail(fmt.Errorf("only %d of %d messages within 20 s", seen, count))
		}
	}
}

func commit(broker, topic, version, group string, offset int64) {
	client, err := sarama.NewClient([]string{broker}, config(version))
	fail(err)
	manager, err := sarama.NewOffsetManagerFromClient(group, client)
	fail(err)
	partition, err := manager.ManagePartition(topic, 0)
	fail(err)
	partition.MarkOffset(offset, "")
	fail(partition.Close())
	fail(manager.Close())
	fail(client.Close())
	client, err = sarama.NewClient([]string{broker}, config(version))
	fail(err)
	defer client.Close()
	manager, err = sarama.NewOffsetManagerFromClient(group, client)
	fail(err)
	defer manager.Close()
	partition, err = manager.ManagePartition(topic, 0)
	fail(err)
	defer partition.Close()
	next, _ := partition.NextOffset()
	fmt.Printf("committed %d\n", next)
}

func main() {
	if len(os.Args) < 6 {
		fail(fmt.Errorf("usage: sarama_old produce|consume|commit BROKER TOPIC VERSION ..."))
	}
	mode, broker, topic, version := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	switch mode {
	case "produce":
		count, err := strconv.Atoi(os.Args[6])
		fail(err)
		produce(broker, topic, version, os.Args[5], count)
	case "consume":
		count, err := strconv.Atoi(os.Args[5])
		fail(err)
		consume(broker, topic, version, count)
	case "commit":
		offset, err := strconv.ParseInt(os.Args[6], 10, 64)
		fail(err)
		commit(broker, topic, version, os.Args[5], offset)
	default:
		fail(fmt.Errorf("unknown mode %q", mode))
	}
}
