-- Counts the dead letters not expired.
-- KEYS[1] ids by write order (sorted set), KEYS[2] ids by expiry time in ms (sorted set); ARGV[1] now in ms
return redis.call('ZCARD', KEYS[1]) - redis.call('ZCOUNT', KEYS[2], '-inf', ARGV[1])
