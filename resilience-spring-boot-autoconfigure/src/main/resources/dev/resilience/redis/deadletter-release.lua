-- Ends a claim with the letter's work not done: deletes the claim if it is still this one; the letter stays.
-- KEYS[1] the letter's claim (string); ARGV[1] the claim's token
-- Returns 1 if the claim was this one, 0 if it had run out.
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
