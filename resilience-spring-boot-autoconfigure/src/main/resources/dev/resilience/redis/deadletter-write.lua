-- Writes a dead letter as the newest, drops expired ones and evicts the oldest beyond the capacity.
-- KEYS[1] ids by write order (sorted set), KEYS[2] id -> JSON (hash), KEYS[3] write sequence,
-- KEYS[4] ids by expiry time in ms (sorted set)
-- ARGV[1] id, ARGV[2] JSON, ARGV[3] capacity, ARGV[4] now in ms, ARGV[5] ttl in ms, ARGV[6] most expired to drop
-- Every key expires ttl after the latest write, so that a store no longer written empties itself.
-- Returns how many dead letters were evicted beyond the capacity.
local now = tonumber(ARGV[4])
local expired = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now, 'LIMIT', 0, tonumber(ARGV[6]))
if #expired > 0 then
    redis.call('ZREM', KEYS[1], unpack(expired))
    redis.call('HDEL', KEYS[2], unpack(expired))
    redis.call('ZREM', KEYS[4], unpack(expired))
end
local sequence = redis.call('INCR', KEYS[3])
redis.call('ZADD', KEYS[1], sequence, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[4], now + tonumber(ARGV[5]), ARGV[1])
for i = 1, 4 do
    redis.call('PEXPIRE', KEYS[i], ARGV[5])
end
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if excess <= 0 then
    return 0
end
local evicted = redis.call('ZRANGE', KEYS[1], 0, excess - 1)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
for first = 1, #evicted, 1000 do
    local chunk = { unpack(evicted, first, math.min(first + 999, #evicted)) }
    redis.call('HDEL', KEYS[2], unpack(chunk))
    redis.call('ZREM', KEYS[4], unpack(chunk))
end
return excess
