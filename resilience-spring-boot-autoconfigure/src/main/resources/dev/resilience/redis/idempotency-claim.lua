-- Claims an idempotency key, or reports who holds it.
-- KEYS[1] the entry hash; ARGV[1] fingerprint, ARGV[2] new owner token, ARGV[3] lease (ms)
-- Returns {'ACQUIRED'} | {'COMPLETED', json, type} | {'IN_PROGRESS', leaseMillisLeft} | {'MISMATCH'}
-- An expired lease or ttl is the key's own expiry: Redis has already removed such an entry.
local entry = redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'value', 'type')
if entry[1] == 'COMPLETED' or entry[1] == 'IN_PROGRESS' then
    if entry[2] ~= ARGV[1] then
        return {'MISMATCH'}
    end
    if entry[1] == 'COMPLETED' then
        return {'COMPLETED', entry[3], entry[4]}
    end
    return {'IN_PROGRESS', tostring(redis.call('PTTL', KEYS[1]))}
end
redis.call('HSET', KEYS[1], 'state', 'IN_PROGRESS', 'owner', ARGV[2], 'fingerprint', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'ACQUIRED'}
