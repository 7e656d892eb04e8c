-- Takes a permit of a rate limiter shared by every instance (GCRA), or gives one back; time is Redis's own.
-- KEYS[1] the limiter's theoretical arrival time (TAT): when it is back to a full burst, in microseconds
-- since the epoch on Redis's clock; a missing key is a full burst, and the key expires when the TAT is reached.
-- ARGV[1] 'take' or 'give-back'; ARGV[2] the interval between two permits (us); ARGV[3] the burst (limit x interval, us)
-- take: ARGV[4] the longest wait for a permit (us); ARGV[5], optional, the time (us on Redis's clock) after which
--   the caller no longer waits for the reply. Reserves the next permit if it is free within that wait, and the
--   deadline has not passed. Returns {wait, tat, now}: wait >= 0 and the new TAT when reserved (the permit is free
--   after wait); otherwise -wait (a permit would be free after wait, at least one interval past the deadline)
--   and the TAT unchanged.
-- give-back: ARGV[4] the TAT a reservation set. Moves the TAT back by one interval while it is still that one,
--   so that no later reservation's wait is shortened. Returns {1} if given back, {0} otherwise.
-- A stored TAT that no take can set (not a number, or beyond a burst and the longest wait of an hour ahead: written
-- by something else, or Redis's clock moved back) is replaced by a full burst from now, which expires with it.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local interval = tonumber(ARGV[2])
local stored = redis.call('GET', KEYS[1])
local function keep(arrival)
    if arrival > now then
        redis.call('SET', KEYS[1], string.format('%.0f', arrival), 'PX', math.ceil((arrival - now) / 1000))
    else
        redis.call('DEL', KEYS[1])
    end
end
local tat = now
if stored then
    local held = tonumber(stored)
    if held == nil or held ~= held or held > now + tonumber(ARGV[3]) + 3600000000 then
        held = now + tonumber(ARGV[3])
        keep(held)
        stored = string.format('%.0f', held)
    end
    tat = math.max(held, now)
end
if ARGV[1] == 'give-back' then
    if not stored or tonumber(stored) ~= tonumber(ARGV[4]) then
        return {0}
    end
    keep(tonumber(stored) - interval)
    return {1}
end
local arrival = tat + interval
local wait = arrival - now - tonumber(ARGV[3])
if wait > tonumber(ARGV[4]) then
    return {-wait, tat, now}
end
if ARGV[5] and now > tonumber(ARGV[5]) then
    return {-math.max(wait, interval), tat, now}
end
keep(arrival)
return {math.max(0, wait), arrival, now}
