-- Keeps a last good value unless the one stored is newer, so that writes landing out of order never bring back an older value.
-- KEYS[1] the value's key; ARGV[1] the stored text, whose first 28 characters are the time it was produced,
-- sortable as text; ARGV[2] the time to live in ms
-- Returns 1 if kept, 0 if the stored value is newer.
local stored = redis.call('GET', KEYS[1])
if stored and string.sub(stored, 29, 29) == '\n' and string.sub(stored, 1, 28) > string.sub(ARGV[1], 1, 28) then
    return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
