-- Ends a claim with the letter's work done: deletes the dead letter, and the claim if it is still this one.
-- KEYS[1] ids by write order (sorted set), KEYS[2] id -> JSON (hash), KEYS[3] ids by expiry time in ms (sorted set),
-- KEYS[4] the letter's claim (string)
-- ARGV[1] id, ARGV[2] now in ms, ARGV[3] the claim's token
-- Returns 1 if the letter was there and not expired, 0 otherwise.
if redis.call('GET', KEYS[4]) == ARGV[3] then
    redis.call('DEL', KEYS[4])
end
local expiry = redis.call('ZSCORE', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
if expiry and tonumber(expiry) <= tonumber(ARGV[2]) then
    return 0
end
return removed
