package sbredis

import "github.com/redis/go-redis/v9"

// The Lua scripts. Each touches one shard's keys, which share a hash tag,
// so each runs on one cluster node, atomically.

// createScript makes shard KEYS[1] (ARGV[1] zero bytes, starting with its
// prefix ARGV[2]) and its counter KEYS[2] at ARGV[3], unless either
// exists: it returns 1 if it made them, 0 if it wrote nothing.
var createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SETRANGE', KEYS[1], tonumber(ARGV[1]) - 1, '\0')
if #ARGV[2] > 0 then redis.call('SETRANGE', KEYS[1], 0, ARGV[2]) end
redis.call('SET', KEYS[2], ARGV[3])
return 1
`)

// mergeScript ORs the string KEYS[3] (a temporary key) into shard KEYS[1]
// with BITOP, deletes KEYS[3] and increments the counter KEYS[2], if the
// shard and KEYS[3] are strings of ARGV[1] bytes, the shard begins with its
// prefix ARGV[2] and the counter exists; else it deletes KEYS[3] only and
// fails with SBSHARD.
var mergeScript = redis.NewScript(`
local n = redis.pcall('STRLEN', KEYS[1])
if type(n) ~= 'number' then n = -1 end
if n ~= tonumber(ARGV[1]) or redis.call('GETRANGE', KEYS[1], 0, #ARGV[2] - 1) ~= ARGV[2] or redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('DEL', KEYS[3])
  return redis.error_reply('SBSHARD ' .. KEYS[1] .. ' is not a string of ' .. ARGV[1] .. ' bytes that begins with its prefix, or its counter is missing')
end
if redis.call('STRLEN', KEYS[3]) ~= n then
  redis.call('DEL', KEYS[3])
  return redis.error_reply('SBMERGE the temporary key ' .. KEYS[3] .. ' is incomplete')
end
redis.call('BITOP', 'OR', KEYS[1], KEYS[1], KEYS[3])
redis.call('DEL', KEYS[3])
redis.call('INCR', KEYS[2])
return 1
`)

// delIfScript deletes KEYS[1] if it holds ARGV[1].
var delIfScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

// windowAddScript sets the bits at the bit offsets ARGV[4..] of shard
// KEYS[1] of a Window's generation (BITFIELD SET u1, Redis' numbering, in
// groups: Lua's unpack is limited to about 8000 values), first making the
// shard (ARGV[1] zero bytes, starting with its prefix ARGV[3]) and its marker KEYS[2], both
// expiring at ARGV[2] (Unix ms), if the marker does not exist. It writes
// nothing and fails with SBSHARD if the marker exists and the shard is not
// a string of ARGV[1] bytes, or the shard exists without its marker; with
// SBCLOCK if it would make a generation that Redis' clock says has expired.
var windowAddScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    return redis.error_reply('SBSHARD ' .. KEYS[1] .. ' exists without its marker ' .. KEYS[2])
  end
  local t = redis.call('TIME')
  if tonumber(ARGV[2]) <= tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) then
    return redis.error_reply('SBCLOCK the generation ' .. KEYS[1] .. ' would expire at ' .. ARGV[2] .. ' ms, before the server time ' .. t[1] .. ' s')
  end
  redis.call('SETRANGE', KEYS[1], tonumber(ARGV[1]) - 1, '\0')
  if #ARGV[3] > 0 then redis.call('SETRANGE', KEYS[1], 0, ARGV[3]) end
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  redis.call('SET', KEYS[2], '1', 'PXAT', ARGV[2])
else
  local n = redis.call('STRLEN', KEYS[1])
  if n ~= tonumber(ARGV[1]) then
    return redis.error_reply('SBSHARD ' .. KEYS[1] .. ' holds ' .. n .. ' bytes, not ' .. ARGV[1])
  end
end
local a, j = {}, 0
for i = 4, #ARGV do
  a[j+1] = 'SET'; a[j+2] = 'u1'; a[j+3] = ARGV[i]; a[j+4] = '1'
  j = j + 4
  if j >= 4000 then
    redis.call('BITFIELD', KEYS[1], unpack(a, 1, j))
    j = 0
  end
end
if j > 0 then redis.call('BITFIELD', KEYS[1], unpack(a, 1, j)) end
return 1
`)
