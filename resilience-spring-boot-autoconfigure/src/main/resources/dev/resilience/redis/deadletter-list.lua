-- Drops expired dead letters and returns the JSON of the newest ones not expired, newest first.
-- KEYS[1] ids by write order (sorted set), KEYS[2] id -> JSON (hash), KEYS[3] ids by expiry time in ms (sorted set)
-- ARGV[1] limit, at least 1; ARGV[2] now in ms; ARGV[3] most expired to drop
local now = tonumber(ARGV[2])
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
if #expired > 0 then
    redis.call('ZREM', KEYS[1], unpack(expired))
    redis.call('HDEL', KEYS[2], unpack(expired))
    redis.call('ZREM', KEYS[3], unpack(expired))
end
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local bodies = {}
for first = 1, #ids, 1000 do
    local last = math.min(first + 999, #ids)
    local chunk = redis.call('HMGET', KEYS[2], unpack(ids, first, last))
    for i, body in ipairs(chunk) do
        local expiry = redis.call('ZSCORE', KEYS[3], ids[first + i - 1])
        if body and not (expiry and tonumber(expiry) <= now) then
            bodies[#bodies + 1] = body
        end
    end
end
return bodies
