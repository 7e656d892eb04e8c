-- Writes a dead letter as the newest and evicts the oldest beyond the capacity.
-- KEYS[1] ids by write order (sorted set), KEYS[2] id -> JSON (hash), KEYS[3] write sequence
-- ARGV[1] id, ARGV[2] JSON, ARGV[3] capacity
-- Returns how many dead letters were evicted.
local sequence = redis.call('INCR', KEYS[3])
redis.call('ZADD', KEYS[1], sequence, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if excess <= 0 then
    return 0
end
local evicted = redis.call('ZRANGE', KEYS[1], 0, excess - 1)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
for first = 1, #evicted, 1000 do
    redis.call('HDEL', KEYS[2], unpack(evicted, first, math.min(first + 999, #evicted)))
end
return excess
