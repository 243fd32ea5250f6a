// kafkago_old drives segmentio/kafka-go 0.2.1 (Debian's golang-github-segmentio-kafka-go-dev: Produce v2 and
// Fetch v2 with message format v1, consumer groups through JoinGroup v1) for compat_tests/test_clients_old_go.py.
//
//	kafkago_old produce BROKER TOPIC CODEC COUNT    writes the messages to partition 0, then "produced COUNT"
//	kafkago_old consume BROKER TOPIC GROUP COUNT    reads them in GROUP, committing each: "consumed OFFSET KEYHEX VALUEHEX"
//
// Message i is as in sarama_old (compat_tests/test_clients_old_versions.py's MESSAGES).
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	kafka "github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/gzip"
)

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func message(i int) kafka.Message {
	value := make([]byte, i*37%900)
	for j := range value {
		value[j] = byte(i % 256)
	}
	msg := kafka.Message{Value: value}
	if i%3 != 0 {
		msg.Key = []byte(fmt.Sprintf("key-%d", i))
	}
	return msg
}

func produce(broker, topic, codec string, count int) {
	config := kafka.WriterConfig{
		Brokers: []string{broker}, Topic: topic, RequiredAcks: 1, BatchSize: count, BatchTimeout: 10 * time.Millisecond,
		Balancer: kafka.BalancerFunc(func(kafka.Message, ...int) int { return 0 }),
	}
	if codec == "gzip" {
		config.CompressionCodec = gzip.NewCompressionCodec()
	}
	writer := kafka.NewWriter(config)
	defer writer.Close()
	messages := make([]kafka.Message, count)
	for i := range messages {
		messages[i] = message(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fail(writer.WriteMessages(ctx, messages...))
	fmt.Printf("produced %d\n", count)
}

func consume(broker, topic, group string, count int) {
	reader := kafka.NewReader(kafka.ReaderConfig{
		Brokers: []string{broker}, Topic: topic, GroupID: group, MinBytes: 1, MaxBytes: 1 << 20,
		MaxWait: 100 * time.Millisecond,
	})
	defer reader.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for seen := 0; seen < count; seen++ {
		msg, err := reader.FetchMessage(ctx)
		fail(err)
		fmt.Printf("consumed %d %x %x\n", msg.Offset, msg.Key, msg.Value)
		fail(reader.CommitMessages(ctx, msg))
	}
}

func main() {
	if len(os.Args) != 6 {
		fail(fmt.Errorf("usage: kafkago_old produce BROKER TOPIC CODEC COUNT | consume BROKER TOPIC GROUP COUNT"))
	}
	count, err := strconv.Atoi(os.Args[5])
	fail(err)
	switch os.Args[1] {
	case "produce":
		produce(os.Args[2], os.Args[3], os.Args[4], count)
	case "consume":
		consume(os.Args[2], os.Args[3], os.Args[4], count)
	default:
		fail(fmt.Errorf("unknown mode %q", os.Args[1]))
	}
}
