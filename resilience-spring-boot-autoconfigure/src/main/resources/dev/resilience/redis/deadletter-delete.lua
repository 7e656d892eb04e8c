-- Deletes a dead letter.
-- KEYS[1] ids by write order (sorted set), KEYS[2] id -> JSON (hash), KEYS[3] ids by expiry time in ms (sorted set)
-- ARGV[1] id, ARGV[2] now in ms
-- Returns 1 if it was there and not expired, 0 otherwise.
local expiry = redis.call('ZSCORE', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
if expiry and tonumber(expiry) <= tonumber(ARGV[2]) then
    return 0
end
return removed
