-- Deletes a dead letter.
-- KEYS[1] ids by write order (sorted set), KEYS[2] id -> JSON (hash); ARGV[1] id
-- Returns 1 if it was there, 0 otherwise.
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
