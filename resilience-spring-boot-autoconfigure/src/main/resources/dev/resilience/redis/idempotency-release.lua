-- Removes an IN_PROGRESS entry owned by the token; changes nothing otherwise.
-- KEYS[1] the entry hash; ARGV[1] owner token
-- Returns 1 if the entry was removed, 0 otherwise.
local entry = redis.call('HMGET', KEYS[1], 'state', 'owner')
if entry[1] ~= 'IN_PROGRESS' or entry[2] ~= ARGV[1] then
    return 0
end
redis.call('DEL', KEYS[1])
return 1
