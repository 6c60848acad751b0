-- wrk script: GET the tile paths listed in $TILES (one per line), round robin per thread, so that no tile
-- repeats before the list is through (with the cache off, every request renders).
local paths = {}
for line in io.lines(os.getenv("TILES")) do paths[#paths + 1] = line end
local i = 0
function setup(thread) thread:set("offset", math.floor(#paths / 2)) end
function init(args) i = offset or 0 end
function request()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
