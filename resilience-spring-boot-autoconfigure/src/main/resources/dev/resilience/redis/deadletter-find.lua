-- Returns the JSON of a dead letter unless it is unknown or expired.
-- KEYS[1] id -> JSON (hash), KEYS[2] ids by expiry time in ms (sorted set); ARGV[1] id, ARGV[2] now in ms
local expiry = redis.call('ZSCORE', KEYS[2], ARGV[1])
if expiry and tonumber(expiry) <= tonumber(ARGV[2]) then
    return false
end
return redis.call('HGET', KEYS[1], ARGV[1])
