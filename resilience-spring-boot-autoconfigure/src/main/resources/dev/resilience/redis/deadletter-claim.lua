-- Claims a dead letter for a re-run unless it is unknown, expired or claimed already.
-- KEYS[1] id -> JSON (hash), KEYS[2] ids by expiry time in ms (sorted set), KEYS[3] the letter's claim (string)
-- ARGV[1] id, ARGV[2] now in ms, ARGV[3] the claim's token, ARGV[4] the lease in ms
-- Returns the letter's JSON when claimed, false otherwise.
local expiry = redis.call('ZSCORE', KEYS[2], ARGV[1])
if expiry and tonumber(expiry) <= tonumber(ARGV[2]) then
    return false
end
local body = redis.call('HGET', KEYS[1], ARGV[1])
if not body then
    return false
end
if not redis.call('SET', KEYS[3], ARGV[3], 'NX', 'PX', ARGV[4]) then
    return false
end
return body
