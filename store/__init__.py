"""The message store: CommitLog, ConsumeQueue, IndexFile and broker-held offsets, behind MessageStore."""
