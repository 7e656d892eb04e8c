-- Completes an IN_PROGRESS entry owned by the token; changes nothing otherwise.
-- KEYS[1] the entry hash; ARGV[1] owner token, ARGV[2] ttl (ms), ARGV[3] value JSON, ARGV[4] value type
-- Returns 1 if the entry is now COMPLETED, 0 otherwise.
local entry = redis.call('HMGET', KEYS[1], 'state', 'owner')
if entry[1] ~= 'IN_PROGRESS' or entry[2] ~= ARGV[1] then
    return 0
end
redis.call('HSET', KEYS[1], 'state', 'COMPLETED', 'value', ARGV[3], 'type', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
