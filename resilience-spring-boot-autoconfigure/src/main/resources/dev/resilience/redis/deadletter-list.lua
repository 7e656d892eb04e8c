-- Returns the JSON of the newest dead letters, newest first.
-- KEYS[1] ids by write order (sorted set), KEYS[2] id -> JSON (hash); ARGV[1] limit, at least 1
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local bodies = {}
for first = 1, #ids, 1000 do
    local chunk = redis.call('HMGET', KEYS[2], unpack(ids, first, math.min(first + 999, #ids)))
    for _, body in ipairs(chunk) do
        if body then
            bodies[#bodies + 1] = body
        end
    end
end
return bodies
